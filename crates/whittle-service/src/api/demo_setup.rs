//! A first start with no `whittle.json` anywhere yet (the installed app's): Whittle
//! writes one, wired to a copy of the bundled demo in the data folder (the installed copy
//! is read-only, and runs write evidence next to the sessions). Nothing that already
//! exists is overwritten: a second start finds the config and leaves it alone, even if
//! the user edited it. Where the bundle lies is the front end's to say.

use std::io;
use std::path::{Path, PathBuf};

use serde_json::json;

use crate::atomic::{write_atomic, FileMode};

/// What the bundle installs next to the app (`resources` in tauri.bundle.conf.json).
pub const DEMO_MODEL: &str = "shop.json";
pub const DEMO_WORKSPACE: &str = "workspace";

#[derive(Debug, thiserror::Error)]
pub enum DemoSetupError {
    #[error("could not copy the demo workspace to {to}: {source}")]
    Copy { to: PathBuf, source: io::Error },
    #[error("could not write {file}: {reason}")]
    Config { file: PathBuf, reason: String },
}

/// The outcome the first screen reports in one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Provisioned {
    pub config: PathBuf,
    pub demo: PathBuf,
}

/// Copies `bundled` to `data_dir/demo` (unless a copy is there already) and writes
/// `config_file` pointing at that copy and at the servers installed next to the app.
pub fn provision(
    bundled: &Path,
    config_file: &Path,
    data_dir: &Path,
) -> Result<Provisioned, DemoSetupError> {
    let demo = data_dir.join("demo");
    if !demo.join(DEMO_WORKSPACE).is_dir() {
        copy_tree(bundled, &demo).map_err(|source| DemoSetupError::Copy {
            to: demo.clone(),
            source,
        })?;
    }
    let workspace = demo.join(DEMO_WORKSPACE).display().to_string();
    let model = demo.join(DEMO_MODEL).display().to_string();
    // `whittle-servers` as a bare name is found next to the running app (the bundle's
    // sidecar), so the config stays valid if the package moves.
    let config = json!({
        "workspace": workspace,
        "mcpServers": {
            "whittle": { "command": "whittle-servers", "args": ["all", "--workspace", workspace] },
            "sim": { "command": "whittle-servers", "args": ["sim", "--model", model, "--devices", "2"] }
        },
        "roles": { "report": "whittle", "analyzer": "whittle", "mobile": "sim", "ui": "sim", "log": "sim" },
        "timing": { "settle_ms": 300, "drain_interval_ms": 250, "action_pause_ms": 100 }
    });
    let text = serde_json::to_string_pretty(&config).unwrap_or_default() + "\n";
    let failed = |reason: String| DemoSetupError::Config {
        file: config_file.to_path_buf(),
        reason,
    };
    if let Some(parent) = config_file.parent() {
        std::fs::create_dir_all(parent).map_err(|e| failed(e.to_string()))?;
    }
    write_atomic(config_file, text.as_bytes(), FileMode::Private)
        .map_err(|e| failed(e.to_string()))?;
    Ok(Provisioned {
        config: config_file.to_path_buf(),
        demo,
    })
}

/// A plain recursive copy of files and folders; symlinks are skipped so a link in the
/// bundle can never make us copy something outside it.
fn copy_tree(from: &Path, to: &Path) -> io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    fn bundle(root: &Path) -> PathBuf {
        let demo = root.join("usr/lib/Whittle/demo");
        std::fs::create_dir_all(demo.join("workspace/sessions/s1")).unwrap();
        std::fs::write(demo.join("shop.json"), "{}").unwrap();
        std::fs::write(demo.join("workspace/sessions/s1/meta.json"), "{}").unwrap();
        std::fs::create_dir_all(root.join("usr/bin")).unwrap();
        demo
    }

    #[test]
    fn provisions_a_config_that_loads_and_points_at_the_copy() {
        let root = tempfile::tempdir().unwrap();
        let demo = bundle(root.path());
        let home = tempfile::tempdir().unwrap();
        let file = home.path().join("config/whittle/whittle.json");
        let done = provision(&demo, &file, &home.path().join("data/whittle")).unwrap();
        assert!(done.demo.join("workspace/sessions/s1/meta.json").is_file());
        let config = Config::load(&file).unwrap();
        assert_eq!(config.workspace, done.demo.join("workspace"));
        // The user's edits to the copy survive a second provisioning.
        std::fs::write(done.demo.join("workspace/sessions/s1/meta.json"), "edited").unwrap();
        provision(&demo, &file, &home.path().join("data/whittle")).unwrap();
        let kept = std::fs::read_to_string(done.demo.join("workspace/sessions/s1/meta.json"));
        assert_eq!(kept.unwrap(), "edited");
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_in_the_bundle_are_not_followed() {
        let root = tempfile::tempdir().unwrap();
        let demo = bundle(root.path());
        let secret = tempfile::tempdir().unwrap();
        std::fs::write(secret.path().join("key"), "secret").unwrap();
        std::os::unix::fs::symlink(secret.path(), demo.join("workspace/link")).unwrap();
        let home = tempfile::tempdir().unwrap();
        let done = provision(&demo, &home.path().join("w.json"), home.path()).unwrap();
        assert!(!done.demo.join("workspace/link").exists());
    }
}
