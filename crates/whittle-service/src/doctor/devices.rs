//! What the mobile role lists: every device (one line each, with the lab host that owns
//! it in a pool), whether each Android one is ready, and the app under test on it.

use whittle_contract::mobile::Device;

use super::check::{Check, CheckName, Finding};
use crate::client::Hub;

/// The device lines, and the Android devices a replay could use.
pub(super) async fn device_checks(hub: &Hub) -> (Vec<Check>, Vec<Device>) {
    let devices = match hub.mobile().list_devices().await {
        Ok(list) => list.devices,
        Err(e) => {
            let check = Check::new(CheckName::Device, Finding::DevicesUnavailable, e.to_string())
                .fail("check the mobile role's server (for the adb backend: that `adb devices` works in a terminal)");
            return (vec![check], Vec::new());
        }
    };
    let mut checks = Vec::new();
    let mut ready = Vec::new();
    for device in devices {
        // In a pool across lab hosts, each device with the server that owns it.
        let server = hub.device_route(&device.id).map(|r| r.server);
        let host = server
            .as_ref()
            .map(|s| format!("  ({s})"))
            .unwrap_or_default();
        let detail = format!(
            "{}  {}  {}{host}",
            device.platform, device.device_type, device.state
        );
        let check = Check::new(CheckName::Device, Finding::DeviceReady, detail)
            .subject(device.id.clone())
            .server(server);
        let check = if !device.platform.eq_ignore_ascii_case("android") {
            Check {
                finding: Finding::DeviceNotAndroid,
                ..check
            }
        } else if is_online(&device.state) {
            ready.push(device);
            check
        } else if device.state.eq_ignore_ascii_case("unauthorized") {
            Check {
                finding: Finding::DeviceUnauthorized,
                ..check
            }
            .fail("unlock the phone and accept the “Allow USB debugging” prompt, then check again")
        } else {
            Check {
                finding: Finding::DeviceNotReady,
                ..check
            }
            .fail("reconnect the cable or restart adb (adb kill-server), then check again")
        };
        checks.push(check);
    }
    if ready.is_empty() && checks.iter().all(Check::ok) {
        checks.push(
            Check::new(CheckName::Device, Finding::NoAndroidDevice, "no Android device listed").fail(
                "connect a phone by USB with USB debugging on (Settings → Developer options) and \
                 accept its prompt, start an emulator, or use the simulator; `adb devices` should list it",
            ),
        );
    }
    (checks, ready)
}

/// The contract's states: "online" (adb's "device"); a missing state reads as online.
fn is_online(state: &str) -> bool {
    state.is_empty() || state.eq_ignore_ascii_case("online") || state.eq_ignore_ascii_case("device")
}

/// With a package: is it installed as a non-system app? Without: how many user apps.
pub(super) async fn app_check(hub: &Hub, device: &str, package: Option<&str>) -> Check {
    let apps = match hub.mobile().list_apps(device).await {
        Ok(list) => list.apps,
        Err(e) => {
            return Check::new(
                CheckName::App,
                Finding::AppsUnavailable,
                format!("on {device}: {e}"),
            )
            .fail("check the mobile role's server");
        }
    };
    let Some(pkg) = package else {
        let user_apps = apps.iter().filter(|a| !a.system).count();
        return Check::new(
            CheckName::App,
            Finding::AppsCounted,
            format!("{user_apps} installed app(s) on {device}"),
        );
    };
    let check = |finding, detail: String| Check::new(CheckName::App, finding, detail).subject(pkg);
    match apps.iter().find(|a| a.package == pkg) {
        Some(app) if !app.system => {
            let version = app.version_name.as_deref().unwrap_or("?");
            check(
                Finding::AppInstalled,
                format!("{pkg} {version} on {device}"),
            )
        }
        Some(_) => check(
            Finding::AppIsSystem,
            format!("{pkg} on {device} is a system app"),
        )
        .fail("Whittle replays only installed, non-system apps"),
        None => check(
            Finding::AppMissing,
            format!("{pkg} is not installed on {device}"),
        )
        .fail(format!(
            "install it (adb -s {device} install <apk>) or pick another device"
        )),
    }
}
