//! Which servers serve a role: one name, or — for the device roles — a list with one
//! server per lab host (`"mobile": ["labA", "labB"]`).
//!
//! The rule for lists: a device belongs to one host, and all its mobile, ui and log calls
//! go to that host's server. So when any device role names a list, `mobile`, `ui` and
//! `log` must name the same servers in the same order (each host serves all three), and
//! `report` and `analyzer` name one server each: there is one evidence store and one
//! signature authority per run.
use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use whittle_contract::Role;

/// One or more configured server names, in the order the file gives them.
#[derive(Clone, PartialEq, Eq)]
pub struct RoleServers(Vec<String>);

impl RoleServers {
    /// Never empty (the loader refuses an empty list).
    pub fn names(&self) -> &[String] {
        &self.0
    }

    /// The first server: the only one for a single-server role.
    pub fn primary(&self) -> &str {
        self.0.first().map(String::as_str).unwrap_or_default()
    }

    /// True when the role spans several servers (a device pool across lab hosts).
    pub fn is_pool(&self) -> bool {
        self.0.len() > 1
    }

    pub fn contains(&self, name: &str) -> bool {
        self.0.iter().any(|n| n == name)
    }
}

impl From<&str> for RoleServers {
    fn from(name: &str) -> Self {
        RoleServers(vec![name.to_string()])
    }
}

impl From<String> for RoleServers {
    fn from(name: String) -> Self {
        RoleServers(vec![name])
    }
}

impl From<Vec<String>> for RoleServers {
    fn from(names: Vec<String>) -> Self {
        RoleServers(names)
    }
}

/// A single-server role compares equal to its server's name.
impl PartialEq<&str> for RoleServers {
    fn eq(&self, other: &&str) -> bool {
        self.0.len() == 1 && self.0[0] == *other
    }
}

impl PartialEq<str> for RoleServers {
    fn eq(&self, other: &str) -> bool {
        self.0.len() == 1 && self.0[0] == other
    }
}

/// `labA` or `labA, labB`.
impl fmt::Display for RoleServers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.join(", "))
    }
}

impl fmt::Debug for RoleServers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.as_slice() {
            [one] => write!(f, "{one:?}"),
            many => write!(f, "{many:?}"),
        }
    }
}

impl<'de> Deserialize<'de> for RoleServers {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            One(String),
            Many(Vec<String>),
        }
        match Raw::deserialize(de) {
            Ok(Raw::One(name)) => Ok(RoleServers(vec![name])),
            Ok(Raw::Many(names)) => Ok(RoleServers(names)),
            Err(_) => Err(serde::de::Error::custom(
                "expected a server name or a list of server names",
            )),
        }
    }
}

/// Checks the list rule above; the error is `(field, message)`.
pub(crate) fn check_roles(roles: &BTreeMap<Role, RoleServers>) -> Result<(), (String, String)> {
    for (role, servers) in roles {
        let at = format!("roles.{role}");
        if servers.0.is_empty() {
            return Err((at, "names no server".into()));
        }
        if let Some(dup) = servers
            .0
            .iter()
            .enumerate()
            .find(|(i, n)| servers.0[..*i].contains(n))
        {
            return Err((at, format!("names server \"{}\" twice", dup.1)));
        }
        if servers.is_pool() && !DEVICE_ROLES.contains(role) {
            return Err((
                at,
                "names several servers; only the device roles (mobile, ui, log) may".into(),
            ));
        }
    }
    let pooled = DEVICE_ROLES
        .iter()
        .find(|r| roles.get(r).is_some_and(RoleServers::is_pool));
    if let Some(pooled) = pooled {
        let list = &roles[pooled];
        for role in DEVICE_ROLES {
            if roles.get(&role) != Some(list) {
                return Err((
                    format!("roles.{role}"),
                    format!(
                        "must name the same servers in the same order as roles.{pooled} ([{}]): \
                         each lab host serves the mobile, ui and log calls of its own devices",
                        list.0
                            .iter()
                            .map(|n| format!("\"{n}\""))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// The roles whose calls name a device.
pub const DEVICE_ROLES: [Role; 3] = [Role::Mobile, Role::Ui, Role::Log];

#[cfg(test)]
mod tests {
    use super::*;

    fn roles(json: &str) -> BTreeMap<Role, RoleServers> {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn a_name_or_a_list() {
        let r = roles(r#"{"report": "w", "mobile": ["labA", "labB"]}"#);
        assert_eq!(r[&Role::Report], "w");
        assert_eq!(r[&Role::Mobile].names(), ["labA", "labB"]);
        assert_eq!(r[&Role::Mobile].primary(), "labA");
        assert_eq!(r[&Role::Mobile].to_string(), "labA, labB");
        assert!(r[&Role::Mobile] != "labA");
        assert!(serde_json::from_str::<BTreeMap<Role, RoleServers>>(r#"{"ui": 3}"#).is_err());
    }

    #[test]
    fn device_lists_must_match_and_other_roles_stay_single() {
        let same = r#"{"report": "w", "analyzer": "w", "mobile": ["a", "b"], "ui": ["a", "b"], "log": ["a", "b"]}"#;
        assert!(check_roles(&roles(same)).is_ok());
        let mixed_singles = r#"{"mobile": "mm", "ui": "sim", "log": "sim"}"#;
        assert!(
            check_roles(&roles(mixed_singles)).is_ok(),
            "single servers may differ"
        );

        let order = r#"{"mobile": ["a", "b"], "ui": ["b", "a"], "log": ["a", "b"]}"#;
        let (field, message) = check_roles(&roles(order)).unwrap_err();
        assert_eq!(field, "roles.ui");
        assert!(message.contains(r#"["a", "b"]"#), "{message}");
        let missing = r#"{"mobile": ["a", "b"], "ui": ["a", "b"]}"#;
        assert_eq!(check_roles(&roles(missing)).unwrap_err().0, "roles.log");
        let single = r#"{"mobile": ["a", "b"], "ui": "a", "log": ["a", "b"]}"#;
        assert_eq!(check_roles(&roles(single)).unwrap_err().0, "roles.ui");
        let report = r#"{"report": ["w", "x"]}"#;
        assert_eq!(check_roles(&roles(report)).unwrap_err().0, "roles.report");
        let twice = r#"{"mobile": ["a", "a"]}"#;
        assert!(check_roles(&roles(twice)).unwrap_err().1.contains("twice"));
        let empty = r#"{"mobile": []}"#;
        assert!(check_roles(&roles(empty))
            .unwrap_err()
            .1
            .contains("no server"));
    }
}
