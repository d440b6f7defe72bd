//! For each configured `whittle-servers adb` server: is its adb program there and
//! working (the `--adb` path from its args, else `adb` on PATH, as the server itself
//! does), and is its `host:port` serial connected on this machine?

use std::path::{Path, PathBuf};

use super::check::{Check, CheckName, Finding};
use crate::config::{Config, ServerSpec};

pub(super) fn adb_checks(config: &Config) -> Vec<Check> {
    let mut checks = Vec::new();
    for (name, spec) in &config.servers {
        let ServerSpec::Stdio { args, .. } = spec else {
            continue;
        };
        if args.first().map(String::as_str) != Some("adb") {
            continue;
        }
        let given = arg_value(args, "--adb");
        let adb = given
            .map(|p| config_relative(&config.path, p))
            .unwrap_or_else(|| PathBuf::from("adb"));
        let server = Some(name.clone());
        let check = |finding, detail: String| {
            Check::new(CheckName::Adb, finding, detail).server(server.clone())
        };
        // An argument vector, never a shell: the path comes from the user's config.
        match std::process::Command::new(&adb).arg("version").output() {
            Ok(out) if out.status.success() => {
                let text = String::from_utf8_lossy(&out.stdout);
                let first = text.lines().next().unwrap_or("").trim().to_owned();
                checks.push(check(Finding::AdbFound, first));
                let serial = arg_value(args, "--serial").filter(|s| s.contains(':'));
                if let Some(serial) = serial {
                    checks.push(remote_serial(&adb, serial).server(server.clone()));
                }
            }
            Ok(out) => checks.push(
                check(
                    Finding::AdbFailed,
                    format!("`{} version` exited with {}", adb.display(), out.status),
                )
                .fail("reinstall Android platform-tools"),
            ),
            Err(e) => {
                let fix = match given {
                    Some(_) => format!(
                        "install Android platform-tools, or correct the \"--adb\" path in \
                         mcpServers.{name}.args of {}",
                        config.path.display()
                    ),
                    None => "install Android platform-tools (Debian/Ubuntu: sudo apt install adb) \
                             so that `adb` is on PATH, or set \"--adb\", \"/path/to/adb\" in the \
                             server's args"
                        .to_string(),
                };
                checks.push(
                    check(
                        Finding::AdbMissing,
                        format!("{} not found: {e}", adb.display()),
                    )
                    .fail(fix),
                );
            }
        }
    }
    checks
}

fn arg_value<'a>(args: &'a [String], flag: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == flag)
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
}

/// A `host:port` serial (`adb connect`, a device farm's remote debug address) must be
/// connected on this machine before the adb server can drive it.
fn remote_serial(adb: &Path, serial: &str) -> Check {
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
    let check =
        |finding, detail: String| Check::new(CheckName::Adb, finding, detail).subject(serial);
    match state.as_deref() {
        Some("device") => check(
            Finding::RemoteConnected,
            format!("remote device {serial} is connected"),
        ),
        Some(other) => check(
            Finding::RemoteNotReady,
            format!("remote device {serial} is {other}"),
        )
        .fail(format!(
            "reconnect it: adb disconnect {serial} && adb connect {serial} (accept the debugging prompt on the phone)"
        )),
        None => check(
            Finding::RemoteMissing,
            format!("remote device {serial} is not connected"),
        )
        .fail(format!(
            "run `adb connect {serial}` on this machine (a device farm lists this address as the device's remote debug URL)"
        )),
    }
}

/// A relative `--adb` with a slash is relative to the config file, like the server's
/// other paths; a bare name is looked up on PATH.
fn config_relative(config_path: &Path, value: &str) -> PathBuf {
    let path = PathBuf::from(value);
    if path.is_relative() && value.contains('/') {
        config_path.parent().map(|d| d.join(&path)).unwrap_or(path)
    } else {
        path
    }
}
