// Every word the run screens show for a machine value: phases, verdicts, reasons,
// statuses, confidence and error codes. One place, so the UI never leaks a raw code.
// The words come from the message catalogue (lib/i18n) in the window's language; the
// records below are read through getters, so a template that reads one re-renders when
// the language changes.
import { t, tn, type MessageKey } from "./i18n/index.svelte";
import type { Confidence, Phase, ProofRow, RunStatus, RunSummary } from "./runTypes";
import type { ErrorCode } from "./types";

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

export type Verdict = "reproduced" | "not_reproduced" | "error";

export const verdictWords = localized<Verdict | "running">({
  reproduced: "verdict.reproduced",
  not_reproduced: "verdict.not_reproduced",
  error: "verdict.error",
  running: "verdict.running",
});

// The engine words a device/server failure as `runtime_error: …` (never a plain negative).
const RUNTIME_ERROR = /^runtime_error\b:?\s*/;

export function verdictOf(reproduced: boolean, reason: string | null): Verdict {
  if (reproduced) return "reproduced";
  return reason !== null && RUNTIME_ERROR.test(reason) ? "error" : "not_reproduced";
}

const reasonKeys: Record<string, MessageKey> = {
  no_crash: "reason.no_crash",
  element_not_found: "reason.element_not_found",
  action_failed: "reason.action_failed",
  different_crash: "reason.different_crash",
};

/** A replay's reason in words; unknown reasons are shown as they came (they are text). */
export function reasonWords(reason: string | null): string {
  if (reason === null || reason === "") return "";
  if (RUNTIME_ERROR.test(reason)) {
    const detail = reason.replace(RUNTIME_ERROR, "");
    return detail ? t("reason.runtimeDetail", { detail }) : t("reason.runtime");
  }
  const key = Object.hasOwn(reasonKeys, reason) ? reasonKeys[reason] : undefined;
  return key ? t(key) : reason.replaceAll("_", " ");
}

export const confidenceWords = localized<Confidence>({
  high: "confidence.high",
  medium: "confidence.medium",
  low: "confidence.low",
});

/** The headline of a finished run; "minimal" only when the proof is complete (SPEC §3 Phase 5). */
export function statusHeadline(summary: RunSummary): string {
  const from = summary.original_path.length;
  const to = summary.minimal_path.length;
  switch (summary.status) {
    case "minimized":
      return summary.fixed_point_reached && summary.final_confirmed
        ? tn("status.minimal", to, { from })
        : tn("status.shortest", to, { from });
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

export type Reason = { ok: boolean; text: string };

/** The summary's flags, each as a sentence with whether it supports the confidence. */
export function confidenceReasons(s: {
  fixed_point_reached: boolean;
  final_confirmed: boolean;
  flaky_observed: boolean;
  budget_exhausted: boolean;
  complete: boolean;
}): Reason[] {
  const reason = (ok: boolean, key: MessageKey): Reason => ({ ok, text: t(key) });
  return [
    s.fixed_point_reached ? reason(true, "why.fixedPoint") : reason(false, "why.noFixedPoint"),
    s.final_confirmed ? reason(true, "why.confirmed") : reason(false, "why.notConfirmed"),
    s.flaky_observed ? reason(false, "why.flaky") : reason(true, "why.notFlaky"),
    s.budget_exhausted ? reason(false, "why.budgetExhausted") : reason(true, "why.withinBudget"),
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
export type RunWarning = { kind: "flaky" } | { kind: "budget"; maxReplays: number } | { kind: "text"; text: string };

export function warningText(warning: RunWarning): string {
  switch (warning.kind) {
    case "flaky":
      return t("warning.flaky");
    case "budget":
      return t("warning.budget", { max: warning.maxReplays });
    case "text":
      return warning.text;
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
  screenshot_unavailable: true,
  reveal_failed: true,
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
