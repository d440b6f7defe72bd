//! The strategy names a user can pick (`--strategy`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
// `Strategy` is taken in the bindings by the UI contract's locator strategy.
#[cfg_attr(feature = "specta", serde(rename = "SearchStrategy"))]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    /// The seed's bisect + one-by-one search (the default).
    #[default]
    Seed,
    /// One binary search per essential step over the order-preserving remainder.
    Binary,
    /// `binary`'s search with every verdict sampled until its Wilson interval separates
    /// from the crash rate; for crashes that show on only some replays. Never high.
    Flaky,
}

impl Strategy {
    pub const ALL: [Strategy; 3] = [Strategy::Seed, Strategy::Binary, Strategy::Flaky];

    pub fn name(self) -> &'static str {
        match self {
            Strategy::Seed => "seed",
            Strategy::Binary => "binary",
            Strategy::Flaky => "flaky",
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown strategy {given:?}; expected one of: seed, binary, flaky")]
pub struct UnknownStrategy {
    pub given: String,
}

impl FromStr for Strategy {
    type Err = UnknownStrategy;

    fn from_str(s: &str) -> Result<Strategy, UnknownStrategy> {
        Strategy::ALL
            .into_iter()
            .find(|strategy| strategy.name() == s)
            .ok_or_else(|| UnknownStrategy {
                // Echo at most a short prefix: the argument is user input of any length.
                given: s.chars().take(32).collect(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_are_refused() {
        for strategy in Strategy::ALL {
            assert_eq!(strategy.name().parse::<Strategy>(), Ok(strategy));
        }
        let err = "ddmin".parse::<Strategy>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown strategy \"ddmin\"; expected one of: seed, binary, flaky"
        );
        assert_eq!(Strategy::default(), Strategy::Seed);
    }
}
