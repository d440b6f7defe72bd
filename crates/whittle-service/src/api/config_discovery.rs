//! Which `whittle.json` a front end runs with: one search for the window, `whittle` and
//! `whittle mcp`, so a tester who double-clicks the app and an engineer in a terminal on
//! the same machine get the same servers and workspace.
//!
//! In order: the path the user gave (`--config`); `$WHITTLE_CONFIG`; the source
//! checkout's `demo/whittle.json` for a binary built in that checkout; the user's
//! `<config>/whittle/whittle.json`; and only for the window, on an installed app's first
//! start, a new one wired to a copy of the bundled demo (`demo_setup.rs`).

use std::path::{Path, PathBuf};

use super::demo_setup::{provision, Provisioned, DEMO_MODEL, DEMO_WORKSPACE};

/// Points every front end at a config file (the e2e tests and packaged builds use it).
pub const CONFIG_ENV: &str = "WHITTLE_CONFIG";
/// The folder under the OS config and data folders that holds Whittle's files.
const APP_DIR: &str = "whittle";
/// The bundle's product name: its resources are installed under `/usr/lib/<it>`.
const PRODUCT: &str = "Whittle";

/// What a front end asks the search for.
#[derive(Debug, Clone, Copy, Default)]
pub struct ConfigSearch<'a> {
    /// `--config`: used as given, whether or not it exists (loading it says what is wrong).
    pub explicit: Option<&'a Path>,
    /// With no config anywhere, write one for the bundled demo of an installed app (the
    /// window's first start; the terminal never writes a config it was not asked for).
    pub first_start: bool,
}

/// How the config was found (or made).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConfigChoice {
    pub path: Option<PathBuf>,
    /// Set when this start created the config (an installed app's first start).
    pub first_run: Option<Provisioned>,
    /// Why a first-start setup failed; the window still opens as a session browser.
    pub problem: Option<String>,
}

impl ConfigChoice {
    /// The file to load: the one found, else where the user's own config belongs (so
    /// loading it names the file the user should create).
    pub fn path_or_expected(&self) -> PathBuf {
        self.path.clone().unwrap_or_else(expected_config_file)
    }
}

/// Finds the config as the module says.
pub fn find_config(search: ConfigSearch<'_>) -> ConfigChoice {
    if let Some(path) = search.explicit {
        return found(path.to_path_buf());
    }
    if let Some(path) = std::env::var_os(CONFIG_ENV).filter(|v| !v.is_empty()) {
        return found(PathBuf::from(path));
    }
    let exe = std::env::current_exe().ok();
    if let Some(demo) = exe.as_deref().and_then(checkout_demo_config) {
        return found(demo);
    }
    let user = user_config_dir().map(|d| d.join("whittle.json"));
    if let Some(user) = user.as_ref().filter(|p| p.is_file()) {
        return found(user.clone());
    }
    if !search.first_start {
        return ConfigChoice::default();
    }
    let (Some(bundled), Some(user), Some(data)) = (
        exe.as_deref().and_then(|e| bundled_demo(e, PRODUCT)),
        user,
        user_data_dir(),
    ) else {
        return ConfigChoice::default();
    };
    match provision(&bundled, &user, &data) {
        Ok(made) => {
            tracing::info!(config = %made.config.display(), demo = %made.demo.display(), "first start: created the config and copied the demo");
            ConfigChoice {
                path: Some(made.config.clone()),
                first_run: Some(made),
                problem: None,
            }
        }
        Err(e) => {
            tracing::warn!(error = %e, "first start: the demo setup failed");
            ConfigChoice {
                problem: Some(e.to_string()),
                ..ConfigChoice::default()
            }
        }
    }
}

/// `<config>/whittle/whittle.json` (`~/.config/whittle/whittle.json` on Linux): where the
/// user's own config belongs.
pub fn expected_config_file() -> PathBuf {
    user_config_dir()
        .map(|d| d.join("whittle.json"))
        .unwrap_or_else(|| PathBuf::from("whittle.json"))
}

/// `$XDG_CONFIG_HOME/whittle` (`~/.config/whittle` on Linux).
fn user_config_dir() -> Option<PathBuf> {
    dirs::config_dir().map(|d| d.join(APP_DIR))
}

/// `$XDG_DATA_HOME/whittle` (`~/.local/share/whittle`): the demo's writable copy, and
/// the window's list of its own runs.
pub fn user_data_dir() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join(APP_DIR))
}

fn found(path: PathBuf) -> ConfigChoice {
    ConfigChoice {
        path: Some(std::fs::canonicalize(&path).unwrap_or(path)),
        ..ConfigChoice::default()
    }
}

/// The `demo/whittle.json` of the checkout a binary was built in: the folder holding
/// the `target` folder the binary sits under (`target/debug/`, `target/<triple>/release/`).
/// An installed copy sits under no `target` folder, so it never picks up a source tree.
fn checkout_demo_config(exe: &Path) -> Option<PathBuf> {
    let exe = exe.canonicalize().ok()?;
    let target = exe
        .ancestors()
        .skip(1)
        .find(|dir| dir.file_name().is_some_and(|n| n == "target"))?;
    let demo = target.parent()?.join("demo").join("whittle.json");
    demo.is_file().then_some(demo)
}

/// The bundled demo folder (holding `shop.json` and `workspace/`) of an installed app:
/// `<exe>/../lib/Whittle/demo` for a .deb (also inside an unpacked or AppImage tree).
fn bundled_demo(exe: &Path, product: &str) -> Option<PathBuf> {
    let dir = exe.parent()?.join("../lib").join(product).join("demo");
    let dir = dir.canonicalize().ok()?;
    (dir.join(DEMO_MODEL).is_file() && dir.join(DEMO_WORKSPACE).is_dir()).then_some(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_demo_next_to_an_installed_binary() {
        let root = tempfile::tempdir().unwrap();
        let demo = root.path().join("usr/lib/Whittle/demo");
        std::fs::create_dir_all(demo.join(DEMO_WORKSPACE)).unwrap();
        std::fs::write(demo.join(DEMO_MODEL), "{}").unwrap();
        std::fs::create_dir_all(root.path().join("usr/bin")).unwrap();
        let exe = root.path().join("usr/bin/whittle-app");
        let found = bundled_demo(&exe, "Whittle").unwrap();
        assert!(found.ends_with("usr/lib/Whittle/demo"));
        assert_eq!(bundled_demo(&exe, "Other"), None);
    }

    #[test]
    fn a_binary_built_in_a_checkout_finds_its_demo_and_an_installed_one_does_not() {
        let root = tempfile::tempdir().unwrap();
        let checkout = root.path().join("whittle");
        std::fs::create_dir_all(checkout.join("demo")).unwrap();
        std::fs::write(checkout.join("demo/whittle.json"), "{}").unwrap();
        for bin in ["target/debug", "target/x86_64-unknown-linux-gnu/release"] {
            let dir = checkout.join(bin);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("whittle"), "").unwrap();
            let found = checkout_demo_config(&dir.join("whittle")).unwrap();
            assert_eq!(
                found,
                checkout.join("demo/whittle.json").canonicalize().unwrap()
            );
        }
        // Installed beside a folder that happens to hold a demo: not a build of it.
        let usr = root.path().join("usr");
        std::fs::create_dir_all(usr.join("bin")).unwrap();
        std::fs::create_dir_all(root.path().join("demo")).unwrap();
        std::fs::write(root.path().join("demo/whittle.json"), "{}").unwrap();
        std::fs::write(usr.join("bin/whittle"), "").unwrap();
        assert_eq!(checkout_demo_config(&usr.join("bin/whittle")), None);
    }

    #[test]
    fn the_path_the_user_gave_comes_first_even_when_missing() {
        let dir = tempfile::tempdir().unwrap();
        let given = dir.path().join("mine.json");
        let choice = find_config(ConfigSearch {
            explicit: Some(&given),
            first_start: true,
        });
        assert_eq!(choice.path.as_deref(), Some(given.as_path()));
        assert_eq!(choice.first_run, None);
    }
}
