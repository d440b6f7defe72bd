//! A configuration value that must never be shown: header values of `url` servers
//! (bearer tokens, API keys), once `${VAR}` is expanded.
use std::fmt;

/// `Debug` prints `[redacted]`; there is no `Display` and no `Serialize`, so the value
/// reaches a log, a report or the window only through an explicit `expose()`.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Secret {
        Secret(value.into())
    }

    /// The value, for the one place that sends it (the HTTP request).
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

#[cfg(test)]
mod tests {
    use super::Secret;

    #[test]
    fn debug_hides_the_value() {
        let s = Secret::new("Bearer lab-token-123");
        assert_eq!(format!("{s:?}"), "[redacted]");
        assert_eq!(
            format!("{:?}", vec![("Authorization", s.clone())])
                .matches("lab-token")
                .count(),
            0
        );
        assert_eq!(s.expose(), "Bearer lab-token-123");
    }
}
