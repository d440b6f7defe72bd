// Display helpers, in the window's locale (numbers and dates through Intl). Kept free of
// the clock so what a test sees is what a user sees.
import { formatNumber, formatWallClock, t } from "./i18n/index.svelte";

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/;

/**
 * `2026-05-14T16:03:54+02:00` → `May 14, 2026, 16:03` / `2026年5月14日 16:03`: the
 * recorder's own local time, never shifted to the viewer's time zone.
 */
export function formatCreatedAt(createdAt: string): string {
  const m = RFC3339.exec(createdAt);
  if (m) {
    const [year, month, day, hour, minute] = m.slice(1).map(Number) as [number, number, number, number, number];
    if (month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59) {
      return formatWallClock(year, month, day, hour, minute);
    }
  }
  return createdAt.trim() === "" ? t("common.unknownDate") : createdAt;
}

const pad2 = (n: number) => formatNumber(n, { minimumIntegerDigits: 2, useGrouping: false });

/** `1200` → `1.2 s`, `65000` → `1 min 05 s`, `3723000` → `1 h 02 min` (units in the locale). */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "—";
  if (ms < 10_000) {
    const seconds = formatNumber(ms / 1000, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    return t("duration.seconds", { seconds });
  }
  const totalSeconds = Math.round(ms / 1000);
  if (totalSeconds < 60) return t("duration.seconds", { seconds: totalSeconds });
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  if (minutes < 60) return t("duration.minutes", { minutes, seconds: pad2(seconds) });
  return t("duration.hours", { hours: Math.floor(minutes / 60), minutes: pad2(minutes % 60) });
}

/** Step indexes as compact ranges: `[1,2,3,5,7,8]` → `1–3, 5, 7–8`; empty → `none`. */
export function formatSteps(steps: readonly number[]): string {
  if (steps.length === 0) return t("common.none");
  const sorted = [...steps].sort((a, b) => a - b);
  const parts: string[] = [];
  let start = sorted[0]!;
  let prev = start;
  for (const n of sorted.slice(1)) {
    if (n === prev + 1) {
      prev = n;
      continue;
    }
    parts.push(start === prev ? `${start}` : `${start}–${prev}`);
    start = prev = n;
  }
  parts.push(start === prev ? `${start}` : `${start}–${prev}`);
  return parts.join(", ");
}

/** Backend messages start lower-case (they are built to follow a prefix); as a sentence on its own: */
export function sentence(message: string): string {
  return message.charAt(0).toUpperCase() + message.slice(1);
}
