//! Which `whittle.json` the app runs with. The session browser needs none; a minimize
//! run does, because it names the MCP servers of the five roles.

use std::path::{Path, PathBuf};

use whittle_service::api::Config;
use whittle_service::api::{provision, Provisioned, DEMO_MODEL, DEMO_WORKSPACE};

use crate::app_paths;
use crate::error::AppError;

/// Points the app at a config file (the e2e test and packaged builds use it).
pub const CONFIG_ENV: &str = "WHITTLE_CONFIG";
/// The bundle's product name: resources are installed under `/usr/lib/<it>`.
const PRODUCT: &str = "Whittle";

/// How the app found (or made) its config at start.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConfigChoice {
    pub path: Option<PathBuf>,
    /// Set when this start created the config (an installed app's first run).
    pub first_run: Option<Provisioned>,
    /// Why a first-run setup failed; the app still opens as a session browser.
    pub problem: Option<String>,
}

/// `$WHITTLE_CONFIG` when set; else the source checkout's demo config when the app runs
/// from that checkout's build folder; else the user's `<config>/whittle/whittle.json`;
/// else, for an installed app, a new one made from the bundled demo (first run).
pub fn find_config() -> ConfigChoice {
    if let Some(path) = std::env::var_os(CONFIG_ENV).filter(|v| !v.is_empty()) {
        return found(PathBuf::from(path));
    }
    let exe = std::env::current_exe().ok();
    if let Some(demo) = exe.as_deref().and_then(checkout_demo_config) {
        return found(demo);
    }
    let user = app_paths::config_dir().map(|d| d.join("whittle.json"));
    if let Some(user) = user.as_ref().filter(|p| p.is_file()) {
        return found(user.clone());
    }
    let (Some(bundled), Some(user), Some(data)) = (
        exe.as_deref().and_then(|e| bundled_demo(e, PRODUCT)),
        user,
        app_paths::data_dir(),
    ) else {
        return ConfigChoice::default();
    };
    match provision(&bundled, &user, &data) {
        Ok(made) => {
            tracing::info!(config = %made.config.display(), demo = %made.demo.display(), "first run: created the config and copied the demo");
            ConfigChoice {
                path: Some(made.config.clone()),
                first_run: Some(made),
                problem: None,
            }
        }
        Err(e) => {
            tracing::warn!(error = %e, "first run: the demo setup failed");
            ConfigChoice {
                problem: Some(e.to_string()),
                ..ConfigChoice::default()
            }
        }
    }
}

fn found(path: PathBuf) -> ConfigChoice {
    ConfigChoice {
        path: Some(std::fs::canonicalize(&path).unwrap_or(path)),
        ..ConfigChoice::default()
    }
}

/// The bundled demo folder (holding `shop.json` and `workspace/`) of an installed app:
/// `<exe>/../lib/Whittle/demo` for a .deb (also inside an unpacked or AppImage tree).
pub fn bundled_demo(exe: &Path, product: &str) -> Option<PathBuf> {
    let dir = exe.parent()?.join("../lib").join(product).join("demo");
    let dir = dir.canonicalize().ok()?;
    (dir.join(DEMO_MODEL).is_file() && dir.join(DEMO_WORKSPACE).is_dir()).then_some(dir)
}

/// The repository's `demo/whittle.json`, only for a binary built inside that
/// repository: an installed copy of the app must never pick up a source tree.
fn checkout_demo_config(exe: &Path) -> Option<PathBuf> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()?
        .canonicalize()
        .ok()?;
    let exe = exe.canonicalize().ok()?;
    let demo = repo.join("demo/whittle.json");
    (exe.starts_with(&repo) && demo.is_file()).then_some(demo)
}

/// The workspace a config names, when it loads.
pub fn configured_workspace(path: &Path) -> Option<PathBuf> {
    Config::load(path).ok().map(|c| c.workspace)
}

/// The config for a run in `workspace` (the one open in the window).
pub fn config_for(path: Option<&Path>, workspace: &Path) -> Result<Config, AppError> {
    let path = path.ok_or_else(|| AppError::ConfigUnavailable {
        reason: format!(
            "no whittle.json was found; set {CONFIG_ENV} to its path or create {}",
            app_paths::config_dir()
                .map(|d| d.join("whittle.json").display().to_string())
                .unwrap_or_else(|| "~/.config/whittle/whittle.json".into())
        ),
    })?;
    let config = Config::load(path).map_err(|e| AppError::ConfigUnavailable {
        reason: e.to_string(),
    })?;
    Ok(config.for_workspace(workspace))
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
}
