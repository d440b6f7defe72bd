//! The app's attack surface, checked from the files that define it: the window may call
//! exactly the app's commands (and the folder picker), nothing from a shell or a file
//! system plugin, and the page may load nothing from any remote origin.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).unwrap()
}

/// The commands the build script registers (the app manifest), by name.
fn registered_commands() -> BTreeSet<String> {
    let build = read("build.rs");
    let list = build
        .split("commands(&[")
        .nth(1)
        .and_then(|rest| rest.split("])").next())
        .expect("the command list in build.rs");
    list.split(',')
        .map(|s| s.trim().trim_matches('"').to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// The commands the app hands to Tauri (`collect_commands!` in lib.rs), by name.
fn handled_commands() -> BTreeSet<String> {
    let lib = read("src/lib.rs");
    let list = lib
        .split("collect_commands![")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .expect("the command list in lib.rs");
    list.split(',')
        .map(|s| s.trim().trim_start_matches("commands::").to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// A command the app handles but the manifest does not register is refused to the
/// window at run time (as Copy as Markdown's was): the two lists are one.
#[test]
fn every_handled_command_is_registered_in_the_manifest() {
    assert_eq!(handled_commands(), registered_commands());
}

#[test]
fn capabilities_grant_the_apps_commands_the_folder_picker_and_nothing_else() {
    let caps: Value = serde_json::from_str(&read("capabilities/default.json")).unwrap();
    let granted: BTreeSet<String> = caps["permissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().expect("plain permission names").to_string())
        .collect();
    let commands: BTreeSet<String> = registered_commands()
        .iter()
        .map(|c| format!("allow-{}", c.replace('_', "-")))
        .collect();
    let others: BTreeSet<&str> = granted
        .iter()
        .map(String::as_str)
        .filter(|p| !commands.contains(*p))
        .collect();
    assert_eq!(
        others,
        BTreeSet::from(["core:default", "dialog:allow-open"]),
        "only the app's own commands, core basics and the open-folder dialog"
    );
    assert!(
        commands.iter().all(|c| granted.contains(c)),
        "every registered command is granted (else the UI cannot call it)"
    );
    assert_eq!(caps["windows"], serde_json::json!(["main"]));
}

#[test]
fn no_shell_or_file_system_plugin_is_linked() {
    let manifest = read("Cargo.toml");
    for plugin in ["tauri-plugin-shell", "tauri-plugin-fs", "tauri-plugin-http"] {
        assert!(
            !manifest.contains(plugin),
            "{plugin} must not be a dependency"
        );
    }
}

#[test]
fn the_csp_allows_no_remote_origin_and_no_inline_script() {
    let conf: Value = serde_json::from_str(&read("tauri.conf.json")).unwrap();
    let csp = conf["app"]["security"]["csp"]
        .as_str()
        .expect("a CSP is set");
    let allowed_hosts = ["http://ipc.localhost", "http://asset.localhost"];
    for source in csp.split(';').flat_map(|d| d.split_whitespace().skip(1)) {
        let remote =
            source.starts_with("http:") || source.starts_with("https:") || source.contains("://");
        assert!(
            !remote || allowed_hosts.contains(&source),
            "remote source {source} in the CSP"
        );
        assert_ne!(source, "*", "wildcard source in the CSP");
    }
    let script = csp
        .split(';')
        .map(str::trim)
        .find(|d| d.starts_with("script-src"))
        .expect("script-src");
    assert_eq!(script, "script-src 'self'", "no inline or eval script");
    assert!(csp.contains("object-src 'none'"));
}
