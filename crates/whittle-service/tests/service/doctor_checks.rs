//! The doctor's checks as data, against the real simulator servers and a stand-in adb
//! (a shell script answering `version` and `devices`) or none at all.

use crate::client_support;

use std::os::unix::fs::PermissionsExt;

use client_support::{servers_bin, setup};
use serde_json::json;
use whittle_service::doctor::{diagnose, Check, CheckName, CheckStatus, DoctorOptions, Finding};

fn findings(checks: &[Check], name: CheckName) -> Vec<(Option<&str>, Finding)> {
    checks
        .iter()
        .filter(|c| c.name == name)
        .map(|c| (c.subject.as_deref(), c.finding))
        .collect()
}

fn with_package(package: &str) -> DoctorOptions {
    DoctorOptions {
        package: Some(package.into()),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_simulator_passes_every_check_in_order() {
    let Some(bin) = servers_bin() else { return };
    let s = setup(&bin, &[], 30_000, |_| {});
    let report = diagnose(&s.config, &with_package("com.example.shop")).await;
    let checks = &report.checks;
    let roles = findings(checks, CheckName::Role);
    assert_eq!(
        roles,
        ["report", "analyzer", "mobile", "ui", "log"]
            .map(|r| (Some(r), Finding::RoleReady))
            .to_vec(),
        "{checks:#?}"
    );
    assert_eq!(
        findings(checks, CheckName::Device),
        vec![
            (Some("sim-1"), Finding::DeviceReady),
            (Some("sim-2"), Finding::DeviceReady)
        ]
    );
    assert_eq!(
        findings(checks, CheckName::App),
        vec![(Some("com.example.shop"), Finding::AppInstalled); 2]
    );
    assert!(checks
        .iter()
        .any(|c| c.detail == "com.example.shop 2.3.0 on sim-2"));
    // One capture per server: both devices are on the one simulator.
    assert_eq!(
        findings(checks, CheckName::Capture),
        vec![(Some("sim-1"), Finding::CaptureRunning)]
    );
    assert!(checks
        .iter()
        .all(|c| c.status == CheckStatus::Ok && c.fix.is_none()));
    assert!(report.passed() && report.device_ready() && !report.setup_failed());
    // The order a user fixes things in: the journal key, roles, then devices, apps, capture.
    let names: Vec<CheckName> = checks.iter().map(|c| c.name).collect();
    let mut sorted = names.clone();
    sorted.sort_by_key(|n| *n as u8);
    assert_eq!(names, sorted);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_or_system_app_fails_with_its_fix_and_no_package_counts_apps() {
    let Some(bin) = servers_bin() else { return };
    let s = setup(&bin, &[], 30_000, |_| {});
    let report = diagnose(&s.config, &with_package("com.example.missing")).await;
    let missing: Vec<&Check> = report
        .checks
        .iter()
        .filter(|c| c.finding == Finding::AppMissing)
        .collect();
    assert_eq!(missing.len(), 2, "{:#?}", report.checks);
    assert_eq!(
        missing[0].detail,
        "com.example.missing is not installed on sim-1"
    );
    assert_eq!(missing[0].status, CheckStatus::Fail);
    assert!(missing[0]
        .fix
        .as_deref()
        .unwrap()
        .starts_with("install it (adb -s sim-1 install <apk>)"));
    assert!(!report.passed() && !report.device_ready() && !report.setup_failed());

    let system = diagnose(&s.config, &with_package("com.android.settings")).await;
    assert!(system
        .checks
        .iter()
        .any(|c| c.finding == Finding::AppIsSystem && c.detail.ends_with("is a system app")));

    let counted = diagnose(&s.config, &DoctorOptions::default()).await;
    assert!(counted.passed());
    assert!(counted
        .checks
        .iter()
        .any(|c| c.finding == Finding::AppsCounted
            && c.detail.ends_with("installed app(s) on sim-1")));
}

/// adb-backed servers: the configured `--adb` is the one run; a remote serial must be
/// connected; a missing adb stops the doctor before it connects to any device.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn adb_is_checked_at_the_configured_path_with_its_remote_serials() {
    let Some(bin) = servers_bin() else { return };
    let tools = tempfile::tempdir().unwrap();
    let adb = tools.path().join("adb");
    std::fs::write(
        &adb,
        "#!/bin/sh\ncase \"$1\" in\n  version) echo 'Android Debug Bridge version 1.0.41';;\n  \
         devices) printf 'List of devices attached\\nstf.lab.example:7401\\tdevice\\n10.0.0.9:5555\\toffline\\n\\n';;\nesac\n",
    )
    .unwrap();
    std::fs::set_permissions(&adb, std::fs::Permissions::from_mode(0o755)).unwrap();
    let s = setup(&bin, &[], 30_000, |cfg| {
        let servers = cfg["mcpServers"].as_object_mut().unwrap();
        for (name, adb, serial) in [
            ("farm", adb.display().to_string(), "stf.lab.example:7401"),
            ("wifi", adb.display().to_string(), "10.0.0.9:5555"),
            ("gone", adb.display().to_string(), "10.0.0.10:5555"),
            ("absent", "/nonexistent/sdk/adb".into(), "R58M"),
        ] {
            servers.insert(
                name.into(),
                json!({"command": bin, "args": ["adb", "--adb", adb, "--serial", serial]}),
            );
        }
        // A plain-HTTP server off this machine warns, whether or not a role uses it.
        servers.insert("remote".into(), json!({"url": "http://10.1.2.3:8080/mcp"}));
    });
    let report = diagnose(&s.config, &DoctorOptions::default()).await;
    let adb_checks: Vec<(Option<&str>, Option<&str>, Finding)> = report
        .checks
        .iter()
        .filter(|c| c.name == CheckName::Adb)
        .map(|c| (c.server.as_deref(), c.subject.as_deref(), c.finding))
        .collect();
    assert_eq!(
        adb_checks,
        vec![
            (Some("absent"), None, Finding::AdbMissing),
            (Some("farm"), None, Finding::AdbFound),
            (
                Some("farm"),
                Some("stf.lab.example:7401"),
                Finding::RemoteConnected
            ),
            (Some("gone"), None, Finding::AdbFound),
            (Some("gone"), Some("10.0.0.10:5555"), Finding::RemoteMissing),
            (Some("wifi"), None, Finding::AdbFound),
            (Some("wifi"), Some("10.0.0.9:5555"), Finding::RemoteNotReady),
        ],
        "{:#?}",
        report.checks
    );
    let found = |f: Finding| report.checks.iter().find(|c| c.finding == f).unwrap();
    assert_eq!(
        found(Finding::AdbFound).detail,
        "Android Debug Bridge version 1.0.41"
    );
    let absent = found(Finding::AdbMissing);
    assert!(
        absent.detail.starts_with("/nonexistent/sdk/adb not found"),
        "{absent:?}"
    );
    assert!(absent
        .fix
        .as_deref()
        .unwrap()
        .contains("mcpServers.absent.args"));
    assert!(found(Finding::RemoteMissing)
        .fix
        .as_deref()
        .unwrap()
        .contains("adb connect 10.0.0.10:5555"));
    let http = found(Finding::PlainHttp);
    assert_eq!(
        (http.status, http.server.as_deref()),
        (CheckStatus::Warn, Some("remote"))
    );
    // Setup problems stop the doctor before any device is listed.
    assert!(report.setup_failed());
    assert!(findings(&report.checks, CheckName::Device).is_empty());
}
