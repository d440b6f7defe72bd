use std::path::PathBuf;

use whittle_contract::analyzer::StaticSuggestion;
use whittle_core::assessment::Assessment;
use whittle_core::engine::SearchResult;

use super::{PendingResult, ResumeMark, RunHint, RunSummary};

/// Everything a finished run produced. The original session is untouched: the
/// sidecar is written only by [`super::approve`] on the user's say-so.
#[derive(Debug, Clone)]
pub struct RunOutcome {
    pub summary: RunSummary,
    /// The Phase-5 text (report.md section and terminal output).
    pub report: String,
    /// Present only when a result may be written back.
    pub pending: Option<PendingResult>,
    pub evidence_dir: Option<PathBuf>,
    pub search: Option<SearchResult>,
    pub assessment: Option<Assessment>,
    pub static_suggestion: Option<StaticSuggestion>,
    /// Each time the run was resumed after an interruption (empty for a run in one go).
    pub resumed: Vec<ResumeMark>,
    /// The crashing process when it is not the app's main one (`app:sync`).
    pub side_process: Option<String>,
    /// What to try next when the run ended without a result a change of options may
    /// give ([`super::run_hint`], from the baseline tries the run had).
    pub hint: Option<RunHint>,
    /// When the live run started (its journal's first line; a resumed run's first
    /// start); `None` for a static suggestion, which is never approved.
    pub started_at: Option<String>,
}
