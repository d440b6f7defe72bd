//! What to try next after a run that did not give a result, when a change of options
//! may well give one. Decided once, where a live run ends (`finish.rs` puts it on the
//! [`super::RunOutcome`]; a reopened run reads its journal's baseline tries), and shown
//! by every front end in its own words: the window's queue and result banner, the
//! terminal's `minimize` and `minimize --all`, `whittle mcp`'s run answers.
//!
//! **More baseline tries.** A crash that shows only sometimes (the demo's flaky one) can
//! miss on the baseline's single try — the seed's default — and the run then ends
//! "did not crash the same way" with nothing to minimize. Replaying the full path a few
//! times until it reproduces (`baseline_tries`, each try counted against the budget)
//! gives such a crash its chance. Suggested only when the baseline had one try: with
//! several, the crash missed every one, and more of the same is no advice.

use serde::Serialize;
use whittle_core::run_end::RunEnd;

/// A change of options that may give the crash group a result next time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RunHint {
    /// The baseline missed on its only try: the crash may be flaky; run it again with
    /// more baseline tries.
    MoreBaselineTries,
}

/// The hint for a run that ended `end` after a baseline of `baseline_tries` tries (see
/// the module documentation); `None` when no change of options is to suggest.
pub fn run_hint(end: &RunEnd, baseline_tries: u32) -> Option<RunHint> {
    (*end == RunEnd::NotReproduced && baseline_tries <= 1).then_some(RunHint::MoreBaselineTries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_baseline_miss_on_a_single_try_suggests_more_tries_and_nothing_else_does() {
        assert_eq!(
            run_hint(&RunEnd::NotReproduced, 1),
            Some(RunHint::MoreBaselineTries)
        );
        assert_eq!(run_hint(&RunEnd::NotReproduced, 3), None, "tried already");
        for end in [
            RunEnd::Minimized,
            RunEnd::Unproven,
            RunEnd::Cancelled,
            RunEnd::Static,
        ] {
            assert_eq!(run_hint(&end, 1), None, "{end:?}");
        }
    }
}
