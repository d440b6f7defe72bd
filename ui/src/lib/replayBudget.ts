// The replay budget as a tester types it: one rule for the single run's form and the
// queue's options, so both refuse the same text with the same words.
import { t } from "./i18n/index.svelte";
import type { SearchStrategy } from "../bindings";

const U32_MAX = 4_294_967_295;

/** Why `text` is not a replay budget (an integer >= 1 that fits the backend's u32), or null. */
export function replaysError(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === "") return t("panel.replaysEmpty");
  if (!/^\d+$/.test(trimmed)) return t("panel.replaysNotNumber");
  const n = Number(trimmed);
  if (n < 1) return t("panel.replaysTooFew");
  if (n > U32_MAX) return t("panel.replaysTooMany");
  return null;
}

/** What the chosen search does, and what more baseline tries do when asked for: the
 *  help line under the fields of both forms. */
export function strategyHelp(strategy: SearchStrategy, baselineTries: number): string {
  const what =
    strategy === "seed" ? t("panel.strategySeedHelp") : strategy === "binary" ? t("panel.strategyBinaryHelp") : t("flaky.strategyHelp");
  return baselineTries > 1 ? `${what} ${t("flaky.baselineTriesHelp")}` : what;
}

/** The baseline tries both forms offer (1, the seed's single try, first). */
export const BASELINE_TRIES = [1, 2, 3, 5, 8, 10] as const;
