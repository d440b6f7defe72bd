// The shapes the Rust side sends. tauri-specta emits a `_Serialize` (Rust → UI) and a
// `_Deserialize` (UI → Rust) variant per type; the UI only ever receives these.
export type {
  AppVersion_Serialize as AppVersion,
  CrashDetail_Serialize as CrashDetail,
  CrashKind,
  ErrorPayload_Serialize as ErrorPayload,
  PlanView_Serialize as PlanView,
  SessionDetail_Serialize as SessionDetail,
  SessionStatus,
  SessionSummary_Serialize as SessionSummary,
  StepRole,
  StepView_Serialize as StepView,
} from "../bindings";

/** The stable code of a failed command (src-tauri's `ErrorCode`, the wire's `code`). */
export type ErrorCode = import("../bindings").AppError_Serialize["code"];
