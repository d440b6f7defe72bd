//! What to try next after a run without a result (`api::run_hint`, decided by the
//! service where the run ended), as the terminal says it: a line on stderr after a
//! single run's report or after the queue's table, and `hint` in a single run's
//! `--json` (a queue item's `--json` carries it in its entry).

use serde_json::{Map, Value};
use whittle_service::api::{RunHint, RunOutcome};

use crate::locale::CliWords;

/// The hint for crash `crash` of session `session`, in `words`.
pub(super) fn words(words: &CliWords, hint: RunHint, session: &str, crash: &str) -> String {
    match hint {
        RunHint::MoreBaselineTries => (words.hint_more_baseline_tries)(session, crash),
    }
}

/// After the report: the run's hint, if it has one.
pub(super) fn print_line(words: &CliWords, outcome: &RunOutcome) {
    if let Some(hint) = outcome.hint {
        eprintln!(
            "{}",
            self::words(
                words,
                hint,
                &outcome.summary.session,
                &outcome.summary.crash_id
            )
        );
    }
}

/// Adds `hint: {kind}` when the run has one (absent otherwise, so a run with a result
/// keeps its object as it was).
pub(super) fn add_json_fields(outcome: &RunOutcome, map: &mut Map<String, Value>) {
    if let Some(hint) = outcome.hint {
        map.insert(
            "hint".into(),
            serde_json::to_value(hint).unwrap_or_default(),
        );
    }
}
