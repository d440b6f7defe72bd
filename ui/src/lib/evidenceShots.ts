// The pictures of a run as the viewer walks them: attempts with a screenshot and the
// filmstrip frames the review checklist lists, in attempt order (an attempt's screenshot
// before its frames), and which one to compare an attempt with. A comparison is
// meaningful only between related candidates, so the default partner is "the same
// candidate with one step more" — what removing that step changed — never just the
// previous attempt.
import type { AttemptRow } from "./runScreenState";
import type { ReviewChecklist } from "./runTypes";
import { verdictKind, type Verdict } from "./wording";

export type ShotRow = {
  name: string;
  attempt: number;
  candidate: number[];
  verdict: Verdict | "running";
  /** The picture is the screen right before this step's action. */
  beforeStep: number | null;
  /** A filmstrip frame: its place in the strip of `attempt` (1 = after the launch);
   *  null for the attempt's own screenshot. */
  frame: number | null;
  /** The replay stopped here because this step's element was not on screen (the
   *  inspector lists the nodes nearest to it); only on an attempt's own screenshot. */
  notFoundStep: number | null;
};

/** What every part of the viewer is given: the run's evidence session and its
 *  screenshots, with the one the viewer shows (or, for the comparison, compares with). */
export interface ShotContext {
  workspace: string;
  evidenceSession: string;
  shots: ShotRow[];
  shot: ShotRow;
}

/** The attempts of `rows` whose screenshot is archived and not omitted, in attempt order. */
export function shotRows(rows: readonly AttemptRow[], omitted: ReadonlySet<string>): ShotRow[] {
  return rows
    .filter((r) => r.screenshot !== null && !omitted.has(r.screenshot))
    .map((r) => ({ name: r.screenshot!, attempt: r.attempt, candidate: r.candidate,
      verdict: verdictKind(r.verdict),
      beforeStep: r.screenshotBeforeStep,
      frame: null,
      notFoundStep:
        r.verdict?.kind === "not_reproduced" && r.verdict.reason === "element_not_found" ? r.verdict.step : null,
    }))
    .sort((a, b) => a.attempt - b.attempt);
}

/** Attempt order, an attempt's screenshot before its frames (as the checklist lists them). */
function pictureOrder(a: ShotRow, b: ShotRow): number {
  return a.attempt - b.attempt || (a.frame ?? 0) - (b.frame ?? 0);
}

/**
 * Every picture the reviewer walks, masks and checks: the attempts' screenshots of
 * `rows` and the filmstrip frames on `checklist` that are still kept. A frame shows the
 * steps and verdict of the replay that took it.
 */
export function viewerShots(
  rows: readonly AttemptRow[],
  checklist: ReviewChecklist | null,
  omitted: ReadonlySet<string>,
): ShotRow[] {
  const frames = (checklist?.shots ?? [])
    .filter((s) => typeof s.frame === "number" && !s.omitted && !omitted.has(s.name))
    .map((s): ShotRow => {
      const row = rows.find((r) => r.attempt === s.attempt);
      return {
        name: s.name,
        attempt: s.attempt,
        candidate: row?.candidate ?? [],
        verdict: verdictKind(row?.verdict ?? null),
        beforeStep: null,
        frame: s.frame,
        notFoundStep: null,
      };
    });
  return [...shotRows(rows, omitted), ...frames].sort(pictureOrder);
}

/** The shot `step` places away from `name` (-1 previous, +1 next), if there is one. */
export function neighbour(shots: readonly ShotRow[], name: string, step: -1 | 1): ShotRow | null {
  const at = shots.findIndex((s) => s.name === name);
  if (at < 0) return null;
  return shots[at + step] ?? null;
}

/** Steps in `b` that are not in `a`, ascending. */
export function extraSteps(a: readonly number[], b: readonly number[]): number[] {
  const have = new Set(a);
  return [...new Set(b)].filter((s) => !have.has(s)).sort((x, y) => x - y);
}

function isSuperset(big: readonly number[], small: readonly number[]): boolean {
  const have = new Set(big);
  return small.every((s) => have.has(s));
}

/**
 * The default partner of `shot` for Compare: an attempt whose candidate is this one plus
 * exactly one step; else the closest superset (fewest extra steps). Ties go to the
 * attempt nearest in number (the earlier one on an exact tie). Null when no attempt with
 * a screenshot replayed a superset: then nothing is related enough to be a default.
 * A filmstrip frame is never the default: it is a moment inside a replay.
 */
export function comparePartner(shots: readonly ShotRow[], shot: ShotRow): ShotRow | null {
  let best: { row: ShotRow; extra: number; distance: number } | null = null;
  for (const row of shots) {
    if (row.name === shot.name || row.frame !== null) continue;
    const extra = extraSteps(shot.candidate, row.candidate).length;
    if (extra === 0 || !isSuperset(row.candidate, shot.candidate)) continue;
    const distance = Math.abs(row.attempt - shot.attempt);
    const better =
      !best ||
      extra < best.extra ||
      (extra === best.extra && distance < best.distance) ||
      (extra === best.extra && distance === best.distance && row.attempt < best.row.attempt);
    if (better) best = { row, extra, distance };
  }
  return best?.row ?? null;
}

/** The first picture of `checklist` nobody has checked yet (an omitted one counts as
 *  checked), in the checklist's order; `null` when every one is. */
export function firstUnchecked(checklist: ReviewChecklist | null): string | null {
  return checklist?.shots.find((shot) => !shot.reviewed && !shot.omitted)?.name ?? null;
}
