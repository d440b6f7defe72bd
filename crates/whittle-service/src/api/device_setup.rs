//! "Connect a real device": the doctor's checks (`crate::doctor`, the same ones
//! `whittle doctor` prints) run on the config as it would run on adb, and switching the
//! config's device roles to the adb backend once they pass. An adb server the user
//! already configured (its `--adb` path, its `--serial`) is the one checked and used.

use std::path::Path;

use serde::Serialize;
use whittle_contract::Role;

use super::config_edit::{edit_config, ConfigEditError};
use crate::config::{Config, ServerSpec, BUNDLED_SERVERS};
use crate::doctor::{diagnose, Check, DoctorOptions};

/// The server name the adb backend gets in `whittle.json` when none is configured.
pub const ADB_SERVER: &str = "adb";
const DEVICE_ROLES: [Role; 3] = [Role::Mobile, Role::Ui, Role::Log];

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct DeviceSetupReport {
    /// The doctor's checks, in the order they ran.
    pub checks: Vec<Check>,
    /// Every check passed and at least one Android device is ready.
    pub ready: bool,
    /// The config's device roles already use a real backend.
    pub in_use: bool,
}

/// The config as it would run on adb: the bundled simulator's roles move to the
/// configured `whittle-servers adb` server (a new one without arguments when there is
/// none); a config that already names another backend is checked as is.
pub fn adb_variant(config: &Config) -> Config {
    let mut config = config.clone();
    if !uses_simulator(&config) {
        return config;
    }
    let server = adb_server(&config).unwrap_or_else(|| {
        config.servers.insert(
            ADB_SERVER.into(),
            ServerSpec::Stdio {
                command: BUNDLED_SERVERS.into(),
                args: vec!["adb".into()],
                env: Default::default(),
            },
        );
        ADB_SERVER.to_string()
    });
    for role in DEVICE_ROLES {
        config.roles.insert(role, server.clone().into());
    }
    config
}

/// The first configured server that runs the adb backend.
fn adb_server(config: &Config) -> Option<String> {
    config.servers.iter().find_map(|(name, spec)| match spec {
        ServerSpec::Stdio { args, .. } if args.first().is_some_and(|a| a == "adb") => {
            Some(name.clone())
        }
        _ => None,
    })
}

/// The config's device roles use the bundled simulator.
pub fn uses_simulator(config: &Config) -> bool {
    let server = config.roles.get(&Role::Mobile);
    server
        .and_then(|names| config.servers.get(names.primary()))
        .is_some_and(ServerSpec::is_bundled_simulator)
}

/// The doctor's checks of `current` as it would run on adb.
pub async fn check_real_device(current: &Config) -> DeviceSetupReport {
    let in_use = !uses_simulator(current);
    let report = diagnose(&adb_variant(current), &DoctorOptions::default()).await;
    DeviceSetupReport {
        ready: report.device_ready(),
        checks: report.checks,
        in_use,
    }
}

/// Points the config file's device roles at the adb backend (or back at the simulator),
/// keeping everything else in the file as the user wrote it.
pub fn use_backend(config_path: &Path, real: bool) -> Result<(), ConfigEditError> {
    edit_config(config_path, |value| switch_backend(value, real))
}

fn switch_backend(value: &mut serde_json::Value, real: bool) -> Result<(), ConfigEditError> {
    let sim = value["mcpServers"].as_object().and_then(|servers| {
        servers.iter().find_map(|(name, spec)| {
            let args = spec["args"].as_array()?;
            (args.first()?.as_str()? == "sim").then(|| name.clone())
        })
    });
    // The user's own adb server (its `--adb`, its `--serial`) when the file has one.
    let adb = value["mcpServers"].as_object().and_then(|servers| {
        servers.iter().find_map(|(name, spec)| {
            let args = spec["args"].as_array()?;
            (args.first()?.as_str()? == "adb").then(|| name.clone())
        })
    });
    let target = if real {
        adb.unwrap_or_else(|| {
            value["mcpServers"][ADB_SERVER] =
                serde_json::json!({ "command": BUNDLED_SERVERS, "args": ["adb"] });
            ADB_SERVER.to_string()
        })
    } else {
        sim.ok_or(ConfigEditError::NoSimulator)?
    };
    for role in DEVICE_ROLES {
        value["roles"][role.as_str()] = serde_json::Value::String(target.clone());
    }
    // On adb a hierarchy dump takes seconds, so waiting for a stable screen would cost
    // more than the seed's fixed pauses; the simulator answers at once.
    value["timing"]["wait"] =
        serde_json::Value::String(if real { "fixed" } else { "evidence" }.into());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEMO: &str = r#"{ "workspace": "w",
      "mcpServers": { "whittle": { "command": "whittle-servers", "args": ["all", "--workspace", "w"] },
                      "sim": { "command": "whittle-servers", "args": ["sim", "--model", "shop.json"] } },
      "roles": { "report": "whittle", "analyzer": "whittle", "mobile": "sim", "ui": "sim", "log": "sim" },
      "timing": { "settle_ms": 300 } }"#;

    #[test]
    fn the_adb_variant_moves_only_the_device_roles() {
        let config = Config::parse(DEMO, Path::new("/tmp/w.json")).unwrap();
        let adb = adb_variant(&config);
        for role in DEVICE_ROLES {
            assert_eq!(adb.roles[&role], ADB_SERVER);
        }
        assert_eq!(adb.roles[&Role::Report], "whittle");
        // A config already on a real backend is checked as it is.
        assert_eq!(adb_variant(&adb), adb);
    }

    #[test]
    fn switching_backends_round_trips_and_keeps_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("whittle.json");
        std::fs::write(&file, DEMO).unwrap();
        use_backend(&file, true).unwrap();
        let config = Config::load(&file).unwrap();
        assert!(!uses_simulator(&config));
        assert_eq!(config.roles[&Role::Log], ADB_SERVER);
        assert_eq!(config.timing.settle_ms, 300);
        assert_eq!(config.timing.wait, crate::config::WaitMode::Fixed);
        use_backend(&file, false).unwrap();
        assert!(uses_simulator(&Config::load(&file).unwrap()));
    }

    /// The demo config plus an adb server of the user's own, with its own adb path.
    fn with_own_adb(adb: &str) -> String {
        DEMO.replace(
            r#""sim": {"#,
            &format!(
                r#""phone": {{ "command": "whittle-servers", "args": ["adb", "--adb", "{adb}"] }},
                      "sim": {{"#
            ),
        )
    }

    #[test]
    fn an_adb_server_the_user_configured_is_the_one_checked_and_switched_to() {
        let config =
            Config::parse(&with_own_adb("/opt/sdk/adb"), Path::new("/tmp/w.json")).unwrap();
        let adb = adb_variant(&config);
        assert_eq!(adb.roles[&Role::Mobile], "phone");
        assert!(!adb.servers.contains_key(ADB_SERVER));

        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("whittle.json");
        std::fs::write(&file, with_own_adb("/opt/sdk/adb")).unwrap();
        use_backend(&file, true).unwrap();
        let switched = Config::load(&file).unwrap();
        assert_eq!(switched.roles[&Role::Ui], "phone");
        assert!(!switched.servers.contains_key(ADB_SERVER));
    }

    /// The app's checks honour the adb path the config gives, as `whittle doctor` does:
    /// a missing one is named with its path and the fix points at the setting.
    #[test]
    fn the_check_uses_the_configured_adb_path() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("whittle.json");
        std::fs::write(&file, with_own_adb("/nonexistent/sdk/adb")).unwrap();
        let config = Config::load(&file).unwrap();
        let report = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(check_real_device(&config));
        let adb = report
            .checks
            .iter()
            .find(|c| c.name == crate::doctor::CheckName::Adb)
            .expect("an adb check");
        assert_eq!(adb.finding, crate::doctor::Finding::AdbMissing, "{adb:?}");
        assert_eq!(adb.server.as_deref(), Some("phone"));
        assert!(
            adb.detail.starts_with("/nonexistent/sdk/adb not found"),
            "{}",
            adb.detail
        );
        assert!(
            adb.fix.as_deref().unwrap().contains("\"--adb\" path"),
            "{adb:?}"
        );
        assert!(!report.ready && !report.in_use);
    }
}
