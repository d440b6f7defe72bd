// Every word the run screens show for a machine value: phases, verdicts, reasons,
// statuses, confidence and error codes. One place, so the UI never leaks a raw code.
// The words come from the message catalogue (lib/i18n) in the window's language; the
// records below are read through getters, so a template that reads one re-renders when
// the language changes.
import { t, tn, type MessageKey } from "./i18n/index.svelte";
import { holderWords } from "./refusal";
import type {
  AttemptVerdict,
  Confidence,
  FailureCause,
  PastRunOutcome,
  Phase,
  PlanNotice,
  ProofRow,
  AssessmentWarning,
  DecodeWarning,
  ResultWarning,
  RunNotice,
  RunResultView,
  RunStatus,
  RunSummary,
  SessionError,
  ShotOmission,
  SkipReason,
  StepWords,
  TargetWords,
} from "./runTypes";
import { formatCreatedAt, formatSteps } from "./format";
import type { ErrorCode } from "./types";
import type { ImportNote } from "../bindings";

/** A record whose values are looked up in the current language each time they are read. */
function localized<K extends string>(keys: Record<K, MessageKey>): Readonly<Record<K, string>> {
  const words = {} as Record<K, string>;
  for (const name of Object.keys(keys) as K[]) {
    Object.defineProperty(words, name, { enumerable: true, get: () => t(keys[name]) });
  }
  return words;
}

export const phaseWords = localized<Phase>({
  baseline: "phase.baseline",
  bisect: "phase.bisect",
  one_by_one: "phase.one_by_one",
  audit: "phase.audit",
  confirm: "phase.confirm",
});

export const phaseShort = localized<Phase>({
  baseline: "phaseShort.baseline",
  bisect: "phaseShort.bisect",
  one_by_one: "phaseShort.one_by_one",
  audit: "phaseShort.audit",
  confirm: "phaseShort.confirm",
});

/** The kind of an attempt's verdict (`AttemptVerdict` in the backend); `cancelled` is the
 *  user's Cancel, never counted as a failure. */
export type Verdict = AttemptVerdict["kind"];

export const verdictWords = localized<Verdict | "running">({
  reproduced: "verdict.reproduced",
  not_reproduced: "verdict.not_reproduced",
  failed: "verdict.failed",
  cancelled: "verdict.cancelled",
  unneeded: "verdict.unneeded",
  running: "verdict.running",
});

/** A row's verdict kind, `running` until the attempt finished. */
export function verdictKind(verdict: AttemptVerdict | null): Verdict | "running" {
  return verdict?.kind ?? "running";
}

/** Why an attempt did not reproduce, in words ("" when it did or still runs). */
export function reasonWords(verdict: AttemptVerdict | null): string {
  switch (verdict?.kind) {
    case undefined:
    case "reproduced":
      return "";
    case "cancelled":
      return t("reason.cancelled");
    case "unneeded":
      return t("reason.unneeded");
    case "failed":
      return t("reason.runtimeDetail", { detail: failureWords(verdict.cause) });
    case "not_reproduced": {
      const words = t(`reason.${verdict.reason}`);
      const atStep = verdict.reason === "element_not_found" || verdict.reason === "action_failed";
      return atStep && verdict.step !== null ? t("reason.atStep", { reason: words, step: verdict.step }) : words;
    }
  }
}

/** What failed in the infrastructure (`FailureCause`), in words; details are the
 *  server's or the device's own text. */
export function failureWords(cause: FailureCause): string {
  switch (cause.kind) {
    case "tool":
      return cause.step === null ? cause.detail : t("failure.toolAtStep", { step: cause.step, detail: cause.detail });
    case "drain":
      return t("failure.drain", { detail: cause.detail });
    case "unknown_step":
      return t("failure.unknownStep", { step: cause.step });
    case "capture":
      return cause.device === null ? cause.detail : t("failure.captureOn", { detail: cause.detail, device: cause.device });
    case "not_saved":
      return t("failure.notSaved", { detail: cause.detail });
    case "recorded":
      return cause.detail;
  }
}

/** Why a session cannot be used (`SessionError`), in words: the file and line, then the
 *  problem; values quoted from the file are shown as they are. */
export function sessionProblemWords(error: SessionError): string {
  const p = error.problem;
  const problem =
    p.code === "invalid_record"
      ? t("sessionProblem.invalid_record", {
          what: isRecordWord(p.what) ? t(`sessionProblem.record.${p.what}`) : p.what,
          detail: p.detail,
        })
      : t(`sessionProblem.${p.code}`, p as unknown as Record<string, string | number>);
  return error.line === null
    ? t("sessionProblem.at", { file: error.file, problem })
    : t("sessionProblem.atLine", { file: error.file, line: error.line, problem });
}

const RECORD_WORDS = ["crash", "step", "session meta"] as const;
const isRecordWord = (what: string): what is (typeof RECORD_WORDS)[number] =>
  (RECORD_WORDS as readonly string[]).includes(what);

/** Why a picture was not kept (`ShotOmission`), in words; details are the device's or
 *  the disk's own text. */
export function omissionWords(why: ShotOmission): string {
  switch (why.kind) {
    case "not_the_app":
      return t("omission.not_the_app", { shown: why.shown });
    case "undecodable":
    case "capture_failed":
      return t(`omission.${why.kind}`, { detail: why.detail });
    case "recorded":
      return why.detail;
    default:
      return t(`omission.${why.kind}`);
  }
}

/** The element a step acts on, in words. */
export function targetWords(target: TargetWords): string {
  switch (target.kind) {
    case "id":
      return t("target.id", { name: target.name });
    case "text":
      return t("target.text", { text: target.text });
    case "label":
      return t("target.label", { label: target.label });
    case "focused":
      return t("target.focused");
    case "withheld":
      return t("target.withheld");
    case "unstable":
      return t("target.unstable", { kind: t(`keyKind.${target.key_kind}`) });
    case "absent":
      return t("target.absent");
  }
}

/** A step's action in words ("Tap “Cart”"), never with a typed value. */
export function stepText(words: StepWords): string {
  switch (words.kind) {
    case "launch":
      return t("step.launch");
    case "press":
      return words.button ? t("step.press", { button: words.button }) : t("step.pressUnknown");
    case "tap":
      return t("step.tap", { target: targetWords(words.target) });
    case "type_into":
      return t("step.typeInto", { target: targetWords(words.target) });
    case "long_press":
      return t("step.longPress", { target: targetWords(words.target) });
    case "relaunch":
      return t("step.relaunch");
    case "unsupported":
      return t("step.unsupported", { action: words.action_type });
    case "unrecognized":
      return t("step.unrecognized");
  }
}

// The backend's English phrase for an unstable key (`SkipReason.unstable_key`), by kind.
const UNSTABLE_PHRASES: Record<string, "class" | "screen_position"> = {
  "its class": "class",
  "its screen position": "screen_position",
};

/** Why a step is skipped, in words. */
export function skipText(reason: SkipReason): string {
  switch (reason.code) {
    case "unstable_key": {
      const kind = UNSTABLE_PHRASES[reason.key_kind];
      return t("skip.unstable_key", { kind: kind ? t(`keyKind.${kind}`) : reason.key_kind });
    }
    case "unsupported_action":
      return reason.action_type
        ? t("skip.unsupported_action", { action: reason.action_type })
        : t("skip.unsupported_action_empty");
    case "unsupported_button":
      return reason.button
        ? t("skip.unsupported_button", { button: reason.button })
        : t("skip.unsupported_button_empty");
    case "unknown_input":
      return reason.variable
        ? t("skip.unknown_input", { variable: reason.variable })
        : t("skip.unknown_input_script");
    case "list_position":
      return t("skip.list_position", {
        element: reason.element,
        position: reason.position,
        list: reason.list,
      });
    case "ancestors_needed":
      return reason.ancestors
        ? t("skip.ancestors_needed", { element: reason.element, ancestors: reason.ancestors })
        : t("skip.ancestors_needed_unknown", { element: reason.element });
    default:
      return t(`skip.${reason.code}`);
  }
}

/** What an imported flow held beyond its steps (`ImportSummary.notes`), in words. */
export function importNoteText(note: ImportNote): string {
  switch (note.kind) {
    case "hook":
      return t("import.note.hook", { hook: note.hook, line: note.line });
    case "execution_options":
      return t("import.note.execution_options", { line: note.line });
    case "launch_option":
      return t(note.line === null ? "import.note.launch_option" : "import.note.launch_option_at", {
        option: t(`import.launchOption.${note.option}`),
        line: note.line ?? 0,
      });
    case "keeps_running_app":
      return t(note.line === null ? "import.note.keeps_running_app" : "import.note.keeps_running_app_at", {
        line: note.line ?? 0,
      });
  }
}

export function planNoticeText(notice: PlanNotice): string {
  switch (notice.kind) {
    case "step_skipped":
      return t("notice.stepSkipped", { step: notice.step, reason: skipText(notice.reason) });
    case "legacy_steps":
      return t("notice.legacySteps", { count: notice.count });
    case "low_coverage":
      return t("notice.lowCoverage", { replayable: notice.replayable, total: notice.non_launch });
  }
}

export function noticeText(notice: RunNotice): string {
  switch (notice.kind) {
    case "plan":
      return planNoticeText(notice.notice);
    case "pool_smaller":
      return t("notice.poolSmaller", {
        asked: notice.asked,
        available: notice.devices.length,
        package: notice.package,
        devices: notice.devices.join(", "),
      });
    case "pool_device_busy":
      return t("notice.poolDeviceBusy", { device: notice.device, holder: holderWords(notice.holder) });
    case "pool_device_lacks_tool":
      return t("notice.poolDeviceLacksTool", { device: notice.device, tool: notice.tool });
    case "pool_device_left_out":
      return t("notice.poolDeviceLeftOut", { device: notice.device, detail: notice.detail });
    case "screenshot_omitted":
      return t("notice.screenshotOmitted", { attempt: notice.attempt, why: omissionWords(notice.why) });
    case "file_not_written":
      return t("notice.fileNotWritten", { file: notice.file, detail: notice.detail });
    case "resumed":
      return t("notice.resumed", { at: formatCreatedAt(notice.at), count: notice.after_attempts });
  }
}

const DEVICE_STATES = new Set(["online", "offline", "booted", "unauthorized"]);

/** A device state as the server said it, in words when Whittle knows it. */
export function deviceStateWords(state: string): string {
  const key = state.toLowerCase();
  return DEVICE_STATES.has(key) ? t(`deviceState.${key as "online"}`) : state;
}

/** A candidate as what it leaves out of the full set: "removed: 2–5, 9" / "all steps". */
export function removedText(candidate: readonly number[], all: readonly number[]): string {
  if (candidate.length === 0) return t("history.launchOnly");
  const kept = new Set(candidate);
  const removed = all.filter((s) => !kept.has(s));
  return removed.length === 0 ? t("history.allSteps") : t("history.removed", { steps: formatSteps(removed) });
}

/** A past run's outcome in a badge. */
export function pastOutcomeWords(outcome: PastRunOutcome): string {
  return t(`pastOutcome.${outcome}`);
}

export const confidenceWords = localized<Confidence>({
  high: "confidence.high",
  medium: "confidence.medium",
  low: "confidence.low",
});

/** The headline of a finished run, from its typed end: "minimal" only for a minimized run
 * (high confidence, decided in the core), and "already minimal" rather than "3 → 3" when
 * nothing could go. */
export function statusHeadline(summary: RunSummary): string {
  const from = summary.original_path.length;
  const to = summary.minimal_path.length;
  switch (summary.status) {
    case "minimized":
      return to === from ? t("banner.alreadyMinimal", { count: from }) : tn("status.minimal", to, { from });
    case "unproven":
      return tn("status.shortest", to, { from });
    case "not_reproduced":
    case "static":
    case "capture_failed":
    case "runtime_failed":
    case "cancelled":
      return t(`status.${summary.status}`);
  }
}

/** Why Approve or Export is unavailable: "Nothing to approve: the run was cancelled…". */
export function noResultReason(status: RunStatus, action: "approve" | "export" = "approve"): string {
  return t(`noResult.${action}`, { why: t(`noWriteBack.${status}`) });
}

/** Why `result` cannot be approved, from its record (already approved, its evidence not
 *  holding together, a result that may not be written back), or null when it can: the
 *  one rule for the Approve button and for the banner's way to it. */
export function approveBlockedReason(result: RunResultView): string | null {
  if (result.approved) return t("result.alreadyApproved");
  const blocked = result.approve_blocked;
  if (blocked?.code === "inconsistent") return t("result.approveInconsistent", { detail: blocked.detail });
  if (blocked?.code === "not_proven_here")
    return t("result.approveNotProvenHere", { why: t(`result.notProvenHere.${blocked.why}`) });
  if (result.pending) return result.pending.write_back_allowed ? null : noResultReason("minimized");
  return noResultReason(result.summary.status);
}

export type Reason = { ok: boolean; text: string };

/** The summary's flags, each as a sentence with whether it supports the confidence. */
export function confidenceReasons(
  s: {
    fixed_point_reached: boolean;
    final_confirmed: boolean;
    flaky_observed: boolean;
    budget_exhausted: boolean;
    complete: boolean;
    /** Every verdict of the final path (a result's); empty when it never ran. */
    final_outcomes?: boolean[] | null;
  },
  status: RunStatus | null = null,
): Reason[] {
  const reason = (ok: boolean, key: MessageKey): Reason => ({ ok, text: t(key) });
  // A cancelled run did not "finish within the budget": it was stopped.
  const budget =
    status === "cancelled"
      ? reason(false, "why.cancelled")
      : s.budget_exhausted
        ? reason(false, "why.budgetExhausted")
        : reason(true, "why.withinBudget");
  return [
    s.fixed_point_reached ? reason(true, "why.fixedPoint") : reason(false, "why.noFixedPoint"),
    // The final confirmation is the search's last phase: a cancelled run never
    // completed it, whether or not it had started.
    s.final_confirmed
      ? reason(true, "why.confirmed")
      : status === "cancelled"
        ? reason(false, "why.finalCancelled")
        : s.final_outcomes?.length === 0
          ? reason(false, "why.finalNotRun")
          : reason(false, "why.notConfirmed"),
    s.flaky_observed ? reason(false, "why.flaky") : reason(true, "why.notFlaky"),
    budget,
    s.complete ? reason(true, "why.complete") : reason(false, "why.incomplete"),
  ];
}

/** "Without step 7: 0/3 reproduced". */
export function proofLine(row: ProofRow): string {
  const hits = row.outcomes.filter(Boolean).length;
  return t("proof.line", { step: row.removed_step, hits, total: row.outcomes.length });
}

/**
 * A warning the run screen raised itself (the backend's own warnings arrive as text).
 * Kept as data so the sentence follows the language, even after the event.
 */
export type RunWarning =
  | { kind: "flaky" }
  | { kind: "budget"; maxReplays: number }
  | { kind: "notice"; notice: RunNotice }
  | { kind: "text"; text: string }
  /** One of a finished run's recorded warnings (`RunSummary.warnings`, `result.json`). */
  | { kind: "result"; warning: ResultWarning };

export function warningText(warning: RunWarning): string {
  switch (warning.kind) {
    case "result":
      return resultWarningText(warning.warning);
    case "flaky":
      return t("warning.flaky");
    case "budget":
      return t("warning.budget", { max: warning.maxReplays });
    case "notice":
      return noticeText(warning.notice);
    case "text":
      return warning.text;
  }
}

/** Why a finished result is not (fully) proven, from its assessment. */
export function assessmentWarningText(warning: AssessmentWarning): string {
  switch (warning.kind) {
    case "baseline_not_reproduced":
      return t("resultWarning.baselineNotReproduced");
    case "budget_exhausted":
      return t("resultWarning.budgetExhausted", { max: warning.max_replays });
    case "flaky":
      return t("resultWarning.flaky", { reproduced: warning.reproduced, total: warning.total });
    case "signature_degraded":
      return t("resultWarning.signatureDegraded");
    case "statistical": {
      const text = t("resultWarning.statistical", { confidence: warning.confidence_percent, cap: warning.cap });
      return warning.unseparated.length === 0
        ? text
        : `${text} ${t("resultWarning.unseparated", { steps: warning.unseparated.join(", ") })}`;
    }
  }
}

function decodeWarningText(warning: DecodeWarning): string {
  return t("resultWarning.decode", { server: warning.server, role: warning.role, tool: warning.tool });
}

/**
 * A finished run's warning (`RunSummary.warnings`, `result.json`), worded here from its
 * record; a result written before warnings were typed holds a sentence, shown as it is.
 */
export function resultWarningText(warning: ResultWarning): string {
  if (typeof warning === "string") return warning;
  switch (warning.source) {
    case "plan":
      return planNoticeText(warning.notice);
    case "pool":
      return noticeText(warning.notice);
    case "assessment":
      return assessmentWarningText(warning.warning);
    case "decode":
      return decodeWarningText(warning.warning);
  }
}

export function flakyWarning(): string {
  return t("warning.flaky");
}

export function budgetWarning(maxReplays: number): string {
  return t("warning.budget", { max: maxReplays });
}

// Every code the backend can send (tsc refuses a new one without words here).
const KNOWN_CODES: Record<ErrorCode, true> = {
  workspace_unreadable: true,
  invalid_session_id: true,
  session_unreadable: true,
  plan_unavailable: true,
  config_unavailable: true,
  servers_unavailable: true,
  run_in_progress: true,
  run_refused: true,
  no_result: true,
  approve_failed: true,
  export_failed: true,
  clipboard_refused: true,
  screenshot_unavailable: true,
  reveal_failed: true,
  discard_failed: true,
  import_failed: true,
  record_failed: true,
  newer_approval: true,
};

const isKnown = (code: string | null): code is ErrorCode => code !== null && Object.hasOwn(KNOWN_CODES, code);

/** What went wrong, by a failed command's stable code, in the window's language. */
export function errorSentence(code: string | null): string {
  return isKnown(code) ? t(`error.${code}`) : t("error.unknown");
}

/** What a tester can do next about a failed command (by its stable code). */
export function nextStepFor(code: string | null): string {
  return isKnown(code) ? t(`next.${code}`) : t("next.unknown");
}
