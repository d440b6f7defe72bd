// Display helpers. Kept free of the clock and locale so what a test sees is what a user sees.

const RFC3339 = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/;

/** `2026-05-14T16:03:54+02:00` → `2026-05-14 16:03` (the recorder's own local time). */
export function formatCreatedAt(createdAt: string): string {
  const m = RFC3339.exec(createdAt);
  if (m) return `${m[1]} ${m[2]}`;
  return createdAt.trim() === "" ? "unknown date" : createdAt;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** `1200` → `1.2 s`, `65000` → `1 min 05 s`, `3723000` → `1 h 02 min`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "—";
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`;
  const totalSeconds = Math.round(ms / 1000);
  if (totalSeconds < 60) return `${totalSeconds} s`;
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  if (minutes < 60) return `${minutes} min ${String(seconds).padStart(2, "0")} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

/** Step indexes as compact ranges: `[1,2,3,5,7,8]` → `1–3, 5, 7–8`; empty → `none`. */
export function formatSteps(steps: readonly number[]): string {
  if (steps.length === 0) return "none";
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
