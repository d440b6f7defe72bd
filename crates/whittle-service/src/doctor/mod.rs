//! The doctor: every check a setup needs before a run, as data (`Check`), produced once
//! here for every front end. The CLI prints the checks (`whittle doctor`), the app shows
//! them ("Connect a real device"); neither decides anything about them.
//!
//! The order is the order a user fixes things in: the journal key (it seals every run),
//! the transport, each role's servers,
//! adb for adb-backed servers; only when those pass are the servers connected to list
//! the devices, the app on each ready Android device, and a log capture on one device
//! per server (each lab host runs its own captures).

mod adb;
mod capture;
mod check;
mod devices;
mod journal_key;
mod roles;
mod transport;

use std::collections::BTreeSet;

pub use check::{Check, CheckName, CheckStatus, DoctorReport, Finding};

use crate::client::Hub;
use crate::config::Config;

/// What the doctor checks beyond the setup itself.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DoctorOptions {
    /// Check that this app is installed (non-system) on every ready Android device;
    /// without it, the installed apps are counted.
    pub package: Option<String>,
}

/// Runs every check for `config`. Never fails: whatever goes wrong is a failed check
/// with its fix.
#[tracing::instrument(skip_all, fields(config = %config.path.display()))]
pub async fn diagnose(config: &Config, options: &DoctorOptions) -> DoctorReport {
    let mut checks = transport::plain_http_checks(config);
    checks.extend(roles::role_checks(config).await);
    checks.extend(adb::adb_checks(config));
    if checks.iter().all(Check::ok) {
        checks.extend(device_stage(config, options).await);
    }
    // First in the report, but no gate for the devices: runs go on without a key of
    // their own, only their approval later does not.
    checks.insert(0, journal_key::journal_key_check());
    DoctorReport { checks }
}

async fn device_stage(config: &Config, options: &DoctorOptions) -> Vec<Check> {
    let hub = match Hub::connect(config).await {
        Ok(hub) => hub,
        Err(e) => {
            let fix = e
                .problems
                .iter()
                .map(|p| p.fix(&config.path))
                .collect::<Vec<_>>()
                .join("; ");
            let check = Check::new(
                CheckName::Device,
                Finding::ServersUnavailable,
                e.to_string(),
            );
            return vec![check.fail(fix)];
        }
    };
    let (mut checks, ready) = devices::device_checks(&hub).await;
    for device in &ready {
        checks.push(devices::app_check(&hub, &device.id, options.package.as_deref()).await);
    }
    let mut probed = BTreeSet::new();
    for device in &ready {
        if probed.insert(hub.device_route(&device.id).map(|r| r.server)) {
            checks.push(capture::capture_check(&hub, &device.id).await);
        }
    }
    hub.shutdown().await;
    checks
}
