//! The counts a user gives a run (the replay budget, the pool size, the baseline tries):
//! an integer of at least 1, parsed once where the user typed it — the CLI's argument
//! text or the window's number — into the `NonZeroU32` the run takes. A bad value is
//! a typed refusal naming the field and what was given, the same from either front end.

use std::fmt;
use std::num::NonZeroU32;

use serde::Serialize;

/// Which count of the run a value was given for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum CountField {
    MaxReplays,
    Devices,
    BaselineTries,
}

impl CountField {
    /// The identifier of the field (`max_replays`), as in `--json` and the IPC request.
    pub fn as_str(self) -> &'static str {
        match self {
            CountField::MaxReplays => "max_replays",
            CountField::Devices => "devices",
            CountField::BaselineTries => "baseline_tries",
        }
    }
}

impl fmt::Display for CountField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A count that is not an integer from 1 to 4294967295.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[error("{field} must be an integer from 1 to {} (got {given})", u32::MAX)]
pub struct InvalidCount {
    pub field: CountField,
    /// What was given, cut to a short prefix (it is user input of any length).
    pub given: String,
}

/// `text` (surrounding blanks allowed) as a count of `field`.
pub fn parse_count(field: CountField, text: &str) -> Result<NonZeroU32, InvalidCount> {
    let trimmed = text.trim();
    let digits = !trimmed.is_empty() && trimmed.bytes().all(|b| b.is_ascii_digit());
    digits
        .then(|| trimmed.parse::<NonZeroU32>().ok())
        .flatten()
        .ok_or_else(|| InvalidCount {
            field,
            given: trimmed.chars().take(32).collect(),
        })
}

/// A number the window sent as a count of `field`.
pub fn count_of(field: CountField, number: u32) -> Result<NonZeroU32, InvalidCount> {
    NonZeroU32::new(number).ok_or(InvalidCount {
        field,
        given: number.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_from_one_to_the_largest_u32_are_taken() {
        for (text, n) in [("1", 1), (" 30 ", 30), ("4294967295", u32::MAX)] {
            assert_eq!(parse_count(CountField::MaxReplays, text).unwrap().get(), n);
        }
        assert_eq!(count_of(CountField::Devices, 4).unwrap().get(), 4);
    }

    #[test]
    fn anything_else_is_refused_naming_the_field_and_the_value() {
        for bad in [
            "0",
            "-1",
            "4294967296",
            "",
            "3.5",
            "+3",
            "ten",
            "99999999999999999999",
        ] {
            let err = parse_count(CountField::MaxReplays, bad).unwrap_err();
            assert_eq!(err.field, CountField::MaxReplays, "{bad}");
            assert_eq!(err.given, bad.trim(), "{bad}");
        }
        let zero = count_of(CountField::BaselineTries, 0).unwrap_err();
        assert_eq!(
            zero.to_string(),
            "baseline_tries must be an integer from 1 to 4294967295 (got 0)"
        );
        let long = parse_count(CountField::Devices, &"9".repeat(100)).unwrap_err();
        assert_eq!(long.given.len(), 32);
    }
}
