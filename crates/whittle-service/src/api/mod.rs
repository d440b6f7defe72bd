//! The application API: the actions every front end shares — the window
//! (`src-tauri`), the terminal (`whittle`) and `whittle mcp` — each taking one validated
//! request and returning typed records, so a rule lives here once and a front end only
//! parses its input, calls in and renders what comes back (docs/architecture.md, "The
//! application API").
//!
//! | Action | Here |
//! |---|---|
//! | start, resume and cancel a run, with its events and (for a front end that watches) live frames of the devices ([`RunEvents`], [`Watched`], [`LiveFrame`]); the runs a front end holds ([`Runs`], [`OwnRuns`], [`interrupted_runs`]) | [`run`] over a [`RunJob`] ([`RunSpec`], counts by [`parse_count`]/[`count_of`]); a refusal is a [`RunRefusal`] |
//! | *Minimize all*: a queue of crash groups, run one after another or side by side on the online devices, paused, reordered, cancelled; a group's unfinished run resumed, its others discarded | [`plan_queue`] ([`QueueScope`], the skip rule, [`ResumableRun`]) and what to try next ([`run_hint`]) → [`queue_lanes`] → [`Queue`] ([`Queue::side_by_side`], [`Queue::run`], [`Queue::view`] → [`QueueView`]) |
//! | the sessions every front end lists, each with its crashes and runs; a session and its past runs; the sessions that changed on disk | [`listed_sessions`] (on [`sessions`]), [`session_detail`], [`past_runs`], [`WorkspaceWatch`] |
//! | reopen a past run; approve or export a result a front end holds | [`reopen`], [`Runs::reopen_run`], [`Runs::approve_held`], [`Runs::export_held`] ([`HeldResultError`]) |
//! | the result view of a run, live or reopened | [`ResultFacts`], [`result_view`] |
//! | validate for approval (the journal's seal, the evidence against it), approve (never over a newer approval unless told); what to do about a run nothing here proves (made elsewhere): re-prove it | [`approvable_from_files`], [`approve`], [`approve_evidence`], [`approve_shown`]; [`NextStep`], [`reproof_spec`] |
//! | the hierarchy nodes under a point of a kept picture, the nodes nearest a locator that found nothing, as Maestro selectors and Robo descriptors | [`inspect_point`], [`nearest_to_step`] |
//! | export a run as a bug-ticket bundle; its filmstrip; where an agent's export may go, and its export there (made inside the folder's handle, [`ExportDir`]) | [`export`], [`filmstrip`], [`check_export_folder`], [`export_to_allowed_folder`] |
//! | estimate replays | [`estimate`] |
//! | the devices a run may use | [`list_devices`] |
//! | import a flow; record an imported session (or import and record, checked first); verify a bundle | [`import`], [`record`], [`import_and_record`], [`verify`] |
//! | doctor; connect a real device | [`diagnose`], [`check_real_device`], [`use_backend`] |
//! | which `whittle.json` a front end runs with; a config for the bundled demo (first start) | [`find_config`] ([`ConfigSearch`] → [`ConfigChoice`]), [`provision`] |
//! | settings in `whittle.json` | [`set_privacy_level`], [`edit_config`] |
//! | how loud a front end's logs may be, whatever `RUST_LOG` says (no private value below it) | [`LOG_CEILING`] |

mod approval;
mod approve_evidence;
mod config_discovery;
mod config_edit;
mod count;
mod demo_setup;
mod device_setup;
mod devices;
mod estimate;
mod evidence_bundle;
mod evidence_check;
mod evidence_seal;
mod export;
mod export_folder;
mod filmstrip;
mod held_results;
mod import;
mod inspect;
mod next_step;
mod own_runs;
pub mod pictures;
mod privacy_setting;
mod queue;
mod queue_lanes;
mod queue_plan;
mod queue_resume;
mod record;
mod refusal;
mod reopen;
mod reproof;
mod result_against_journal;
mod result_view;
mod run_job;
mod runs;
mod session_detail;
mod session_error;
mod session_list;
mod shot_labels;
mod verify;
mod workspace_watch;

pub use crate::export::ExportDir;
pub use crate::result::{ApproveError, NewerApproval};
pub use approval::{approve, Approvable, Approval, Replace};
pub use approve_evidence::{approve_evidence, approve_shown, ApproveRequest, ApproveRunError};
pub use config_discovery::{
    expected_config_file, find_config, user_data_dir, ConfigChoice, ConfigSearch, CONFIG_ENV,
};
pub use config_edit::{edit_config, ConfigEditError};
pub use count::{count_of, parse_count, CountField, InvalidCount};
pub use demo_setup::{provision, DemoSetupError, Provisioned, DEMO_MODEL, DEMO_WORKSPACE};
pub use device_setup::{
    adb_variant, check_real_device, use_backend, uses_simulator, DeviceSetupReport, ADB_SERVER,
};
pub use devices::{list_devices, DeviceView, DevicesError};
pub use estimate::{estimate, ReplayEstimate, ReplayRange};
pub use evidence_bundle::{export_evidence, export_input, ticket_markdown, EvidenceExportError};
pub use evidence_check::{approvable_from_files, check_evidence, Inconsistency, NotApprovable};
pub use export::{export, ExportRequest, ExportRunError};
pub use export_folder::{
    check_export_folder, export_folders, export_to_allowed_folder, open_export_folder,
    AgentExportError, ExportFolderRefusal, FolderProblem,
};
pub use filmstrip::{filmstrip, FilmFrame, Filmstrip};
pub use held_results::HeldResultError;
pub use import::{import, read_import, ImportRefusal, ImportRequest};
pub use inspect::{inspect_point, nearest_to_step, InspectedNode, NearNode};
pub use next_step::{NextStep, NotProvenHere};
pub use own_runs::{interrupted_runs, InterruptedRun, OwnRuns, OWN_RUNS_FILE};
pub use privacy_setting::{privacy_level, set_privacy_level};
pub use queue::{Queue, QueueEntry, QueueEvent, QueueState, QueueView};
pub use queue_lanes::{queue_lanes, QueueLane};
pub use queue_plan::{
    plan_queue, QueueItem, QueuePlan, QueueScope, QueueSkipReason, SessionReadProblem,
    UnreadableSession,
};
pub use queue_resume::ResumableRun;
pub use record::{import_and_record, record, ImportRecordRefusal, ImportRecorded, RecordFailure};
pub use refusal::{
    CrashChoice, DeviceChoice, RefusalStatus, RunRefusal, ServerProblem, ServerProblemKind,
};
pub use reopen::{reopen, ReopenError, Reopened, ReopenedRun};
pub use reproof::{reproof_spec, ReproofProblem, ReproofRefusal};
pub use result_against_journal::ChangedResult;
pub use result_view::{
    default_export_folder, result_view, ApproveBlock, ResultFacts, RunResultView,
};
pub use run_job::{run, RunFailure, RunJob};
// How a front end takes a run's events, and live frames when it watches the devices.
pub use crate::run::RecordedRunError;
pub use crate::run::{RunEvents, Watched};
pub use crate::watch::{LiveFrame, LiveImage};
pub use runs::{ActiveRun, FinishedRun, RunInProgress, Runs};
pub use session_detail::{
    session_detail, sessions, CoverageView, CrashDetail, PlanView, SessionDetail, StepRole,
    StepView,
};
pub use session_error::{SessionReadError, UnreadableEvidence};
pub use session_list::{listed_sessions, ListedSession};
pub use shot_labels::{recorded_attempts, ShotLabelled};
pub use verify::{verify, VerifyFailure};
pub use workspace_watch::{WatchError, WorkspaceChange, WorkspaceWatch};

// Past runs and the doctor's checks, as the layers below define them.
pub use crate::doctor::{diagnose, DoctorOptions, DoctorReport};
pub use crate::run::{approved_runs, past_runs, PastRun, PastRunOutcome};
// What to try next after a run without a result, decided where the run ends.
pub use crate::run::{run_hint, RunHint};
// The request types the actions take, defined where the run consumes them.
pub use crate::run::{AskedRun, Reproof, ResumeOptions, RunSpec, DEFAULT_MAX_REPLAYS};

// The records, errors and renderers the actions answer with, defined in the layers below.
// A front end names them through this door only: the architecture test (rule 7,
// crates/whittle-core/tests/core/architecture.rs) refuses a `whittle_service::` path in
// the CLI, `whittle mcp` or the window that does not go through `api`.
pub use crate::client::HubError;
pub use crate::config::{Config, ConfigError, PrivacyLevel};
pub use crate::doctor::{Check, CheckName, CheckStatus, Finding};
pub use crate::evidence::{
    read_result, review_shot, FilmstripRecord, PictureName, ReviewChecklist, ReviewError,
    ReviewSummary, ShotOmission,
};
pub use crate::export::{maestro_flow, robo_script, MAESTRO_FILE, REPRO_FILE, ROBO_FILE};
pub use crate::import::{
    ImportFailure, ImportSummary, RecordEnd, RecordError, RecordOptions, RecordOutcome, SkippedStep,
};
pub use crate::replay::{MissReason, ReplayVerdict};
pub use crate::result::{is_newer, ResultFileError, ResultWarning, TypedWarning};
pub use crate::run::{
    discard, listed_run, listed_run_state, localized_report, read_pool_record, PendingResult,
    PoolRecord, RunEnd, RunError, RunEvent, RunOutcome, RunState, RunSummary, VerifyError,
    VerifyReport,
};
pub use crate::sidecar::{read_sidecar, FingerprintNote};
pub use whittle_core::log_ceiling::LOG_CEILING;
