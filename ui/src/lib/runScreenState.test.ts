import { describe, expect, it } from "vitest";
import { averageAttemptMs, elapsedMs, endedWarnings, initialRunScreenState, reduce, remainingUpToMs } from "./runScreenState";
import type { RunScreenState } from "./runScreenState";
import type { RunNotice } from "./runTypes";
import { events, shot, summary } from "../test/runFixtures";
import { budgetWarning, flakyWarning, warningText, type RunWarning } from "./wording";

function replay(count: number, t0 = 1_000): RunScreenState {
  return events.slice(0, count).reduce((s, e, i) => reduce(s, e, t0 + i * 1000), initialRunScreenState());
}

describe("run state reducer", () => {
  it("records the start: evidence session, plan, budget, device and time", () => {
    const s = replay(2);
    expect(s.evidenceSession).toBe(summary.evidence_session);
    expect(s.planSteps.map((p) => p.index)).toEqual([1, 2, 3, 4]);
    expect(s.maxReplays).toBe(30);
    expect(s.device).toBe("sim-1");
    expect(s.startedAt).toBe(2_000);
    expect(s.warnings.map(warningText)).toEqual([
      "Step 3 is skipped. Its input was redacted when it was recorded; Whittle never replays or guesses it.",
    ]);
  });

  it("adds a running row when an attempt starts and fills it when it finishes", () => {
    const running = replay(3);
    expect(running.rows).toHaveLength(1);
    expect(running.rows[0]).toMatchObject({ attempt: 1, verdict: null, durationMs: null });
    expect(running.candidate).toEqual([2, 4]);
    expect(running.phase).toBe("baseline");

    const done = replay(4);
    expect(done.rows).toHaveLength(1);
    expect(done.rows[0]).toMatchObject({
      attempt: 1,
      verdict: { kind: "reproduced", signature: "51defb0ee406" },
      durationMs: 1200,
      screenshot: shot(1),
    });
    expect(done.attempts).toBe(1);
  });

  it("takes the engine's phase, candidate and attempts from a snapshot", () => {
    const s = replay(5);
    expect(s.phase).toBe("one_by_one");
    expect(s.candidate).toEqual([4]);
    expect(s.current).toEqual([2, 4]);
    expect(s.outcomeHistory).toHaveLength(1);
  });

  it("tells a device failure from a plain negative", () => {
    const s = replay(9);
    expect(s.rows.map((r) => r.verdict?.kind)).toEqual(["reproduced", "not_reproduced", "failed"]);
  });

  it("folds a whole run into rows, averages and the final summary", () => {
    const s = replay(events.length);
    expect(s.rows.map((r) => r.attempt)).toEqual([1, 2, 3, 4]);
    expect(s.summary).toEqual(summary);
    expect(s.current).toEqual([1, 2, 4]);
    expect(s.candidate).toBeNull();
    expect(s.attempts).toBe(4);
    expect(s.endedAt).toBe(1_000 + (events.length - 1) * 1000);
    expect(averageAttemptMs(s)).toBe(1000);
    expect(remainingUpToMs(s)).toBeNull();
    expect(s.rows.map((r) => r.screenshot)).toEqual([shot(1), shot(2), shot(3), shot(4)]);
  });

  it("warns in words once when flakiness or budget exhaustion first shows", () => {
    const s = replay(events.length);
    expect(s.flaky).toBe(true);
    expect(s.warnings.map(warningText).filter((w) => w === flakyWarning())).toHaveLength(1);
    const exhausted = reduce(s, { type: "snapshot", phase: "one_by_one", current: [2], candidate: null, attempts: 30, max_replays: 30, flaky_observed: false, budget_exhausted: true, outcome_history: [] }, 0);
    expect(exhausted.flaky).toBe(true); // latched, never unset by a later snapshot
    expect(exhausted.warnings.map(warningText)).toContain(budgetWarning(30));
  });

  it("estimates the time left as the average attempt times the unused budget", () => {
    const s = replay(7); // attempts 1 and 2 finished: 1200 ms and 800 ms
    expect(s.attempts).toBe(2);
    expect(remainingUpToMs(s)).toBe(1000 * 28);
    expect(elapsedMs(s, 10_000)).toBe(8_000);
    expect(remainingUpToMs(replay(3))).toBeNull();
  });

  it("does not repeat the same warning", () => {
    const once = reduce(initialRunScreenState(), { type: "warning", message: "x" }, 0);
    expect(reduce(once, { type: "warning", message: "x" }, 0).warnings.map(warningText)).toEqual(["x"]);
  });

  it("keeps rows in attempt order even when a finish arrives without its start", () => {
    let s = reduce(initialRunScreenState(), events[5]!, 0); // attempt 2 started
    s = reduce(s, events[3]!, 0); // attempt 1 finished, never seen starting
    expect(s.rows.map((r) => r.attempt)).toEqual([1, 2]);
  });
});

describe("a finished run's banner warnings", () => {
  const smaller: RunNotice = { kind: "pool_smaller", asked: 4, package: "com.example.shop", devices: ["sim-1"] };
  const unwritten: RunNotice = { kind: "file_not_written", file: "report.md", detail: "disk full" };

  it("are its record's, so a reopened run (no live events) shows them too", () => {
    const recorded = {
      ...summary,
      warnings: [
        { source: "assessment", warning: { kind: "flaky", reproduced: 2, total: 3 } },
        { source: "plan", notice: { kind: "legacy_steps", count: 2 } },
        "an older sentence",
      ],
    } as typeof summary;
    const shown = endedWarnings(recorded, []).map(warningText);
    expect(shown).toEqual(["Flaky: 2 of 3 replays reproduced the crash.", "an older sentence"]);
  });

  it("add what the live run said after its record, but never a record's warning twice", () => {
    const recorded = { ...summary, warnings: [{ source: "pool", notice: smaller }] } as typeof summary;
    const live: RunWarning[] = [
      { kind: "flaky" },
      { kind: "notice", notice: smaller },
      { kind: "notice", notice: unwritten },
      { kind: "text", text: "decode-warnings.json not written" },
    ];
    const shown = endedWarnings(recorded, live);
    expect(shown.map((w) => w.kind)).toEqual(["result", "notice", "text"]);
    expect(shown[1]).toEqual({ kind: "notice", notice: unwritten });
  });

  it("are the live ones when the run ended without a record", () => {
    expect(endedWarnings(null, [{ kind: "flaky" }])).toEqual([{ kind: "flaky" }]);
  });
});
