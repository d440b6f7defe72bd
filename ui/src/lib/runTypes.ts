// Every run-related shape the Rust side sends or takes, from the generated bindings
// (the `_Serialize` variant is what Rust sends). No other module declares a run type.
export type {
  Approval,
  ApproveBlock,
  AttemptVerdict_Serialize as AttemptVerdict,
  FailureCause_Serialize as FailureCause,
  MissReason,
  CandidateHistory,
  Confidence,
  DeviceView_Serialize as Device,
  InterruptedRun,
  Disposition as StepDisposition,
  EngineSnapshot_Serialize as EngineSnapshot,
  MaskPatchView,
  MaskPreviewRequest,
  MaskRect,
  MaskRequest,
  MaskStyle,
  ObservedCrash_Serialize as ObservedCrash,
  PastRun_Serialize as PastRun,
  PastRunOutcome,
  PlanNotice,
  ReopenedRun_Serialize as ReopenedRun,
  ReplayEstimate,
  RunNotice,
  ResultWarning,
  TypedWarning,
  Warning as AssessmentWarning,
  DecodeWarning,
  SessionError_Serialize as SessionError,
  ShotOmission,
  SkipReason,
  StepWords_Serialize as StepWords,
  TargetWords,
  WorkspaceChange,
  PendingResult_Serialize as PendingResult,
  Phase,
  PlanEntry_Serialize as PlanEntry,
  PlannedStep,
  ProofRow,
  RecordedAttempt_Serialize as RecordedAttempt,
  ReviewChecklist_Serialize as ReviewChecklist,
  ReviewSummary_Serialize as ReviewSummary,
  RunEvent_Serialize as RunEvent,
  RunRequest_Deserialize as StartRunRequest,
  ResumeRequest,
  RunResultView_Serialize as RunResultView,
  RunSummary_Serialize as RunSummary,
  RunUpdate_Serialize as RunChannelMessage,
  ScreenshotView,
} from "../bindings";
import type { ErrorPayload_Serialize as ErrorPayload, RunEnd_Serialize, RunEvent_Serialize, RunResultView_Serialize } from "../bindings";

/** How a run ended (`RunEnd` in the core): the one status every view switches on. */
export type RunStatus = RunEnd_Serialize["status"];

/** The `{code, message}` every failing run command (and a failed run) carries. */
export type RunErrorPayload = ErrorPayload;

/** One event of run `run_id`, as the run controller receives it. */
export type RunUpdate = { run_id: number; event: RunEvent_Serialize };

/** The end of run `run_id`: a result, or why there is none. */
export type RunEnded = { run_id: number; result: RunResultView_Serialize | null; error: ErrorPayload | null };
