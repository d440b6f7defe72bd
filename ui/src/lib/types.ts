// The shapes the Rust side sends. tauri-specta emits a `_Serialize` (Rust → UI) and a
// `_Deserialize` (UI → Rust) variant per type; the UI only ever receives these.
export type {
  AppVersion_Serialize as AppVersion,
  CrashDetail_Serialize as CrashDetail,
  CrashKind,
  ErrorCode,
  ErrorPayload,
  PlanView_Serialize as PlanView,
  SessionDetail_Serialize as SessionDetail,
  SessionStatus,
  SessionSummary_Serialize as SessionSummary,
  StepRole,
  StepView_Serialize as StepView,
} from "../bindings";
