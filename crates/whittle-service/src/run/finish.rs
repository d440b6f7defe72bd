//! Phase 5 (docs/design.md §13) for a live run: stop the capture, assess, write `result.json`,
//! finalize the evidence session and append the story to its report. Every ending of a
//! live run — success, failure, cancellation — comes through here.

use std::path::Path;

use whittle_core::assessment::{assess, minimal_path, Assessment};
use whittle_core::engine::{FailureCause, SearchResult, SearchStop};
use whittle_core::model::{side_process, SessionStatus};
use whittle_text::{
    render_proof_table, render_report, render_reproof_line, render_resumed_line, Locale,
    ReportInput,
};

use super::decode_warnings::{report_block, write_decode_warnings};
use super::evidence_session::{stop_problem, EvidenceSession};
use super::{
    LiveRun, PendingResult, PlanEntry, Rating, ResumeMark, RunEvent, RunEvents, RunNotice,
    RunOutcome, RunSummary, DECODE_WARNINGS_FILE,
};
use crate::client::{DecodeWarning, Hub};
use crate::evidence::{append_report_section, write_result};
use crate::export::safe_block;
use crate::result::{ResultPurpose, ResultWarning, TypedWarning};

/// A decode warning as one of the run's warnings.
pub(crate) fn decode_warning(warning: &DecodeWarning) -> ResultWarning {
    ResultWarning::from(TypedWarning::Decode {
        warning: warning.clone(),
    })
}

/// How much of the target crash's stack a result keeps: the part a developer reads.
const MAX_STACK_LINES: usize = 60;

/// Phase 5: stop the capture, assess, write result.json, finalize, append the story.
pub(crate) async fn finish<E: RunEvents>(
    hub: &Hub,
    run: &LiveRun,
    evidence: &EvidenceSession,
    mut result: SearchResult,
    resumes: &[ResumeMark],
    on_event: &E,
) -> RunOutcome {
    // The capture's end is known before anything is assessed: it decides the stop first.
    if let Some(detail) = stop_problem(hub, &evidence.id).await {
        result.stop.get_or_insert(SearchStop::CaptureFailed {
            cause: FailureCause::Capture {
                device: None,
                detail,
            },
        });
    }
    let assessor = Assessor {
        run,
        evidence,
        resumes,
    };
    let mut assessed = assessor.of(result);
    if let Err(e) = write_result(&evidence.dir, &assessed.pending) {
        assessed = assessor.not_saved(assessed, format!("result not saved: {e}"));
    }
    // Every answer of the run has been read by now except finalize's own.
    let decode_warnings = hub.decode_warnings();
    if let Err(e) = write_decode_warnings(&evidence.dir, &decode_warnings) {
        on_event.event(RunEvent::Warning {
            message: format!("{DECODE_WARNINGS_FILE} not written: {e}"),
        });
    }
    let minimal = assessed.pending.minimal_path.clone();
    let target = run
        .ctx
        .target
        .fingerprint()
        .unwrap_or(&run.target_label)
        .to_string();
    let side = side_process(&run.crash.process, &run.ctx.package);
    // A resumed run says so, and when, under the report's verdict; a re-proof names the
    // run it re-proved.
    let reproof = run
        .reproves
        .as_deref()
        .map(|evidence| render_reproof_line(Locale::En, evidence))
        .unwrap_or_default();
    let render = |report: Option<&str>, assessed: &Assessed| {
        render_report(&ReportInput {
            session: &run.session_id,
            crash_id: &run.crash.crash_id,
            original_path: &run.plan.repro_path,
            minimal_path: &minimal,
            target: &target,
            evidence_report: report,
            process: side,
            result: &assessed.result,
            assessment: &assessed.assessment,
        }) + &reproof
            + &resumed_block(resumes)
    };
    let status = if assessed.assessment.end.may_write_back() {
        SessionStatus::Passed
    } else {
        SessionStatus::Failed
    };
    let summary = render(None, &assessed);
    let report = match hub.report().finalize(&evidence.id, status, &summary).await {
        Ok(done) => {
            let text = render(Some(&done.report_path), &assessed) + &report_block(&decode_warnings);
            if let Err(e) = append_report_section(Path::new(&done.report_path), &text) {
                on_event.event(RunEvent::Notice {
                    notice: RunNotice::FileNotWritten {
                        file: "report.md".into(),
                        detail: e.to_string(),
                    },
                });
            }
            text
        }
        Err(e) => {
            assessed = assessor.not_saved(assessed, format!("evidence session not finalized: {e}"));
            let _ = write_result(&evidence.dir, &assessed.pending);
            render(None, &assessed) + &report_block(&decode_warnings)
        }
    };

    let Assessed {
        result,
        assessment,
        pending,
    } = assessed;
    // The result's own summary, with what the run told along the way around its warnings.
    let mut summary = RunSummary::of(&pending);
    summary.warnings = run
        .plan
        .notices
        .iter()
        .map(|notice| TypedWarning::Plan {
            notice: notice.clone(),
        })
        .chain(run.pool_warnings.iter().map(|notice| TypedWarning::Pool {
            notice: notice.clone(),
        }))
        .map(ResultWarning::from)
        .chain(std::mem::take(&mut summary.warnings))
        .chain(decode_warnings.iter().map(decode_warning))
        .collect();
    on_event.event(RunEvent::Finished(summary.clone()));
    let hint = super::run_hint(&summary.end, run.search_options.baseline_tries);
    RunOutcome {
        summary,
        report,
        pending: pending.write_back_allowed.then_some(pending),
        evidence_dir: Some(evidence.dir.clone()),
        search: Some(result),
        assessment: Some(assessment),
        static_suggestion: None,
        resumed: resumes.to_vec(),
        side_process: side.map(str::to_owned),
        hint,
        started_at: Some(run.started_at.clone()),
    }
}

/// The run's result as it stands: the search's, its assessment and what `result.json`
/// holds, all computed from that one `SearchResult`.
struct Assessed {
    result: SearchResult,
    assessment: Assessment,
    pending: PendingResult,
}

/// What a result is assessed from besides the search's.
struct Assessor<'a> {
    run: &'a LiveRun,
    evidence: &'a EvidenceSession,
    resumes: &'a [ResumeMark],
}

impl Assessor<'_> {
    /// Assesses `result` once and builds the result file from that assessment.
    fn of(&self, result: SearchResult) -> Assessed {
        let assessment = assess(&result, self.run.identity);
        let pending = self.pending_result(&result, &assessment);
        Assessed {
            result,
            assessment,
            pending,
        }
    }

    /// An evidence write failed after the search (`detail` says which): it stops the
    /// run unless something already did, and only then is the result assessed again.
    fn not_saved(&self, assessed: Assessed, detail: String) -> Assessed {
        if assessed.result.stop.is_some() {
            return assessed;
        }
        let mut result = assessed.result;
        result.stop = Some(not_saved(detail));
        self.of(result)
    }

    /// `result.json` for `result`, rated by its `assessment`.
    fn pending_result(&self, result: &SearchResult, assessment: &Assessment) -> PendingResult {
        let Assessor {
            run,
            evidence,
            resumes,
        } = *self;
        let minimal = minimal_path(&run.plan.repro_path, &run.plan.setup, &result.current);
        let screenshots = screenshot_files(&evidence.dir);
        PendingResult {
            end: assessment.end.clone(),
            purpose: ResultPurpose::Minimize,
            original_session: run.session_id.clone(),
            original_session_dir: run.session.dir.to_string_lossy().to_string(),
            crash_id: run.crash.crash_id.clone(),
            evidence_session: evidence.id.clone(),
            original_path: run.plan.repro_path.clone(),
            minimal_plan: if result.baseline_reproduced {
                PlanEntry::for_path(&run.plan, &minimal)
            } else {
                Vec::new()
            },
            minimal_path: if result.baseline_reproduced {
                minimal
            } else {
                Vec::new()
            },
            attempts: result.attempts,
            max_replays: result.max_replays,
            rating: Rating::of(assessment),
            converged: assessment.converged,
            search: result.flags,
            write_back_allowed: assessment.write_back_allowed,
            warnings: assessment
                .warnings
                .iter()
                .map(|warning| {
                    ResultWarning::from(TypedWarning::Assessment {
                        warning: warning.clone(),
                    })
                })
                .collect(),
            proof: result.proof.clone(),
            proof_lines: render_proof_table(result),
            final_outcomes: Some(result.final_outcomes().to_vec()),
            target: run.ctx.target.clone(),
            target_fingerprint: run.ctx.target.fingerprint().map(str::to_string),
            target_label: run.target_label.clone(),
            package: run.ctx.package.clone(),
            app_version: run.app_version.clone(),
            device: run.ctx.device.clone(),
            device_name: run.device_name.clone(),
            os_version: run.os_version.clone(),
            target_stack: Some(safe_block(&run.crash.stack, MAX_STACK_LINES))
                .filter(|s| !s.trim().is_empty()),
            crash_process: side_process(&run.crash.process, &run.ctx.package).map(str::to_owned),
            screenshots,
            resumed: (!resumes.is_empty()).then(|| resumes.to_vec()),
            reproves: run.reproves.clone(),
        }
    }
}

/// A stop for an evidence write that failed after the search.
fn not_saved(detail: String) -> SearchStop {
    SearchStop::RuntimeFailed {
        cause: FailureCause::NotSaved { detail },
    }
}

fn screenshot_files(dir: &Path) -> Vec<String> {
    let folder = dir.join(crate::evidence::SCREENSHOTS_DIR);
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| n.starts_with("attempt-") && n.ends_with(".png"))
        .map(|n| format!("{}/{n}", crate::evidence::SCREENSHOTS_DIR))
        .collect();
    names.sort();
    names
}

/// The lines a resumed run's report ends its verdict with; empty for a run in one go.
fn resumed_block(resumes: &[ResumeMark]) -> String {
    resumes
        .iter()
        .map(|mark| render_resumed_line(Locale::En, &mark.at, mark.after_attempts))
        .collect()
}
