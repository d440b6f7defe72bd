//! What made a result: a minimize run's search, or a recording's one replay of the whole
//! flow (*Run once and record*, `import --record`), which searched nothing and so has no
//! minimal path to show or approve. The window words the two apart from this field, never
//! from the evidence's name or its meta.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ResultPurpose {
    /// A minimize run; also every result written before recordings left one.
    #[default]
    Minimize,
    /// One recorded replay of the whole flow; the crashes it caught are the session's.
    Record,
}

impl ResultPurpose {
    /// Kept out of `result.json` when it says nothing new: older readers and older
    /// files stay byte-identical for a minimize run.
    pub fn is_minimize(&self) -> bool {
        *self == ResultPurpose::Minimize
    }
}

#[cfg(test)]
mod tests {
    use super::super::{read_result, PendingResult, RESULT_FILE};
    use super::*;

    const WRITTEN: &str = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/evidence/2026-12-03_074146_minimize-checkout-npe/result.json"
    ));

    fn read(text: &str) -> PendingResult {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(RESULT_FILE), text).unwrap();
        read_result(dir.path()).unwrap()
    }

    #[test]
    fn a_result_without_a_purpose_is_a_minimize_runs_and_writes_none() {
        assert!(!WRITTEN.contains("\"purpose\""));
        let pending = read(WRITTEN);
        assert_eq!(pending.purpose, ResultPurpose::Minimize);
        let json = serde_json::to_value(&pending).unwrap();
        assert!(json.get("purpose").is_none(), "{json}");
    }

    #[test]
    fn a_recordings_result_says_so_and_reads_back_the_same() {
        let mut pending = read(WRITTEN);
        pending.purpose = ResultPurpose::Record;
        let text = serde_json::to_string_pretty(&pending).unwrap();
        assert!(text.contains("\"purpose\": \"record\""), "{text}");
        assert_eq!(read(&text).purpose, ResultPurpose::Record);
    }
}
