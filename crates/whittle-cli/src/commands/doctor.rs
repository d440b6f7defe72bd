use std::path::{Path, PathBuf};

use whittle_core::contract::log::CaptureState;
use whittle_core::contract::mobile::Device;
use whittle_mcp::client::{check_roles, Hub, RoleStatus};
use whittle_mcp::config::{Config, ServerSpec};

use crate::exit::Exit;

/// Each role: does each of its servers start and list the tools? Then what a real
/// setup needs: adb on the machine (for adb-backed servers, and `host:port` serials
/// connected), devices, the app, a working capture on every server. Every problem is one
/// line with a fix.
pub async fn run(config: &Config, package: Option<&str>) -> Exit {
    println!("config: {}", config.path.display());
    println!("workspace: {}", config.workspace.display());
    // A warning, not a problem: the setup works, it is just readable on the network.
    for (name, url) in super::plain_http::plain_http_servers(config) {
        println!(
            "WARNING  http     ({name}): {url} is plain HTTP to a non-loopback address; \
             tool calls and results cross the network unencrypted\n         fix: {}",
            super::plain_http::FIX
        );
    }
    let mut problems = 0;
    for check in check_roles(config).await {
        let server = check.server.as_deref().unwrap_or("-");
        match &check.status {
            RoleStatus::Ok => println!("ok       {:<8} ({server})", check.role.as_str()),
            RoleStatus::Problem { problem, fix } => {
                problems += 1;
                problem_line(check.role.as_str(), &format!("({server}): {problem}"), fix);
            }
        }
    }
    problems += check_adb_binaries(config);
    if problems > 0 {
        return Exit::Usage;
    }
    let hub = match super::connect(config).await {
        Ok(hub) => hub,
        Err(exit) => return exit,
    };
    let exit = check_devices(&hub, package).await;
    hub.shutdown().await;
    exit
}

fn problem_line(what: &str, problem: &str, fix: &str) {
    println!("PROBLEM  {what:<8} {problem}\n         fix: {fix}");
}

async fn check_devices(hub: &Hub, package: Option<&str>) -> Exit {
    let devices = match hub.mobile().list_devices().await {
        Ok(list) => list.devices,
        Err(e) => {
            problem_line("devices", &e.to_string(), "check the mobile role's server");
            return Exit::Infrastructure;
        }
    };
    let android: Vec<&Device> = devices
        .iter()
        .filter(|d| d.platform.eq_ignore_ascii_case("android"))
        .collect();
    for d in &devices {
        // In a pool across lab hosts, each device with the server that owns it.
        let host = hub
            .device_route(&d.id)
            .map(|r| format!("  ({})", r.server))
            .unwrap_or_default();
        println!(
            "device   {}  {}  {}  {}{host}",
            d.id, d.platform, d.device_type, d.state
        );
    }
    let Some(first) = android.first() else {
        problem_line(
            "devices",
            "no Android device listed",
            "connect a phone with USB debugging on (adb devices), start an emulator, or use the simulator",
        );
        return Exit::Infrastructure;
    };
    let mut exit = Exit::Live;
    for device in &android {
        if !check_app(hub, &device.id, package).await {
            exit = Exit::Infrastructure;
        }
    }
    // One capture check per server: each lab host runs its own log captures.
    let mut checked = std::collections::BTreeSet::new();
    for device in std::iter::once(first).chain(&android) {
        let server = hub.device_route(&device.id).map(|r| r.server);
        if !checked.insert(server) {
            continue;
        }
        if !check_capture(hub, &device.id).await {
            exit = Exit::Infrastructure;
        }
    }
    exit
}

/// With `--package`: is it installed as a non-system app? Without: how many user apps.
async fn check_app(hub: &Hub, device: &str, package: Option<&str>) -> bool {
    let apps = match hub.mobile().list_apps(device).await {
        Ok(list) => list.apps,
        Err(e) => {
            problem_line(
                "apps",
                &format!("on {device}: {e}"),
                "check the mobile role's server",
            );
            return false;
        }
    };
    match package {
        Some(pkg) => match apps.iter().find(|a| a.package == pkg) {
            Some(app) if !app.system => {
                let version = app.version_name.as_deref().unwrap_or("?");
                println!("ok       app      {pkg} {version} on {device}");
                true
            }
            Some(_) => {
                problem_line(
                    "app",
                    &format!("{pkg} on {device} is a system app"),
                    "Whittle replays only installed, non-system apps",
                );
                false
            }
            None => {
                problem_line(
                    "app",
                    &format!("{pkg} is not installed on {device}"),
                    &format!("install it (adb -s {device} install <apk>) or pick another device"),
                );
                false
            }
        },
        None => {
            let user_apps = apps.iter().filter(|a| !a.system).count();
            println!("ok       apps     {user_apps} installed app(s) on {device} (check one with --package)");
            true
        }
    }
}

/// Starts a capture into a throwaway folder, checks that it runs, stops it.
async fn check_capture(hub: &Hub, device: &str) -> bool {
    let dir = match tempfile::tempdir() {
        Ok(dir) => dir,
        Err(e) => {
            problem_line("capture", &format!("no temp folder: {e}"), "check TMPDIR");
            return false;
        }
    };
    let session = format!("doctor-probe-{}", std::process::id());
    let dir_text = dir.path().display().to_string();
    let log = hub.log();
    if let Err(e) = log.start_capture(&session, &dir_text, device).await {
        problem_line(
            "capture",
            &e.to_string(),
            "check the log role's server and the device connection",
        );
        return false;
    }
    let running = match log.list_captures().await {
        Ok(list) => list
            .captures
            .iter()
            .find(|c| c.session_id == session)
            .map(|c| (c.status, c.reason.clone())),
        Err(e) => {
            problem_line("capture", &e.to_string(), "check the log role's server");
            None
        }
    };
    let stopped = log.stop_capture(&session).await;
    match (running, stopped) {
        (Some((CaptureState::Running, _)), Ok(stop)) if stop.stopped => {
            println!("ok       capture  logs are captured from {device}");
            true
        }
        (Some((state, reason)), _) if state != CaptureState::Running => {
            let reason = reason.unwrap_or_else(|| format!("{state:?}").to_lowercase());
            problem_line(
                "capture",
                &format!("capture on {device} is not running: {reason}"),
                "check that `adb logcat` works for this device (or the log server's own logs)",
            );
            false
        }
        (_, Ok(stop)) if !stop.stopped => {
            let reason = stop.reason.or(stop.error).unwrap_or_default();
            problem_line(
                "capture",
                &format!("capture did not stop cleanly: {reason}"),
                "restart the log server",
            );
            false
        }
        (_, Err(e)) => {
            problem_line("capture", &e.to_string(), "check the log role's server");
            false
        }
        _ => {
            problem_line(
                "capture",
                "the capture was not listed after it started",
                "check the log role's server",
            );
            false
        }
    }
}

/// For each configured `whittle-servers adb` server: is its adb program there and working?
fn check_adb_binaries(config: &Config) -> usize {
    let mut problems = 0;
    for (name, spec) in &config.servers {
        let ServerSpec::Stdio { args, .. } = spec else {
            continue;
        };
        if args.first().map(String::as_str) != Some("adb") {
            continue;
        }
        let adb = args
            .iter()
            .position(|a| a == "--adb")
            .and_then(|i| args.get(i + 1))
            .map(|p| config_relative(&config.path, p))
            .unwrap_or_else(|| PathBuf::from("adb"));
        // An argument vector, never a shell: the path comes from the user's config.
        match std::process::Command::new(&adb).arg("version").output() {
            Ok(out) if out.status.success() => {
                let first = String::from_utf8_lossy(&out.stdout);
                let first = first.lines().next().unwrap_or("").trim().to_owned();
                println!("ok       adb      ({name}) {first}");
                let serial = args
                    .iter()
                    .position(|a| a == "--serial")
                    .and_then(|i| args.get(i + 1));
                if let Some(serial) = serial.filter(|s| s.contains(':')) {
                    if !check_remote_serial(name, &adb, serial) {
                        problems += 1;
                    }
                }
            }
            Ok(out) => {
                problems += 1;
                problem_line(
                    "adb",
                    &format!(
                        "({name}) `{} version` exited with {}",
                        adb.display(),
                        out.status
                    ),
                    "reinstall Android platform-tools",
                );
            }
            Err(e) => {
                problems += 1;
                problem_line(
                    "adb",
                    &format!("({name}) {} not found: {e}", adb.display()),
                    "install Android platform-tools (apt-get install adb) or set \"--adb\", \"/path/to/adb\" in the server's args",
                );
            }
        }
    }
    problems
}

/// A `host:port` serial (`adb connect`, a device farm's remote debug address) must be
/// connected on this machine before the adb server can drive it.
fn check_remote_serial(name: &str, adb: &Path, serial: &str) -> bool {
    let listed = std::process::Command::new(adb).arg("devices").output();
    let state =
        match listed {
            Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout)
                .lines()
                .find_map(|line| {
                    let mut words = line.split_whitespace();
                    (words.next() == Some(serial)).then(|| words.next().unwrap_or("").to_string())
                }),
            _ => None,
        };
    match state.as_deref() {
        Some("device") => {
            println!("ok       adb      ({name}) remote device {serial} is connected");
            true
        }
        Some(other) => {
            problem_line(
                "adb",
                &format!("({name}) remote device {serial} is {other}"),
                &format!("reconnect it: adb disconnect {serial} && adb connect {serial} (accept the debugging prompt on the phone)"),
            );
            false
        }
        None => {
            problem_line(
                "adb",
                &format!("({name}) remote device {serial} is not connected"),
                &format!("run `adb connect {serial}` on this machine (a device farm lists this address as the device's remote debug URL)"),
            );
            false
        }
    }
}

fn config_relative(config_path: &Path, value: &str) -> PathBuf {
    let path = PathBuf::from(value);
    if path.is_relative() && value.contains('/') {
        config_path.parent().map(|d| d.join(&path)).unwrap_or(path)
    } else {
        path
    }
}
