//! The search strategies a user can pick (`--strategy`; the window's *Search*), each
//! with one name from code to window: `seed` (the normative algorithm, the default),
//! `binary`, `flaky`. (`plan::Strategy` is a different thing: one way to find an element.)

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum SearchStrategy {
    /// The seed's bisect + one-by-one search (the default).
    #[default]
    Seed,
    /// One binary search per essential step over the order-preserving remainder.
    Binary,
    /// `binary`'s search with every verdict sampled until its Wilson interval separates
    /// from the crash rate; for crashes that show on only some replays. Never high.
    Flaky,
}

impl SearchStrategy {
    pub const ALL: [SearchStrategy; 3] = [
        SearchStrategy::Seed,
        SearchStrategy::Binary,
        SearchStrategy::Flaky,
    ];

    pub fn name(self) -> &'static str {
        match self {
            SearchStrategy::Seed => "seed",
            SearchStrategy::Binary => "binary",
            SearchStrategy::Flaky => "flaky",
        }
    }
}

impl fmt::Display for SearchStrategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown strategy {given:?}; expected one of: seed, binary, flaky")]
pub struct UnknownStrategy {
    pub given: String,
}

impl FromStr for SearchStrategy {
    type Err = UnknownStrategy;

    fn from_str(s: &str) -> Result<SearchStrategy, UnknownStrategy> {
        SearchStrategy::ALL
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
        for strategy in SearchStrategy::ALL {
            assert_eq!(strategy.name().parse::<SearchStrategy>(), Ok(strategy));
        }
        let err = "ddmin".parse::<SearchStrategy>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown strategy \"ddmin\"; expected one of: seed, binary, flaky"
        );
        assert_eq!(SearchStrategy::default(), SearchStrategy::Seed);
    }
}
