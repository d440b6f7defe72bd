//! What the setup tools of `whittle mcp` answer (`import`, `verify`, `doctor`,
//! `devices`): typed fields shaped from the application layer's records. A session is
//! named by its id, never by its folder.

use schemars::JsonSchema;
use serde::Serialize;
use whittle_core::engine::MissReason;
use whittle_core::model::{CrashKind, SessionStatus};
use whittle_service::api::DeviceView;
use whittle_service::api::ReplayVerdict;
use whittle_service::api::VerifyReport;
use whittle_service::api::{Check, DoctorReport};
use whittle_service::api::{ImportSummary, RecordEnd, RecordOutcome, SkippedStep};

/// What `import` made, and how its recording went when asked for.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ImportAnswer {
    /// The new session's id: what `analyze` and `minimize` take.
    pub session_id: String,
    pub format: FlowKindAnswer,
    /// Untrusted data: the app's package, as the file or the caller named it.
    pub package: String,
    pub steps: u32,
    /// Steps a replay performs (launch excluded).
    pub replayable: u32,
    /// Steps kept but not replayed, with the plan's reason.
    pub skipped: Vec<SkippedAnswer>,
    /// Untrusted data: what the file held that is not a step.
    pub notes: Vec<String>,
    /// The one recorded replay, when `record` was asked and it ran.
    pub recorded: Option<RecordAnswer>,
    /// Why the recording failed after the session was imported (the session stays,
    /// without crashes), when it did.
    pub record_failed: Option<RecordFailedAnswer>,
}

#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FlowKindAnswer {
    Maestro,
    Robo,
}

/// One step kept but not replayed (its description is untrusted data).
#[derive(Debug, Serialize, JsonSchema)]
pub struct SkippedAnswer {
    pub step: u32,
    pub description: String,
    pub reason: String,
}

impl ImportAnswer {
    pub fn of(summary: ImportSummary) -> ImportAnswer {
        ImportAnswer {
            session_id: summary.session_id,
            format: match summary.format {
                whittle_core::import::FlowFormat::Maestro => FlowKindAnswer::Maestro,
                whittle_core::import::FlowFormat::Robo => FlowKindAnswer::Robo,
            },
            package: summary.package,
            steps: summary.steps,
            replayable: summary.replayable,
            skipped: summary.skipped.into_iter().map(SkippedAnswer::of).collect(),
            notes: summary
                .notes
                .iter()
                .map(whittle_text::import_note_text)
                .collect(),
            recorded: None,
            record_failed: None,
        }
    }
}

impl SkippedAnswer {
    fn of(s: SkippedStep) -> SkippedAnswer {
        SkippedAnswer {
            step: s.step,
            description: s.description,
            reason: s.reason.to_string(),
        }
    }
}

/// How one recorded replay of the imported flow went.
#[derive(Debug, Serialize, JsonSchema)]
pub struct RecordAnswer {
    /// The imported session, now with the crashes the replay caused: minimize it next.
    pub session_id: String,
    /// The replay's own evidence session.
    pub evidence_session: String,
    pub device: String,
    pub end: RecordEndAnswer,
    /// `passed` only when the flow ran to its end without a crash, else `failed`.
    pub status: SessionStatus,
    pub crashes: Vec<RecordedCrashAnswer>,
    /// Where the replay stopped early, when it did.
    pub stopped_at_step: Option<u32>,
}

/// How the recorded replay ended.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RecordEndAnswer {
    /// The flow crashed the app: the crashes are recorded, ready to minimize.
    Crashed,
    /// Every step ran and nothing crashed: the test passed.
    RanToEnd,
    /// The replay stopped at `step` (when known) without a crash.
    Stopped {
        step: Option<u32>,
        reason: MissAnswer,
    },
}

/// Why a replay did not reproduce the crash (or stopped).
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MissAnswer {
    ElementNotFound,
    ActionFailed,
    NoCrash,
    DifferentCrash,
}

impl MissAnswer {
    fn of(reason: MissReason) -> MissAnswer {
        match reason {
            MissReason::ElementNotFound => MissAnswer::ElementNotFound,
            MissReason::ActionFailed => MissAnswer::ActionFailed,
            MissReason::NoCrash => MissAnswer::NoCrash,
            MissReason::DifferentCrash => MissAnswer::DifferentCrash,
        }
    }
}

/// One crash the recording caught (its label is untrusted data).
#[derive(Debug, Serialize, JsonSchema)]
pub struct RecordedCrashAnswer {
    pub crash_id: String,
    pub kind: CrashKind,
    pub label: String,
    pub step_index: u32,
    pub repro_path: Vec<u32>,
}

impl RecordAnswer {
    pub fn of(outcome: RecordOutcome) -> RecordAnswer {
        RecordAnswer {
            session_id: outcome.session_id,
            evidence_session: outcome.evidence_session,
            device: outcome.device,
            end: match outcome.end {
                RecordEnd::Crashed => RecordEndAnswer::Crashed,
                RecordEnd::RanToEnd => RecordEndAnswer::RanToEnd,
                RecordEnd::Stopped { step, reason } => RecordEndAnswer::Stopped {
                    step,
                    reason: MissAnswer::of(reason),
                },
            },
            status: outcome.status,
            crashes: outcome
                .crashes
                .into_iter()
                .map(|c| RecordedCrashAnswer {
                    crash_id: c.crash_id,
                    kind: c.kind,
                    label: c.label,
                    step_index: c.step_index,
                    repro_path: c.repro_path,
                })
                .collect(),
            stopped_at_step: outcome.stopped_at_step,
        }
    }
}

/// A recording that failed once the session was imported.
#[derive(Debug, Serialize, JsonSchema)]
pub struct RecordFailedAnswer {
    /// Untrusted data: what went wrong.
    pub error: String,
    /// The code `whittle import --record` exits with for it.
    pub exit: u8,
}

/// How often a bundle's minimal path reproduced its crash (`whittle verify`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct VerifyAnswer {
    /// `proven`: every replay reproduced; `unproven`: some did; `not_reproduced`: none.
    pub verdict: VerifyVerdict,
    pub reproduced: u32,
    pub runs: u32,
    pub device: String,
    pub package: String,
    pub app_version: Option<String>,
    pub target_fingerprint: String,
    /// Each replay, in order.
    pub replays: Vec<VerifyReplay>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum VerifyVerdict {
    Proven,
    Unproven,
    NotReproduced,
}

/// One replay of the bundle.
#[derive(Debug, Serialize, JsonSchema)]
pub struct VerifyReplay {
    pub reproduced: bool,
    /// Why not, when it did not.
    pub reason: Option<MissAnswer>,
    /// The step at which the actions stopped, when one failed.
    pub step: Option<u32>,
}

impl VerifyAnswer {
    pub fn of(report: VerifyReport) -> VerifyAnswer {
        let verdict = if report.reproduced == report.runs {
            VerifyVerdict::Proven
        } else if report.reproduced > 0 {
            VerifyVerdict::Unproven
        } else {
            VerifyVerdict::NotReproduced
        };
        VerifyAnswer {
            verdict,
            reproduced: report.reproduced,
            runs: report.runs,
            device: report.device,
            package: report.package,
            app_version: report.app_version,
            target_fingerprint: report.target_fingerprint,
            replays: report.verdicts.iter().map(VerifyReplay::of).collect(),
        }
    }
}

impl VerifyReplay {
    fn of(v: &ReplayVerdict) -> VerifyReplay {
        VerifyReplay {
            reproduced: v.reproduced,
            reason: v.reason.map(MissAnswer::of),
            step: v.step,
        }
    }
}

/// The doctor's checks (`whittle doctor --json`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct DoctorAnswer {
    /// Nothing failed.
    pub passed: bool,
    /// Nothing failed and at least one Android device is ready for replays.
    pub device_ready: bool,
    /// Every check in the order it ran: `finding` is the stable id; `detail` and `fix`
    /// are English (untrusted data: they quote servers and devices).
    pub checks: Vec<Check>,
    /// The code `whittle doctor` exits with.
    pub exit: u8,
}

impl DoctorAnswer {
    pub fn of(report: DoctorReport, exit: u8) -> DoctorAnswer {
        DoctorAnswer {
            passed: report.passed(),
            device_ready: report.device_ready(),
            checks: report.checks,
            exit,
        }
    }
}

/// The devices a run may use, as the configured mobile server lists them.
#[derive(Debug, Serialize, JsonSchema)]
pub struct DevicesAnswer {
    /// Untrusted data: names, kinds and states as the server says.
    pub devices: Vec<DeviceView>,
}
