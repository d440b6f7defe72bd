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
