//! Checks on the identifiers a client hands us. adb joins the words after `shell` into one
//! string that the device's shell parses, so anything that reaches a device command must be
//! proven inert first; a package name or serial that fails here never reaches adb.
use std::sync::LazyLock;

use regex::Regex;

use super::error::AdbError;

static PACKAGE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$").expect("package regex")
});

/// USB serials, `emulator-5554`, `host:port` and mDNS names (`adb-X._adb-tls-connect._tcp`).
static SERIAL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[A-Za-z0-9][A-Za-z0-9._:\-]*$").expect("serial regex"));

const MAX_PACKAGE: usize = 255;
const MAX_SERIAL: usize = 128;

pub fn package(name: &str) -> Result<&str, AdbError> {
    if name.len() <= MAX_PACKAGE && PACKAGE.is_match(name) {
        Ok(name)
    } else {
        Err(AdbError::BadPackage(name.to_string()))
    }
}

/// A device reached over TCP (`adb connect host:port`, a device farm's remote debug
/// address): a host name or IPv4 address, then a port.
static REMOTE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[A-Za-z0-9](?:[A-Za-z0-9.\-]*[A-Za-z0-9])?:([0-9]{1,5})$").expect("remote regex")
});

pub fn serial(id: &str) -> Result<&str, AdbError> {
    if id.len() > MAX_SERIAL || !SERIAL.is_match(id) {
        return Err(AdbError::BadDevice(id.to_string()));
    }
    // Only the TCP form has a colon; there it must be exactly `host:port`.
    if id.contains(':') && !is_remote(id) {
        return Err(AdbError::BadDevice(id.to_string()));
    }
    Ok(id)
}

/// True for `host:port` with a port in 1..=65535.
pub fn is_remote(id: &str) -> bool {
    REMOTE
        .captures(id)
        .and_then(|c| c.get(1))
        .and_then(|port| port.as_str().parse::<u16>().ok())
        .is_some_and(|port| port > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_package_names_pass() {
        for ok in ["com.example.shop", "uk.co.openweather", "a.b", "com.x_y.Z9"] {
            assert!(package(ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn anything_a_shell_could_read_is_refused() {
        for bad in [
            "",
            "com",
            "com.example;reboot",
            "com.example shop",
            "com.example$(id)",
            "com.example\nreboot",
            "-p.x",
            ".com.x",
            "com..x",
            "com.1x",
            "com.example'q'",
        ] {
            assert!(package(bad).is_err(), "{bad:?}");
        }
        assert!(package(&format!("a.{}", "b".repeat(300))).is_err());
    }

    #[test]
    fn serials_of_every_transport_pass_and_options_do_not() {
        for ok in [
            "emulator-5554",
            "R58M123ABC",
            "192.168.1.20:5555",
            "adb-R58M-abc._adb-tls-connect._tcp",
        ] {
            assert!(serial(ok).is_ok(), "{ok}");
        }
        for bad in ["", "-d", "--help", "a b", "x;y", "é"] {
            assert!(serial(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn remote_serials_are_host_and_port() {
        for ok in [
            "192.168.1.20:5555",
            "stf.lab.example.com:7401",
            "localhost:15555",
            "lab-host-3:1",
            "10.0.0.7:65535",
        ] {
            assert!(serial(ok).is_ok() && is_remote(ok), "{ok}");
        }
        for bad in [
            "host:",
            "host:0",
            "host:65536",
            "host:123456",
            "a:b:5555",
            "host.:5555",
            "-host:5555",
            "host:55a",
            "::1:5555",
        ] {
            assert!(serial(bad).is_err(), "{bad:?}");
        }
        assert!(!is_remote("emulator-5554") && !is_remote("R58M123ABC"));
    }
}
