//! A run's warning as data (issue #42): where it comes from and what it says, so each
//! front end words it in its own language (the window from its catalogues, the CLI,
//! report and export in English) instead of showing the sentence the run happened to
//! be written in. Results written before warnings were typed hold plain sentences:
//! those read back as [`ResultWarning::Text`] and are shown as they are.

use std::fmt;

use serde::{Deserialize, Serialize};
use whittle_core::assessment::Warning;
use whittle_core::plan::PlanNotice;

use super::RunNotice;
use crate::client::DecodeWarning;

/// One warning of a finished run (`RunSummary.warnings`, `result.json`'s `warnings`).
/// Untagged: a typed warning is an object, an older result's sentence a string.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum ResultWarning {
    Typed(TypedWarning),
    /// A sentence as an older `result.json` (or a static suggestion's reason) holds it.
    Text(String),
}

/// Where a typed warning comes from, and its record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "source", rename_all = "snake_case")]
pub enum TypedWarning {
    /// About the replay plan (skipped steps, legacy steps, low coverage).
    Plan { notice: PlanNotice },
    /// About the device pool the run replayed on.
    Pool { notice: RunNotice },
    /// The assessment's: why the result is not (fully) proven.
    Assessment { warning: Warning },
    /// A server's answers read leniently (one per server and tool).
    Decode { warning: DecodeWarning },
}

impl From<TypedWarning> for ResultWarning {
    fn from(typed: TypedWarning) -> ResultWarning {
        ResultWarning::Typed(typed)
    }
}

/// English, one sentence: the words of the terminal, `report.md` and the export. The
/// assessment's warnings are worded by `whittle-text`; the others by their `Display`
/// (the same English the run has always written).
impl fmt::Display for ResultWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResultWarning::Typed(TypedWarning::Plan { notice }) => notice.fmt(f),
            ResultWarning::Typed(TypedWarning::Pool { notice }) => notice.fmt(f),
            ResultWarning::Typed(TypedWarning::Assessment { warning }) => {
                f.write_str(&whittle_text::warning_text(warning))
            }
            ResultWarning::Typed(TypedWarning::Decode { warning }) => warning.fmt(f),
            ResultWarning::Text(text) => f.write_str(text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_warning_round_trips_tagged_and_a_sentence_stays_a_string() {
        let typed = ResultWarning::from(TypedWarning::Assessment {
            warning: Warning::Flaky {
                reproduced: 2,
                total: 3,
            },
        });
        let json = serde_json::to_value(&typed).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"source": "assessment", "warning": {"kind": "flaky", "reproduced": 2, "total": 3}})
        );
        assert_eq!(
            serde_json::from_value::<ResultWarning>(json).unwrap(),
            typed
        );

        let old: ResultWarning = serde_json::from_str(r#""an older sentence""#).unwrap();
        assert_eq!(old, ResultWarning::Text("an older sentence".into()));
        assert_eq!(old.to_string(), "an older sentence");
        assert_eq!(
            serde_json::to_string(&old).unwrap(),
            r#""an older sentence""#
        );
    }

    #[test]
    fn each_source_is_worded_in_english() {
        let plan = ResultWarning::from(TypedWarning::Plan {
            notice: PlanNotice::LegacySteps { count: 2 },
        });
        assert!(plan
            .to_string()
            .starts_with("2 step(s) carry no replay metadata"));
        let assessment = ResultWarning::from(TypedWarning::Assessment {
            warning: Warning::BaselineNotReproduced,
        });
        assert_eq!(
            assessment.to_string(),
            whittle_text::warning_text(&Warning::BaselineNotReproduced)
        );
    }

    /// A `result.json` written before warnings were typed: its sentences load, are shown
    /// as they are, and are written back as the same strings.
    #[test]
    fn an_older_result_s_sentences_still_load() {
        const WRITTEN: &str = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/evidence/2026-12-03_074146_minimize-checkout-npe/result.json"
        ));
        let old = WRITTEN.replace(
            r#""warnings": []"#,
            r#""warnings": ["Flaky: reproduced 2/3 baseline runs.", "Step 4 is skipped."]"#,
        );
        assert_ne!(old, WRITTEN, "the fixture's warnings were replaced");
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(super::super::RESULT_FILE), &old).unwrap();
        let result = super::super::read_result(dir.path()).unwrap();
        assert_eq!(
            result.warnings,
            vec![
                ResultWarning::Text("Flaky: reproduced 2/3 baseline runs.".into()),
                ResultWarning::Text("Step 4 is skipped.".into()),
            ]
        );
        let words: Vec<String> = result.warnings.iter().map(ToString::to_string).collect();
        assert_eq!(words[0], "Flaky: reproduced 2/3 baseline runs.");
        let json = serde_json::to_value(&result).unwrap();
        assert_eq!(
            json["warnings"],
            serde_json::json!(["Flaky: reproduced 2/3 baseline runs.", "Step 4 is skipped."])
        );
    }
}
