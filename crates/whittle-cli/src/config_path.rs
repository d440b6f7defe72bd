use std::path::{Path, PathBuf};

/// Which whittle.json to use: `--config`, else `$WHITTLE_CONFIG`, else the demo config
/// of a source checkout (`<exe dir>/../../demo/whittle.json`), else the OS config
/// folder's `whittle/whittle.json`.
pub fn config_path(explicit: Option<&Path>) -> PathBuf {
    if let Some(path) = explicit {
        return path.to_path_buf();
    }
    if let Some(env) = std::env::var_os("WHITTLE_CONFIG").filter(|v| !v.is_empty()) {
        return PathBuf::from(env);
    }
    if let Some(demo) = checkout_demo().filter(|p| p.is_file()) {
        return demo;
    }
    os_config_dir().join("whittle").join("whittle.json")
}

fn checkout_demo() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    Some(exe.parent()?.join("../../demo/whittle.json"))
}

fn os_config_dir() -> PathBuf {
    if let Some(xdg) = std::env::var_os("XDG_CONFIG_HOME").filter(|v| !v.is_empty()) {
        return PathBuf::from(xdg);
    }
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("."));
    if cfg!(target_os = "macos") {
        home.join("Library/Application Support")
    } else {
        home.join(".config")
    }
}
