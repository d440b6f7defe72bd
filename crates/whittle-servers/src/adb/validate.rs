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

pub fn serial(id: &str) -> Result<&str, AdbError> {
    if id.len() <= MAX_SERIAL && SERIAL.is_match(id) {
        Ok(id)
    } else {
        Err(AdbError::BadDevice(id.to_string()))
    }
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
}
