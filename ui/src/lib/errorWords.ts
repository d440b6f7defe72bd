// A failed command's typed error (`AppError` in src-tauri: `{ code, …typed fields }`) in
// the window's language: what went wrong, from the code and its fields. Only a `detail`
// — text from outside the product (an OS error, a parser's or a server's message) — is
// shown as it came; the backend's English `message` never is.
import type { AppError_Serialize as AppError, SessionIdError } from "../bindings";
import { t } from "./i18n/index.svelte";
import { refusalNote } from "./refusal";
import { sessionProblemWords } from "./wording";

function sessionIdWords(id: string, problem: SessionIdError): string {
  switch (problem.kind) {
    case "empty":
      return t("cause.sessionId.empty");
    case "too_long":
      return t("cause.sessionId.too_long", { id, len: problem.len });
    case "dot_name":
      return t("cause.sessionId.dot_name");
    case "invalid_char":
      // A position is a place, not a quantity: never grouped as a number is.
      return t("cause.sessionId.invalid_char", { id, found: problem.found, position: String(problem.position) });
  }
}

/** The typed cause of `error` in one sentence, or `null` when its code says it all. */
export function errorCauseWords(error: AppError): string | null {
  switch (error.code) {
    case "workspace_unreadable":
      return t(`cause.workspace.${error.cause.kind}`, { path: error.path });
    case "invalid_session_id":
      return sessionIdWords(error.id, error.problem);
    case "session_unreadable": {
      const c = error.cause;
      switch (c.kind) {
        case "invalid":
          return t("cause.session.invalid", { id: error.id, problem: sessionProblemWords(c.error) });
        case "file_unreadable":
          return t("cause.session.file_unreadable", { id: error.id, file: c.file });
        case "not_a_run_of":
          return t("cause.session.not_a_run_of", { id: error.id, session: c.session });
        default:
          return t(`cause.session.${c.kind}`, { id: error.id });
      }
    }
    case "plan_unavailable":
      return t("cause.plan", { crash: error.crash_id });
    case "config_unavailable": {
      const c = error.cause;
      switch (c.kind) {
        case "no_config":
          return t("cause.config.no_config", { env: c.env, expected: c.expected });
        case "not_json":
          return t("cause.config.not_json", { file: c.file, line: c.line, column: c.column });
        case "bad_field":
          return t("cause.config.bad_field", { file: c.file, field: c.field });
        case "no_simulator":
          return t("cause.config.no_simulator");
        default:
          return t(`cause.config.${c.kind}`, { file: c.file });
      }
    }
    case "servers_unavailable": {
      const c = error.cause;
      if (c.kind === "failed") return t("cause.servers.failed");
      const roles = c.problems.map((p) => (p.server ? `${p.role} (${p.server})` : p.role)).join(", ");
      return t("cause.servers.not_started", { roles });
    }
    case "run_refused":
      return refusalNote(error.refusal);
    case "no_result":
      return t("cause.noResult", { evidence: error.evidence_session });
    case "approve_failed": {
      const c = error.cause;
      switch (c.kind) {
        case "not_writable":
        case "sidecar_unwritable":
          return t(`cause.approve.${c.kind}`);
        case "other_crash":
          return t("cause.approve.other_crash", { evidence: c.evidence, crash: c.crash_id, asked: c.asked });
        case "not_written_back":
          return t("cause.approve.not_written_back", {
            evidence: c.evidence,
            why: isRunStatus(c.status) ? t(`noWriteBack.${c.status}`) : c.status,
          });
        default:
          return t(`cause.approve.${c.kind}`, { evidence: c.evidence });
      }
    }
    case "newer_approval":
      return t("cause.newer", {
        crash: error.newer_approval.crash_id,
        evidence: error.newer_approval.held_evidence_session,
      });
    case "export_failed": {
      const c = error.cause;
      switch (c.kind) {
        case "folder_not_absolute":
        case "folder_unwritable":
          return t(`cause.export.${c.kind}`, { folder: c.folder });
        case "evidence_not_found":
        case "no_live_result":
        case "no_result_file":
        case "evidence_changed":
          return t(`cause.export.${c.kind}`, { evidence: c.evidence });
        default:
          return t(`cause.export.${c.kind}`);
      }
    }
    case "clipboard_refused":
      return null;
    case "screenshot_unavailable":
      return error.cause.kind === "invalid_session_id" ? sessionIdWords(error.cause.id, error.cause.problem) : null;
    case "reveal_failed":
      return t(`cause.reveal.${error.cause.kind}`, { path: error.path });
    case "discard_failed":
      return t("cause.discard", { evidence: error.evidence_session });
    case "import_failed": {
      const c = error.cause;
      switch (c.kind) {
        case "file_not_absolute":
          return t("cause.import.file_not_absolute", { file: c.file });
        case "variable_name":
          return t("cause.import.variable_name", { name: c.name });
        case "bad_name":
          return t("cause.import.bad_name", { name: c.name });
        case "no_package":
          return t("cause.import.no_package");
        case "process_not_package":
          return t("cause.import.process_not_package", { process: c.process, package: c.package });
        case "package_conflict":
          return t("cause.import.package_conflict", { inFile: c.in_file, given: c.given });
        case "failed":
          return null;
      }
      return null;
    }
    case "record_failed":
    case "run_in_progress":
      return null;
  }
}

/** The form field an import was refused for, when it was one of the form's fields rather
 *  than the file (the dialog marks that field). */
export function importFieldAtFault(error: AppError | undefined): "name" | "package" | "variables" | null {
  if (error?.code !== "import_failed") return null;
  switch (error.cause.kind) {
    case "bad_name":
      return "name";
    case "no_package":
    case "process_not_package":
    case "package_conflict":
      return "package";
    case "variable_name":
      return "variables";
    default:
      return null;
  }
}

/** What to do next when the cause says more than the code's usual next step (an import
 *  refused for a field of its form is fixed in that field, not in the file). */
export function errorNextWords(error: AppError): string | null {
  if (error.code !== "import_failed") return null;
  const c = error.cause;
  switch (c.kind) {
    case "bad_name":
    case "no_package":
      return t(`next.import.${c.kind}`);
    case "process_not_package":
      return t("next.import.process_not_package", { package: c.package });
    case "package_conflict":
      return t("next.import.package_conflict", { inFile: c.in_file });
    default:
      return null;
  }
}

const RUN_STATUSES = ["minimized", "unproven", "not_reproduced", "static", "capture_failed", "runtime_failed", "cancelled"];
const isRunStatus = (s: string): s is "cancelled" => RUN_STATUSES.includes(s);

/** Text from outside the product that `error` carries (an OS error, a server's message), shown as it came. */
export function errorDetail(error: AppError): string | null {
  if (error.code === "run_refused") return "detail" in error.refusal ? error.refusal.detail : null;
  const own = (error as { detail?: unknown }).detail;
  if (typeof own === "string") return own;
  const cause = (error as { cause?: { detail?: unknown } }).cause;
  return typeof cause?.detail === "string" ? cause.detail : null;
}
