// How the viewer names a picture: an attempt's screenshot or a filmstrip frame, the
// steps the attempt replayed (after launch) and its verdict, in the window's language.
import type { ShotRow } from "./evidenceShots";
import { formatSteps } from "./format";
import { t, tn } from "./i18n/index.svelte";
import { verdictWords } from "./wording";

export function describeShot(s: ShotRow): { attempt: number; steps: string; verdict: string } {
  return {
    attempt: s.attempt,
    steps: s.candidate.length === 0 ? t("history.launchOnly") : formatSteps(s.candidate),
    verdict:
      s.beforeStep === null
        ? verdictWords[s.verdict]
        : t("viewer.beforeStep", { verdict: verdictWords[s.verdict], step: s.beforeStep }),
  };
}

/** The viewer's title for a picture: "Screenshot of attempt 7", "Filmstrip frame 2 of attempt 7". */
export function pictureTitle(s: Pick<ShotRow, "attempt" | "frame">): string {
  return s.frame === null
    ? t("viewer.title", { attempt: s.attempt })
    : t("viewer.frameTitle", { attempt: s.attempt, frame: s.frame });
}

/** Which pictures "Apply to all" changes: "attempts 1–4; 5 filmstrip frames (attempt 4)". */
export function allPictures(shots: readonly ShotRow[]): string {
  const attempts = (frames: boolean) => [
    ...new Set(shots.filter((s) => (s.frame !== null) === frames).map((s) => s.attempt)),
  ];
  const frames = shots.filter((s) => s.frame !== null).length;
  return [
    ...(attempts(false).length > 0 ? [t("viewer.whichAttempts", { attempts: formatSteps(attempts(false)) })] : []),
    ...(frames > 0 ? [tn("viewer.whichFrames", frames, { attempts: formatSteps(attempts(true)) })] : []),
  ].join(t("viewer.whichJoin"));
}
