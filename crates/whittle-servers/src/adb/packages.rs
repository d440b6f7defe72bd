//! `pm list packages` and `dumpsys package` → the mobile role's app list.
use std::collections::BTreeSet;

use super::validate;

/// Package names from `pm list packages [-f|-s]` output. With `-f` a line is
/// `package:<apk path>=<name>`; the path may itself contain `=`, a package name never
/// does, so the name is what follows the last `=`. Names that are not valid package names
/// (a confused or hostile device) are dropped: they would later reach a device shell.
pub fn parse_package_list(output: &str) -> BTreeSet<String> {
    output
        .lines()
        .filter_map(|l| l.trim().strip_prefix("package:"))
        .map(|rest| rest.rsplit('=').next().unwrap_or(rest).trim())
        .filter(|name| validate::package(name).is_ok())
        .map(str::to_string)
        .collect()
}

/// `versionName` and `versionCode` of the first package section of `dumpsys package
/// <pkg>` (an updated system app lists the update first).
pub fn parse_version(dumpsys: &str) -> (Option<String>, Option<u32>) {
    let mut name = None;
    let mut code = None;
    for word in dumpsys.split_whitespace() {
        if name.is_none() {
            if let Some(v) = word.strip_prefix("versionName=") {
                name = Some(v.to_string());
            }
        }
        if code.is_none() {
            if let Some(v) = word.strip_prefix("versionCode=") {
                code = v.parse().ok();
            }
        }
        if name.is_some() && code.is_some() {
            break;
        }
    }
    (name, code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_after_the_last_equals_sign() {
        let out =
            "package:/data/app/~~veR3ZUFY==/com.example.shop-bhuZG0==/base.apk=com.example.shop\n\
                   package:/system/priv-app/Settings/Settings.apk=com.android.settings\r\n\
                   package:com.plain.name\n\
                   package:/data/app/x.apk=com.evil;reboot\n\
                   garbage line\n";
        let names: Vec<_> = parse_package_list(out).into_iter().collect();
        assert_eq!(
            names,
            ["com.android.settings", "com.example.shop", "com.plain.name"]
        );
    }

    #[test]
    fn version_is_read_from_the_first_section() {
        let dumpsys = "Packages:\n  Package [com.example.shop] (4a1b2c3):\n    userId=10123\n    \
                       versionCode=230 minSdk=24 targetSdk=34\n    versionName=2.3.0\n  \
                       Package [com.example.shop] (older):\n    versionCode=100 minSdk=24\n    versionName=1.0.0\n";
        assert_eq!(parse_version(dumpsys), (Some("2.3.0".into()), Some(230)));
        assert_eq!(parse_version("Unable to find package: x"), (None, None));
    }
}
