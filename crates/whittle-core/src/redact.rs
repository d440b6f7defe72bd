//! A wrapper that keeps a sensitive value out of every rendering.
//!
//! Input values typed during a replay travel through plans, logs, reports and IPC.
//! Wrapping them in [`Redacted`] makes "print it by accident" impossible: `Debug`,
//! `Display` and `Serialize` all render `[redacted]`. Reading the value requires an
//! explicit [`Redacted::expose`], which is easy to grep for in review. There is
//! deliberately no `Deserialize`: a redacted value must come from parsed session data,
//! never from a payload that claims to carry one.

use std::fmt;

use serde::{Serialize, Serializer};

/// What every rendering of a [`Redacted`] value prints.
pub const REDACTED: &str = "[redacted]";

#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Redacted<T>(T);

impl<T> Redacted<T> {
    pub fn new(value: T) -> Self {
        Redacted(value)
    }

    /// The wrapped value. Callers must not log, print or persist what they get here.
    pub fn expose(&self) -> &T {
        &self.0
    }
}

impl<T> fmt::Debug for Redacted<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(REDACTED)
    }
}

impl<T> fmt::Display for Redacted<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(REDACTED)
    }
}

impl<T> Serialize for Redacted<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(REDACTED)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rendering_hides_the_value() {
        let secret = Redacted::new(String::from("hunter2"));
        assert_eq!(format!("{secret}"), "[redacted]");
        assert_eq!(format!("{secret:?}"), "[redacted]");
        assert_eq!(format!("{secret:#?}"), "[redacted]");
        assert_eq!(serde_json::to_string(&secret).unwrap(), "\"[redacted]\"");
    }

    #[test]
    fn hidden_inside_containers_too() {
        #[derive(Debug, Serialize)]
        struct Holder {
            value: Redacted<String>,
        }
        let holder = Holder {
            value: Redacted::new("4111 1111 1111 1111".into()),
        };
        let debug = format!("{holder:?}");
        let json = serde_json::to_string(&holder).unwrap();
        assert!(!debug.contains("4111"), "{debug}");
        assert!(!json.contains("4111"), "{json}");
        assert_eq!(json, r#"{"value":"[redacted]"}"#);
    }

    #[test]
    fn expose_returns_the_original() {
        let secret = Redacted::new(String::from("search shoes"));
        assert_eq!(secret.expose(), "search shoes");
        assert_eq!(secret.clone(), secret);
    }
}
