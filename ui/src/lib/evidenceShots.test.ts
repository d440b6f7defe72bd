import { describe, expect, it } from "vitest";
import { comparePartner, extraSteps, neighbour, shotRows, viewerShots, type ShotRow } from "./evidenceShots";
import type { AttemptRow } from "./runScreenState";

const row = (attempt: number, candidate: number[], verdict: ShotRow["verdict"] = "not_reproduced"): ShotRow => ({
  name: `screenshots/attempt-${String(attempt).padStart(3, "0")}.png`,
  attempt,
  candidate,
  verdict,
  beforeStep: null,
  frame: null,
  notFoundStep: null,
});

// A real ddmin-shaped history: baseline, two halves, single deletions, confirmation.
const shots: ShotRow[] = [
  row(1, [2, 3, 4, 5, 6, 7], "reproduced"),
  row(2, [2, 3, 4]),
  row(3, [5, 6, 7], "reproduced"),
  row(4, [6, 7]),
  row(5, [5, 7], "reproduced"),
  row(6, [5]),
  row(7, [7]),
  row(8, [5, 7], "reproduced"),
];

describe("comparePartner", () => {
  it("prefers the same candidate with exactly one step more", () => {
    expect(comparePartner(shots, shots[5]!)?.attempt).toBe(5); // [5] vs [5,7]: what 7 did
    expect(comparePartner(shots, shots[3]!)?.attempt).toBe(3); // [6,7] vs [5,6,7]
    expect(comparePartner(shots, shots[4]!)?.attempt).toBe(3); // [5,7] vs [5,6,7]
  });

  it("falls back to the closest superset, then the nearest attempt", () => {
    expect(comparePartner(shots, shots[1]!)?.attempt).toBe(1); // [2,3,4] only in the baseline
    // [7] has two one-step-more supersets (attempts 4, 5 and 8): the nearest wins.
    expect(comparePartner(shots, shots[6]!)?.attempt).toBe(8);
  });

  it("never pairs unrelated attempts", () => {
    expect(comparePartner(shots, shots[0]!)).toBeNull(); // nothing replayed more than the baseline
    const unrelated = [row(1, [1, 2]), row(2, [3])];
    expect(comparePartner(unrelated, unrelated[1]!)).toBeNull();
  });

  it("does not pick an identical candidate (a repeat proves nothing new)", () => {
    expect(comparePartner(shots, shots[7]!)?.attempt).toBe(3); // [5,7] again: not attempt 5
  });
});

describe("walking the screenshots", () => {
  it("goes to the previous and next attempt that has a screenshot", () => {
    expect(neighbour(shots, shots[0]!.name, -1)).toBeNull();
    expect(neighbour(shots, shots[0]!.name, 1)?.attempt).toBe(2);
    expect(neighbour(shots, shots[7]!.name, 1)).toBeNull();
    expect(neighbour(shots, "screenshots/attempt-999.png", 1)).toBeNull();
  });

  it("lists only archived, kept screenshots in attempt order", () => {
    const listed = shotRows(attemptRows(), new Set(["screenshots/attempt-002.png"]));
    expect(listed.map((s) => s.attempt)).toEqual([1, 3]);
  });

  it("walks the filmstrip frames after their attempt's screenshot, with its steps and verdict", () => {
    const frame = (n: number, omitted = false) => ({
      name: `filmstrip/attempt-003/step-0${n}.png`,
      attempt: 3,
      frame: n,
      reviewed: false,
      omitted,
    });
    const checklist = {
      shots: [
        { name: "screenshots/attempt-001.png", attempt: 1, frame: null, reviewed: false, omitted: false },
        frame(1),
        frame(2, true),
        frame(3),
        frame(4),
      ],
      summary: { total: 5, reviewed: 1, omitted: 1, not_reviewed: [1], not_reviewed_frames: [] },
    };
    const listed = viewerShots(attemptRows(), checklist, new Set(["filmstrip/attempt-003/step-04.png"]));
    expect(listed.map((s) => [s.attempt, s.frame])).toEqual([
      [1, null],
      [2, null],
      [3, null],
      [3, 1],
      [3, 3],
    ]);
    expect(listed[3]).toMatchObject({ candidate: [3], verdict: "not_reproduced" });
    // A frame is never the default partner: it is not the screen a replay ended on.
    const withFrames = [row(1, [5, 7], "reproduced"), { ...row(2, [5, 7]), name: "f", frame: 1 }, row(3, [5])];
    expect(comparePartner(withFrames, withFrames[2]!)?.attempt).toBe(1);
  });

  it("names the steps one candidate has over another", () => {
    expect(extraSteps([5], [5, 7])).toEqual([7]);
    expect(extraSteps([2, 3], [4, 2, 3, 1])).toEqual([1, 4]);
  });
});

/** Attempts 1–4; all but 4 kept a screenshot. */
function attemptRows(): AttemptRow[] {
  return [3, 1, 2, 4].map(
    (attempt) =>
      ({
        attempt,
        phase: "bisect",
        candidate: [attempt],
        verdict: { kind: "not_reproduced", reason: "no_crash", step: null },
        observed: [],
        durationMs: 1,
        screenshot: attempt === 4 ? null : `screenshots/attempt-00${attempt}.png`,
        screenshotRedacted: attempt === 4,
        screenshotBeforeStep: null,
        device: null,
      }) satisfies AttemptRow,
  );
}
