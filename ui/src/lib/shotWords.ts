// How the viewer names an attempt's screenshot: its number, the steps it replayed (after
// launch) and its verdict, in the window's language.
import type { ShotRow } from "./evidenceShots";
import { formatSteps } from "./format";
import { t } from "./i18n/index.svelte";
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
