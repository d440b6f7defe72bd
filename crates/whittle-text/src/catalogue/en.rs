//! Whittle's English: the report's source wording, and what the `C`/`POSIX` locale
//! gets.

use whittle_core::assessment::Warning;
use whittle_core::engine::{
    FailureCause, Phase, SearchStop, HIGH_CONFIDENCE_RUNS, NEGATIVE_PROOF_RUNS,
};
use whittle_core::import::{ImportNote, LaunchOption};
use whittle_core::run_end::RunEnd;

use super::shape::{
    Catalogue, CliWords, ExitMeaning, ExitWords, RateWords, ReportWords, StaticWords,
};

pub(super) static EN: Catalogue = Catalogue {
    report: ReportWords {
        failed_before_baseline: "✗ Minimize run failed before the original path was verified",
        baseline_not_reproduced: "✗ Original path did not reproduce in this run",
        minimal_high: "✅ Minimal path found",
        shortest_unproven: "⚠ Shortest reproducing candidate so far — minimality not proven",
        cancelled_before_baseline: "✗ Cancelled before the original path was verified",
        cancelled_shortest:
            "⚠ Cancelled — shortest reproducing candidate so far, minimality not proven",
        failed_shortest: "✗ Stopped by an infrastructure failure — shortest reproducing \
                          candidate so far, minimality not proven",
        original: "Original:",
        minimal: "Minimal:",
        shortest: "Shortest:",
        baseline: "Baseline:",
        proof: "Proof:",
        report: "Report:",
        why: "Why:",
        why_not_proven: "Why not proven:",
        deletions: "Deletions:",
        nothing_produced: "No minimal path was produced; nothing will be written back.",
        not_written_back: |cancelled| {
            if cancelled {
                "Not written back: the run was cancelled, so no result may be saved."
            } else {
                "Not written back: the run hit an infrastructure failure, so no result may be saved."
            }
        },
        stop: |stop| match stop {
            SearchStop::Cancelled => "cancelled by the user".to_owned(),
            SearchStop::CaptureFailed { cause } => {
                format!("log capture failed: {}", (EN.report.failure)(cause))
            }
            SearchStop::RuntimeFailed { cause } => {
                format!(
                    "replay infrastructure failed: {}",
                    (EN.report.failure)(cause)
                )
            }
        },
        failure: |cause| match cause {
            FailureCause::Tool {
                step: Some(step),
                detail,
            } => format!("step {step}: {detail}"),
            FailureCause::Tool { step: None, detail } | FailureCause::Recorded { detail } => {
                detail.clone()
            }
            FailureCause::Drain { detail } => format!("reading the crash log: {detail}"),
            FailureCause::UnknownStep { step } => {
                format!("step {step} is not in the replay plan")
            }
            FailureCause::Capture {
                device: Some(device),
                detail,
            } => format!("{detail} (device {device})"),
            FailureCause::Capture {
                device: None,
                detail,
            } => detail.clone(),
            FailureCause::NotSaved { detail } => {
                format!("the attempt could not be saved: {detail}")
            }
        },
        audit_incomplete: || {
            format!(
                "fixed-point audit incomplete: not every single deletion has {NEGATIVE_PROOF_RUNS} \
                 consistent non-reproducing replays"
            )
        },
        only_launch_left: "; no action left to delete (the crash needs only the launch)",
        steps: |count| {
            if count == 1 {
                "1 step".to_owned()
            } else {
                format!("{count} steps")
            }
        },
        baseline_missed: |target| format!("the full replayable path did not reproduce {target}"),
        in_process: |process| format!("in process {process}"),
        budget: |attempts, max| {
            if attempts == 1 {
                format!("1 replay of max {max}")
            } else {
                format!("{attempts} replays of max {max}")
            }
        },
        every_deletion: |runs| format!("; every single-deletion candidate {runs}"),
        some_deletions: |proven, total| {
            format!(
                "; {proven} of {total} single-deletion candidates disproved {NEGATIVE_PROOF_RUNS} times"
            )
        },
        proof_line: |summary, hits, total| format!("{summary}, final path {hits}/{total}"),
        reproduced_target: |target, converged| {
            if converged {
                format!("reproduced {target}; converged")
            } else {
                format!("reproduced {target}")
            }
        },
        final_short: |hits, total| {
            format!(
                "final path reproduced {hits} of {total} replays \
                 ({HIGH_CONFIDENCE_RUNS}/{HIGH_CONFIDENCE_RUNS} needed)"
            )
        },
        without_step: |step, hits, total| format!("without step {step}: {hits}/{total} reproduced"),
        unknown_target: "the target crash",
        warning: |warning| match warning {
            Warning::BaselineNotReproduced => {
                "the original path did not reproduce the crash in this run".to_owned()
            }
            Warning::BudgetExhausted { max_replays } => {
                format!("budget of {max_replays} replays exhausted; raise the replay budget")
            }
            Warning::Flaky { reproduced, total } => {
                format!("flaky: {reproduced} of {total} replays reproduced")
            }
            Warning::SignatureDegraded => "signature degraded: the crash was matched by exact \
                                           kind, process, label and top frames, not by a \
                                           stable fingerprint"
                .to_owned(),
            Warning::Statistical {
                confidence_percent,
                cap,
                unseparated,
            } => {
                let mut text = format!(
                    "flaky strategy, never high: misses of a flaky crash are evidence, not \
                     proof; each deletion was replayed until its {confidence_percent} % \
                     interval fell below the crash rate's (cap {cap})"
                );
                if !unseparated.is_empty() {
                    let steps: Vec<String> = unseparated.iter().map(u32::to_string).collect();
                    text.push_str(&format!("; not separated: steps {}", steps.join(", ")));
                }
                text
            }
        },
        resumed: |at, attempts| {
            format!(
                "Resumed: {at} after {attempts} recorded attempts (the run had been interrupted; \
                 nothing recorded was replayed again)"
            )
        },
        reproves: |evidence| {
            format!(
                "Re-proven here: started from the minimal path of {evidence}, a run made \
                 elsewhere; every verdict above was replayed on this machine's device"
            )
        },
    },
    rates: RateWords {
        title: "Rates:",
        rate: |rate| rate.to_string(),
        final_path: "final path",
        full_path: "full path",
        without_step: |step| format!("without step {step}"),
        crash_rate: "crash rate",
        below: "below the crash rate",
        not_separated: "not separated from the crash rate",
        removed_title: "Removed (a candidate without the step that reproduced):",
        removed_step: |step, candidate| format!("step {step}: {candidate}"),
    },
    static_suggestion: StaticWords {
        heading: "ⓘ Static suggestion only, low confidence",
        no_live_run: "No live run: ",
        original: "Original:  ",
        suggested: "Suggested: ",
        not_replayed: "  (not replayed)",
        rationale: "Rationale: ",
        nothing_replayed: "Nothing was replayed and nothing will be written back.",
    },
    cli: CliWords {
        error: "error: ",
        warning: "warning: ",
        written: "  Written:  ",
        ask_write_back: "Write the minimized path to crashes.minimized.json? [y/N] ",
        next_reprove: |evidence| {
            format!(
                "Next: re-prove it on a device here, then approve the new run: whittle minimize --reprove {evidence}"
            )
        },
        newer_kept: "Nothing was written: crashes.minimized.json holds a newer approval of this crash. To replace it with this run's, approve again with --replace.",
        newer_held: "Approved now (kept):",
        newer_replacing: "This run would write:",
        cancelling: "cancelling: finishing the current step, stopping the capture…",
        not_written_back: "the minimized path was not written back: ",
        bad_count: |flag, got| format!("{flag} must be an integer >= 1 (got {got})"),
        attempt: |attempt, max, phase, candidate| {
            format!("attempt {attempt}/{max} · {phase} · [{candidate}]")
        },
        // The phases by their names in the journal and the JSON.
        phase: |phase| match phase {
            Phase::Baseline => "baseline",
            Phase::Bisect => "bisect",
            Phase::OneByOne => "one_by_one",
            Phase::Audit => "audit",
            Phase::Confirm => "confirm",
        },
        queue_item: |n, total, session, crash| format!("[{n}/{total}] {session} {crash}"),
        queue_resuming: |evidence| {
            format!("  resuming {evidence} where it stopped: its recorded attempts are not replayed")
        },
        queue_side_by_side: |devices| {
            format!(
                "side by side, one crash group on each of {} devices: {}",
                devices.len(),
                devices.join(", ")
            )
        },
        import_note,
        queue_columns: [
            "Session", "Crash", "Result", "Steps", "Attempts", "Evidence",
        ],
        queue_end: |end| match end {
            RunEnd::Minimized => "minimized",
            RunEnd::Unproven => "shortest so far (unproven)",
            RunEnd::NotReproduced => "not reproduced",
            RunEnd::Static => "static suggestion only",
            RunEnd::CaptureFailed { .. } => "capture failed",
            RunEnd::RuntimeFailed { .. } => "device failed",
            RunEnd::Cancelled => "cancelled",
        },
        queue_failed: |kind| format!("refused: {kind}"),
        queue_cancelled: "cancelled",
        queue_waiting: "not run",
        queue_already_minimized: "skipped: already minimized",
        queue_minimized_unchanged: "skipped: minimized, not approved yet, unchanged since",
        queue_no_live_run: "skipped: no live run possible",
        queue_session_invalid_id: "skipped: not a session id",
        queue_session_not_found: "skipped: session gone",
        queue_session_unreadable: "skipped: session cannot be read",
        hint_more_baseline_tries: |session, crash| {
            format!(
                "hint: {session} {crash} did not crash the same way on its only baseline try; \
                 the crash may be flaky: run it again with --baseline-tries 3 (or more)"
            )
        },
        queue_unreadable: |session, why| format!("session {session} left out: {why}"),
        queue_empty: "no crash group to minimize",
        exit_codes: ExitWords {
            heading: "Exit codes (every command; a --json object carries its code as \"exit\"):",
            proven: ExitMeaning {
                outcome: "proven",
                covers: "minimized, the proof complete (verify: every replay reproduced; other commands: done)",
            },
            unproven: ExitMeaning {
                outcome: "unproven",
                covers: "a reproducing path, minimality not proven (verify: some replays reproduced)",
            },
            not_reproduced: ExitMeaning {
                outcome: "not reproduced",
                covers: "the crash did not reproduce (import --record: the flow ran to its end without one)",
            },
            refused: ExitMeaning {
                outcome: "refused",
                covers: "bad arguments or config, an unusable session, evidence or bundle; nothing replayed",
            },
            failed: ExitMeaning {
                outcome: "failed",
                covers: "a device, server, log capture or disk failure",
            },
            cancelled: ExitMeaning {
                outcome: "cancelled",
                covers: "SIGINT (Ctrl-C), SIGTERM or SIGHUP: the evidence was finalized, --resume goes on",
            },
            stopped: ExitMeaning {
                outcome: "stopped",
                covers: "import --record: the replay stopped before the flow's end (an element not found)",
            },
        },
    },
};

fn import_note(note: &ImportNote) -> String {
    let at = |line: Option<u32>| line.map(|l| format!(" (line {l})")).unwrap_or_default();
    match note {
        ImportNote::Hook { hook, line } => format!(
            "The flow's {hook} hook (line {line}) is not imported: a replay starts from a \
             fresh launch."
        ),
        ImportNote::ExecutionOptions { line } => format!(
            "The execution options on line {line} (\"roboscript\") are not imported: \
             Whittle replays every step strictly, in order."
        ),
        ImportNote::LaunchOption { option, line } => format!(
            "The flow's launchApp{} {}; Whittle's replays start the app force-stopped and \
             keep its data, so a crash that needs it may not reproduce.",
            at(*line),
            match option {
                LaunchOption::ClearState => "clears the app's data",
                LaunchOption::ClearKeychain => "clears the keychain",
                LaunchOption::Permissions => "sets permissions",
                LaunchOption::Arguments => "passes launch arguments",
            }
        ),
        ImportNote::KeepsRunningApp { line } => format!(
            "The flow's launchApp{} keeps a running app (stopApp: false); Whittle's replays \
             always start it force-stopped.",
            at(*line)
        ),
    }
}
