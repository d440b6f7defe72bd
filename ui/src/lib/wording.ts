// Every word the run screens show for a machine value: phases, verdicts, reasons,
// statuses, confidence and error codes. One place, so the UI never leaks a raw code.
import type { Confidence, Phase, ProofRow, RunStatus, RunSummary } from "./runTypes";

export const phaseWords: Record<Phase, string> = {
  baseline: "Checking that the recorded path still crashes",
  bisect: "Removing blocks of steps",
  one_by_one: "Removing one step at a time",
  audit: "Proving every remaining step is needed",
  confirm: "Confirming the final path (3 runs)",
};

export const phaseShort: Record<Phase, string> = {
  baseline: "Baseline",
  bisect: "Bisect",
  one_by_one: "One by one",
  audit: "Audit",
  confirm: "Confirm",
};

export type Verdict = "reproduced" | "not_reproduced" | "error";

export const verdictWords: Record<Verdict | "running", string> = {
  reproduced: "Reproduced",
  not_reproduced: "Not reproduced",
  error: "Error",
  running: "Running…",
};

// The engine words a device/server failure as `runtime_error: …` (never a plain negative).
const RUNTIME_ERROR = /^runtime_error\b:?\s*/;

export function verdictOf(reproduced: boolean, reason: string | null): Verdict {
  if (reproduced) return "reproduced";
  return reason !== null && RUNTIME_ERROR.test(reason) ? "error" : "not_reproduced";
}

const reasonText: Record<string, string> = {
  no_crash: "No crash",
  element_not_found: "A step's element was not on screen",
  action_failed: "A step's action failed",
  different_crash: "A different crash",
};

/** A replay's reason in words; unknown reasons are shown as they came (they are text). */
export function reasonWords(reason: string | null): string {
  if (reason === null || reason === "") return "";
  if (RUNTIME_ERROR.test(reason)) {
    const detail = reason.replace(RUNTIME_ERROR, "");
    return detail ? `Device or server error: ${detail}` : "Device or server error";
  }
  return reasonText[reason] ?? reason.replaceAll("_", " ");
}

export const confidenceWords: Record<Confidence, string> = {
  high: "High",
  medium: "Medium",
  low: "Low",
};

/** The headline of a finished run; "minimal" only when the proof is complete (SPEC §3 Phase 5). */
export function statusHeadline(summary: RunSummary): string {
  const from = summary.original_path.length;
  const to = summary.minimal_path.length;
  switch (summary.status) {
    case "minimized":
      return summary.fixed_point_reached && summary.final_confirmed
        ? `Minimal path found: ${from} → ${to} steps`
        : `Shortest reproducing path so far: ${from} → ${to} steps (minimality not proven)`;
    case "not_reproduced":
      return "The recorded path did not crash the same way when replayed, so there is nothing to minimize.";
    case "static":
      return "No live run was possible; this is a static suggestion only.";
    case "capture_failed":
      return "The device log capture failed, so the run's verdicts cannot be trusted.";
    case "runtime_failed":
      return "A device or server error stopped the run.";
    case "cancelled":
      return "The run was cancelled.";
  }
}

const noWriteBack: Record<RunStatus, string> = {
  minimized: "the run did not meet the conditions for writing its result back",
  not_reproduced: "the recorded path did not reproduce the crash live",
  static: "only live results can be written back or exported, and this is a static suggestion",
  capture_failed: "the log capture failed, so the result cannot be trusted",
  runtime_failed: "a device or server error stopped the run",
  cancelled: "the run was cancelled before it produced a result",
};

/** Why Approve or Export is unavailable: "Nothing to approve: the run was cancelled…". */
export function noResultReason(status: RunStatus, action: "approve" | "export" = "approve"): string {
  return `Nothing to ${action}: ${noWriteBack[status]}.`;
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
  return [
    s.fixed_point_reached
      ? { ok: true, text: "Fixed point reached: removing any single step no longer crashes" }
      : { ok: false, text: "Fixed point not reached: a shorter path may exist" },
    s.final_confirmed
      ? { ok: true, text: "Final confirmation: 3/3 reproduced" }
      : { ok: false, text: "Final confirmation did not pass 3/3" },
    s.flaky_observed
      ? { ok: false, text: "Flaky: the same candidate both crashed and did not" }
      : { ok: true, text: "No flakiness observed" },
    s.budget_exhausted
      ? { ok: false, text: "Replay budget exhausted before the search ended" }
      : { ok: true, text: "Finished within the replay budget" },
    s.complete
      ? { ok: true, text: "Search complete" }
      : { ok: false, text: "Search incomplete" },
  ];
}

/** "Without step 7: 0/3 reproduced". */
export function proofLine(row: ProofRow): string {
  const reproduced = row.outcomes.filter(Boolean).length;
  return `Without step ${row.removed_step}: ${reproduced}/${row.outcomes.length} reproduced`;
}

export const flakyWarning =
  "Flaky: one candidate both crashed and did not. The search goes on, but confidence cannot be high.";

export function budgetWarning(maxReplays: number): string {
  return `All ${maxReplays} replays are used up. The result is the shortest path found so far; minimality is not proven.`;
}

const nextSteps: Record<string, string> = {
  run_in_progress: "Wait for the other run to end or cancel it, then start again.",
  config_unavailable: "Fix Whittle's configuration (whittle.json), then start again.",
  servers_unavailable: "Run “whittle doctor” in a terminal to see which server failed and how to fix it.",
  run_refused: "Check the device and the session's app, or pick another device, then start again.",
  plan_unavailable: "This crash's steps cannot be replayed; pick another crash.",
  invalid_session_id: "Pick the session again from the list.",
  session_unreadable: "Check the session folder's files, then reload the workspace.",
  workspace_unreadable: "Choose the workspace folder again.",
  no_result: "Run the minimization again; results are kept only while this window is open.",
  approve_failed: "Check that the session folder is writable, then approve again.",
  export_failed: "Pick a folder you can write to, or one without a bundle of that name, then export again.",
  screenshot_unavailable: "Close the viewer and open the screenshot again.",
  reveal_failed: "Open the folder in your file manager yourself; the path is shown above.",
};

/** What a tester can do next about a failed command (by its stable code). */
export function nextStepFor(code: string | null): string {
  return (code !== null && nextSteps[code]) || "Check the message, then try again.";
}
