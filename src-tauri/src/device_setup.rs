//! "Connect a real device": the doctor's checks for a phone on adb, each with a fix, and
//! switching the config's device roles to the adb backend once they pass.

use std::path::Path;

use serde::Serialize;
use whittle_core::contract::Role;
use whittle_mcp::client::{check_roles, Hub, RoleStatus};
use whittle_mcp::config::{Config, ServerSpec, BUNDLED_SERVERS};

use crate::app_config::config_for;
use crate::config_edit::edit_config;
use crate::error::AppError;

/// The server name the adb backend gets in `whittle.json`.
pub const ADB_SERVER: &str = "adb";
const DEVICE_ROLES: [Role; 3] = [Role::Mobile, Role::Ui, Role::Log];

#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "snake_case")]
pub enum CheckName {
    Adb,
    Role,
    Devices,
}

/// One line of the checklist: what was checked, what was found, and the fix.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
pub struct SetupCheck {
    pub name: CheckName,
    /// The role or device the line is about, when there is one.
    pub subject: Option<String>,
    pub ok: bool,
    pub detail: String,
    pub fix: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
pub struct DeviceSetupReport {
    pub checks: Vec<SetupCheck>,
    /// Every check passed and at least one Android device is ready.
    pub ready: bool,
    /// The config's device roles already use a real backend.
    pub in_use: bool,
}

/// The config as it would run on adb: the bundled simulator's roles move to
/// `whittle-servers adb`; a config that already names another backend is checked as is.
pub fn adb_variant(config: &Config) -> Config {
    let mut config = config.clone();
    if !uses_simulator(&config) {
        return config;
    }
    config.servers.insert(
        ADB_SERVER.into(),
        ServerSpec::Stdio {
            command: BUNDLED_SERVERS.into(),
            args: vec!["adb".into()],
            env: Default::default(),
        },
    );
    for role in DEVICE_ROLES {
        config.roles.insert(role, ADB_SERVER.into());
    }
    config
}

fn uses_simulator(config: &Config) -> bool {
    let server = config.roles.get(&Role::Mobile);
    match server.and_then(|names| config.servers.get(names.primary())) {
        Some(ServerSpec::Stdio { command, args, .. }) => {
            Path::new(command)
                .file_stem()
                .is_some_and(|s| s == BUNDLED_SERVERS)
                && args.first().is_some_and(|a| a == "sim")
        }
        _ => false,
    }
}

pub async fn check(
    config_path: Option<&Path>,
    workspace: &Path,
) -> Result<DeviceSetupReport, AppError> {
    let current = config_for(config_path, workspace)?;
    let in_use = !uses_simulator(&current);
    let config = adb_variant(&current);
    let mut checks = vec![adb_binary()];
    for role in check_roles(&config).await {
        let (ok, detail, fix) = match role.status {
            RoleStatus::Ok => (
                true,
                format!("served by {}", role.server.unwrap_or_default()),
                None,
            ),
            RoleStatus::Problem { problem, fix } => (false, problem, Some(fix)),
        };
        checks.push(SetupCheck {
            name: CheckName::Role,
            subject: Some(role.role.as_str().to_string()),
            ok,
            detail,
            fix,
        });
    }
    if checks.iter().all(|c| c.ok) {
        checks.extend(devices(&config).await);
    }
    let ready = checks.iter().all(|c| c.ok) && checks.iter().any(|c| c.name == CheckName::Devices);
    Ok(DeviceSetupReport {
        checks,
        ready,
        in_use,
    })
}

/// `adb version`, as an argument vector (never a shell).
fn adb_binary() -> SetupCheck {
    let (ok, detail, fix) = match std::process::Command::new("adb").arg("version").output() {
        Ok(out) if out.status.success() => {
            let text = String::from_utf8_lossy(&out.stdout);
            (true, text.lines().next().unwrap_or("adb").trim().to_string(), None)
        }
        Ok(out) => (false, format!("`adb version` exited with {}", out.status), Some("reinstall the Android platform tools".to_string())),
        Err(e) => (
            false,
            format!("adb was not found: {e}"),
            Some("install the Android platform tools (Debian/Ubuntu: sudo apt install adb) so that `adb` is on PATH".to_string()),
        ),
    };
    SetupCheck {
        name: CheckName::Adb,
        subject: None,
        ok,
        detail,
        fix,
    }
}

async fn devices(config: &Config) -> Vec<SetupCheck> {
    let line = |subject: Option<String>, ok: bool, detail: String, fix: Option<&str>| SetupCheck {
        name: CheckName::Devices,
        subject,
        ok,
        detail,
        fix: fix.map(str::to_string),
    };
    let hub = match Hub::connect(config).await {
        Ok(hub) => hub,
        Err(e) => {
            return vec![line(
                None,
                false,
                e.to_string(),
                Some("check the adb server's settings in whittle.json"),
            )]
        }
    };
    let listed = hub.mobile().list_devices().await;
    hub.shutdown().await;
    let devices = match listed {
        Ok(list) => list.devices,
        Err(e) => {
            return vec![line(
                None,
                false,
                e.to_string(),
                Some("check that `adb devices` works in a terminal"),
            )]
        }
    };
    let android: Vec<_> = devices
        .into_iter()
        .filter(|d| d.platform.eq_ignore_ascii_case("android"))
        .collect();
    if android.is_empty() {
        return vec![line(
            None,
            false,
            "no Android device is connected".into(),
            Some("connect the phone by USB, turn on USB debugging (Settings → Developer options), accept the prompt on the phone, then check again"),
        )];
    }
    android
        .into_iter()
        .map(|d| {
            let ready =
                d.state.eq_ignore_ascii_case("online") || d.state.eq_ignore_ascii_case("device");
            let fix = (!ready).then_some(if d.state.eq_ignore_ascii_case("unauthorized") {
                "unlock the phone and accept the “Allow USB debugging” prompt"
            } else {
                "reconnect the cable or restart adb (adb kill-server), then check again"
            });
            line(
                Some(d.id.clone()),
                ready,
                format!("{} ({})", d.name, d.state),
                fix,
            )
        })
        .collect()
}

/// Points the config file's device roles at the adb backend (or back at the simulator),
/// keeping everything else in the file as the user wrote it.
pub fn use_backend(config_path: &Path, real: bool) -> Result<(), AppError> {
    edit_config(config_path, |value| switch_backend(value, real))
}

fn switch_backend(value: &mut serde_json::Value, real: bool) -> Result<(), AppError> {
    let failed = |reason: String| AppError::ConfigUnavailable { reason };
    let sim = value["mcpServers"].as_object().and_then(|servers| {
        servers.iter().find_map(|(name, spec)| {
            let args = spec["args"].as_array()?;
            (args.first()?.as_str()? == "sim").then(|| name.clone())
        })
    });
    let target = if real {
        if value["mcpServers"].get(ADB_SERVER).is_none() {
            value["mcpServers"][ADB_SERVER] =
                serde_json::json!({ "command": BUNDLED_SERVERS, "args": ["adb"] });
        }
        ADB_SERVER.to_string()
    } else {
        sim.ok_or_else(|| failed("the config has no simulator server to switch back to".into()))?
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
        assert_eq!(config.timing.wait, whittle_mcp::config::WaitMode::Fixed);
        use_backend(&file, false).unwrap();
        assert!(uses_simulator(&Config::load(&file).unwrap()));
    }

    #[test]
    fn a_broken_file_is_refused_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("whittle.json");
        std::fs::write(&file, "{ not json").unwrap();
        assert!(matches!(
            use_backend(&file, true),
            Err(AppError::ConfigUnavailable { .. })
        ));
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "{ not json");
    }
}
