//! The shape every language fills: one struct per block of wording, each field a
//! sentence (or a function that words a typed value). A language that lacks a field
//! does not compile.

use whittle_core::assessment::Warning;
use whittle_core::engine::{FailureCause, Phase, SearchStop};
use whittle_core::import::ImportNote;
use whittle_core::rate::Rate;
use whittle_core::run_end::RunEnd;

/// All the wording of one language.
pub struct Catalogue {
    pub report: ReportWords,
    pub rates: RateWords,
    pub static_suggestion: StaticWords,
    pub cli: CliWords,
}

/// The report block of a live run (`render_report_in`).
pub struct ReportWords {
    /// The heading of each end of a live run (`RunEnd`); only `minimal_high` says minimal.
    pub failed_before_baseline: &'static str,
    pub baseline_not_reproduced: &'static str,
    pub minimal_high: &'static str,
    pub shortest_unproven: &'static str,
    pub cancelled_before_baseline: &'static str,
    pub cancelled_shortest: &'static str,
    pub failed_shortest: &'static str,
    pub original: &'static str,
    pub minimal: &'static str,
    pub shortest: &'static str,
    pub baseline: &'static str,
    pub proof: &'static str,
    pub report: &'static str,
    pub why: &'static str,
    pub why_not_proven: &'static str,
    pub deletions: &'static str,
    pub nothing_produced: &'static str,
    /// Why nothing may be written back: `true` when the user cancelled, `false` when
    /// the infrastructure failed.
    pub not_written_back: fn(bool) -> &'static str,
    /// Why the search stopped early (a reason line of the report).
    pub stop: fn(&SearchStop) -> String,
    /// What failed in the infrastructure, quoting what the server or device said.
    pub failure: fn(&FailureCause) -> String,
    /// What the report calls the crash when the run named neither a fingerprint nor a
    /// label.
    pub unknown_target: &'static str,
    pub audit_incomplete: fn() -> String,
    /// Follows the budget: "; no action left to delete …".
    pub only_launch_left: &'static str,
    pub steps: fn(usize) -> String,
    pub baseline_missed: fn(&str) -> String,
    /// Follows the crash in the title when an app's other process crashed.
    pub in_process: fn(&str) -> String,
    /// "17 replays of max 30".
    pub budget: fn(u32, u32) -> String,
    /// Follows the budget: "; every single-deletion candidate 0/3".
    pub every_deletion: fn(&str) -> String,
    /// Follows the budget: "; 1 of 3 single-deletion candidates disproved 3 times".
    pub some_deletions: fn(usize, usize) -> String,
    /// The proof summary and the final path's hits.
    pub proof_line: fn(&str, usize, usize) -> String,
    pub reproduced_target: fn(&str, bool) -> String,
    pub final_short: fn(usize, usize) -> String,
    pub without_step: fn(u32, usize, usize) -> String,
    pub warning: fn(&Warning) -> String,
    /// A line under the verdict of a resumed run: when, and after how many attempts.
    pub resumed: fn(&str, u32) -> String,
    /// A line under the verdict of a run that re-proved another run here: which one.
    pub reproves: fn(&str) -> String,
}

/// The rates block of the report and the rate lines of the evidence (`rates.rs`).
pub struct RateWords {
    pub title: &'static str,
    pub rate: fn(&Rate) -> String,
    pub final_path: &'static str,
    pub full_path: &'static str,
    pub without_step: fn(u32) -> String,
    pub crash_rate: &'static str,
    pub below: &'static str,
    pub not_separated: &'static str,
    pub removed_title: &'static str,
    pub removed_step: fn(u32, &str) -> String,
}

/// The report of a static suggestion (`static_suggestion.rs`): never replayed, always
/// low, never written back. Labels carry their own padding.
pub struct StaticWords {
    /// Followed by " (session crash)".
    pub heading: &'static str,
    /// Followed by why no live run was possible.
    pub no_live_run: &'static str,
    pub original: &'static str,
    pub suggested: &'static str,
    /// Follows the suggested path.
    pub not_replayed: &'static str,
    pub rationale: &'static str,
    pub nothing_replayed: &'static str,
}

/// The CLI's own words around the report (prompt, progress, errors).
pub struct CliWords {
    /// Prefix of an error line on stderr.
    pub error: &'static str,
    pub warning: &'static str,
    /// Label of the sidecar line after an approved write-back, padded like the report's.
    pub written: &'static str,
    pub ask_write_back: &'static str,
    /// `approve` refused because the sidecar holds a newer approval of the crash: what
    /// to do (then both entries follow, under the two labels below).
    pub newer_kept: &'static str,
    /// Under a refused approval of a run nothing here proves: the command that
    /// re-proves it on a device here.
    pub next_reprove: fn(&str) -> String,
    /// Label of the entry the sidecar holds now.
    pub newer_held: &'static str,
    /// Label of the entry the refused approval would have written.
    pub newer_replacing: &'static str,
    pub cancelling: &'static str,
    pub not_written_back: &'static str,
    /// A count (`--max-replays`, `--devices`, `--baseline-tries`) that is not an
    /// integer >= 1: the flag, and what was given.
    pub bad_count: fn(&str, &str) -> String,
    /// "attempt 7/30 · audit · [2,7]" with the phase already worded.
    pub attempt: fn(u32, u32, &str, &str) -> String,
    /// A search phase's name in this language.
    pub phase: fn(Phase) -> &'static str,
    /// `minimize --all`: the line before each item's run ("[2/5] SESSION CRASH").
    pub queue_item: fn(u32, u32, &str, &str) -> String,
    /// `minimize --all`: the line after an item's line when the item goes on with its
    /// crash group's unfinished run (that run's evidence session) instead of starting
    /// over.
    pub queue_resuming: fn(&str) -> String,
    /// `minimize --all`: items run side by side, one on each of these devices.
    pub queue_side_by_side: fn(&[String]) -> String,
    /// `import`: what the flow held that is not imported as a step.
    pub import_note: fn(&ImportNote) -> String,
    /// `minimize --all`: the summary table's column headings (session, crash, result,
    /// steps original→minimal, attempts, evidence session).
    pub queue_columns: [&'static str; 6],
    /// A finished item's result: how its run ended.
    pub queue_end: fn(&RunEnd) -> &'static str,
    /// An item whose run was refused or failed before its evidence: the refusal's kind.
    pub queue_failed: fn(&str) -> String,
    pub queue_cancelled: &'static str,
    pub queue_waiting: &'static str,
    /// Skipped: its approved result still validates.
    pub queue_already_minimized: &'static str,
    /// Skipped: its newest run, not approved, found a result that may be written back
    /// and the session has not changed since.
    pub queue_minimized_unchanged: &'static str,
    /// Skipped: its plan allows no live run.
    pub queue_no_live_run: &'static str,
    /// Skipped sessions (no crash group of theirs can be queued), by why: the folder's
    /// name is not a session id, the folder went away, its files cannot be read.
    pub queue_session_invalid_id: &'static str,
    pub queue_session_not_found: &'static str,
    pub queue_session_unreadable: &'static str,
    /// After a run's report, or after the queue's table: a crash group whose baseline
    /// missed on its only try (session, crash) — the crash may be flaky, more baseline
    /// tries give it a chance.
    pub hint_more_baseline_tries: fn(&str, &str) -> String,
    /// A session left out of the queue because it cannot be read: the session, why.
    pub queue_unreadable: fn(&str, &str) -> String,
    /// No crash group to minimize.
    pub queue_empty: &'static str,
    /// The exit-code table every `--help` ends with (and docs/cli.md shows).
    pub exit_codes: ExitWords,
}

/// The exit codes' table: its heading and one line per outcome, in the order of the
/// codes (the CLI's `exit.rs` holds the numbers and which outcome is which).
pub struct ExitWords {
    pub heading: &'static str,
    pub proven: ExitMeaning,
    pub unproven: ExitMeaning,
    pub not_reproduced: ExitMeaning,
    pub refused: ExitMeaning,
    pub failed: ExitMeaning,
    pub cancelled: ExitMeaning,
    pub stopped: ExitMeaning,
}

/// One exit code's outcome (a short name) and what it covers.
pub struct ExitMeaning {
    pub outcome: &'static str,
    pub covers: &'static str,
}
