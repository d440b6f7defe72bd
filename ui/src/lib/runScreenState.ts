// The run screen's state as a pure fold over the run's events, so a test can replay a
// whole run without a DOM or a backend. `now` is passed in for the same reason.
import type { AttemptVerdict, CandidateHistory, ObservedCrash, Phase, PlannedStep, RunEvent, RunSummary } from "./runTypes";
import type { RunWarning } from "./wording";

export type AttemptRow = {
  attempt: number;
  phase: Phase;
  candidate: number[];
  /** What became of it; null while it runs. */
  verdict: AttemptVerdict | null;
  /** Every crash the drain saw after this replay. */
  observed: ObservedCrash[];
  durationMs: number | null;
  screenshot: string | null;
  screenshotRedacted: boolean;
  /** The screenshot is the screen right before this step's action (the app was gone after). */
  screenshotBeforeStep: number | null;
  /** The device that replayed it (known once it finished). */
  device: string | null;
};

export type RunScreenState = {
  evidenceSession: string | null;
  planSteps: PlannedStep[];
  /** The replayable steps the search may remove. */
  candidates: number[];
  device: string | null;
  /** Every device that replays (the primary first). */
  devices: string[];
  phase: Phase | null;
  /** The shortest reproducing candidate so far. */
  current: number[];
  /** What is being replayed right now, if anything. */
  candidate: number[] | null;
  attempts: number;
  maxReplays: number;
  flaky: boolean;
  budgetExhausted: boolean;
  rows: AttemptRow[];
  /** In order, each once; worded when shown (see `warningText`), so they follow the language. */
  warnings: RunWarning[];
  outcomeHistory: CandidateHistory[];
  startedAt: number | null;
  endedAt: number | null;
  finishedAttempts: number;
  finishedDurationMs: number;
  summary: RunSummary | null;
};

export function initialRunScreenState(): RunScreenState {
  return {
    evidenceSession: null,
    planSteps: [],
    candidates: [],
    device: null,
    devices: [],
    phase: null,
    current: [],
    candidate: null,
    attempts: 0,
    maxReplays: 0,
    flaky: false,
    budgetExhausted: false,
    rows: [],
    warnings: [],
    outcomeHistory: [],
    startedAt: null,
    endedAt: null,
    finishedAttempts: 0,
    finishedDurationMs: 0,
    summary: null,
  };
}

const sameWarning = (a: RunWarning, b: RunWarning) => JSON.stringify(a) === JSON.stringify(b);

function addWarning(warnings: RunWarning[], warning: RunWarning): RunWarning[] {
  return warnings.some((w) => sameWarning(w, warning)) ? warnings : [...warnings, warning];
}

/** Replaces the row of `attempt` (searching from the end: it is nearly always the last). */
function upsertRow(rows: AttemptRow[], row: AttemptRow): AttemptRow[] {
  for (let i = rows.length - 1; i >= 0; i--) {
    if (rows[i]!.attempt === row.attempt) {
      const next = rows.slice();
      next[i] = row;
      return next;
    }
    if (rows[i]!.attempt < row.attempt) break;
  }
  return [...rows, row].sort((a, b) => a.attempt - b.attempt);
}

function withFlags(state: RunScreenState, flaky: boolean, budgetExhausted: boolean, maxReplays: number): RunScreenState {
  let warnings = state.warnings;
  if (flaky && !state.flaky) warnings = addWarning(warnings, { kind: "flaky" });
  if (budgetExhausted && !state.budgetExhausted) warnings = addWarning(warnings, { kind: "budget", maxReplays });
  return {
    ...state,
    warnings,
    flaky: state.flaky || flaky,
    budgetExhausted: state.budgetExhausted || budgetExhausted,
  };
}

export function reduce(state: RunScreenState, event: RunEvent, now: number = Date.now()): RunScreenState {
  switch (event.type) {
    case "started":
      return {
        ...state,
        evidenceSession: event.evidence_session,
        planSteps: event.plan_steps,
        candidates: event.candidates,
        maxReplays: event.max_replays,
        device: event.device,
        devices: event.devices,
        current: event.candidates,
        startedAt: now,
      };
    case "attempt_started":
      return {
        ...state,
        phase: event.phase,
        candidate: event.candidate,
        rows: upsertRow(state.rows, {
          attempt: event.attempt,
          phase: event.phase,
          candidate: event.candidate,
          verdict: null,
          observed: [],
          durationMs: null,
          screenshot: null,
          screenshotRedacted: false,
          screenshotBeforeStep: null,
          device: null,
        }),
      };
    case "attempt_finished":
      return {
        ...state,
        phase: event.phase,
        attempts: Math.max(state.attempts, event.attempt),
        finishedAttempts: state.finishedAttempts + 1,
        finishedDurationMs: state.finishedDurationMs + (event.duration_ms ?? 0),
        rows: upsertRow(state.rows, {
          attempt: event.attempt,
          phase: event.phase,
          candidate: event.candidate,
          verdict: event.verdict,
          observed: event.observed,
          durationMs: event.duration_ms,
          screenshot: event.screenshot,
          screenshotRedacted: event.screenshot_redacted,
          screenshotBeforeStep: event.screenshot_before_step,
          device: event.device,
        }),
      };
    case "snapshot":
      return {
        ...withFlags(state, event.flaky_observed, event.budget_exhausted, event.max_replays),
        phase: event.phase,
        current: event.current,
        candidate: event.candidate,
        attempts: event.attempts,
        maxReplays: event.max_replays,
        outcomeHistory: event.outcome_history,
      };
    case "warning":
      return { ...state, warnings: addWarning(state.warnings, { kind: "text", text: event.message }) };
    case "notice":
      return { ...state, warnings: addWarning(state.warnings, { kind: "notice", notice: event.notice }) };
    case "finished": {
      const { type: _type, ...summary } = event;
      return {
        ...withFlags(state, summary.flaky_observed, summary.budget_exhausted, state.maxReplays),
        summary,
        candidate: null,
        attempts: summary.attempts,
        current: summary.minimal_path,
        evidenceSession: state.evidenceSession ?? summary.evidence_session,
        endedAt: now,
      };
    }
  }
}

/** Average duration of a finished replay, or null before the first one ends. */
export function averageAttemptMs(state: RunScreenState): number | null {
  return state.finishedAttempts === 0 ? null : state.finishedDurationMs / state.finishedAttempts;
}

/**
 * An upper bound on the time left: every remaining replay of the budget at the average
 * duration. The search often stops earlier, hence "up to".
 */
export function remainingUpToMs(state: RunScreenState): number | null {
  const avg = averageAttemptMs(state);
  if (avg === null || state.summary !== null) return null;
  return avg * Math.max(0, state.maxReplays - state.attempts);
}

export function elapsedMs(state: RunScreenState, now: number): number | null {
  if (state.startedAt === null) return null;
  return (state.endedAt ?? now) - state.startedAt;
}

/** Folds a whole recorded run (a past run read from disk) at once. */
export function replayAll(events: readonly RunEvent[], now: number = Date.now()): RunScreenState {
  return events.reduce((state, event) => reduce(state, event, now), initialRunScreenState());
}

/**
 * What a finished run's banner lists: the warnings of its record (`RunSummary.warnings`,
 * which a reopened run has too; the plan's are shown with the plan), then what the live
 * events said that the record cannot hold: a file not written after it, a sentence. The
 * live flaky and budget flags are the record's assessment warnings by then, and a pool
 * notice the record holds is not listed twice.
 */
export function endedWarnings(summary: RunSummary | null, live: readonly RunWarning[]): RunWarning[] {
  const ownLive = live.filter((w) => !isPlanWarning(w));
  if (!summary) return ownLive;
  const recorded: RunWarning[] = summary.warnings
    .filter((w) => typeof w === "string" || w.source !== "plan")
    .map((warning) => ({ kind: "result", warning }));
  const inRecord = (notice: unknown) =>
    summary.warnings.some(
      (w) => typeof w !== "string" && w.source === "pool" && JSON.stringify(w.notice) === JSON.stringify(notice),
    );
  const after = ownLive.filter((w) => w.kind === "text" || (w.kind === "notice" && !inRecord(w.notice)));
  return [...recorded, ...after];
}

/** Notices about the plan (skipped steps…), which the step path shows before a run. */
export function isPlanWarning(w: RunWarning): boolean {
  return w.kind === "notice" && w.notice.kind === "plan";
}
