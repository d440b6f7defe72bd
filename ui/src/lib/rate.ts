// How often a candidate reproduced, with its 95 % Wilson score interval: the window's
// twin of `whittle_core::rate` (crates/whittle-core/src/rate.rs), computed from the
// verdicts the proof table already has, so no new field crosses the IPC boundary.
// Tested against the same published values as the Rust function.

/** z of a two-sided 95 % interval. */
const Z95 = 1.959963984540054;

export interface Rate {
  reproduced: number;
  total: number;
  /** Bounds as fractions in [0, 1]. */
  low: number;
  high: number;
}

/** The Wilson score interval of `k` of `n` (0 of 0 is [0, 1]). */
export function wilson(k: number, n: number, z: number = Z95): Rate {
  if (n <= 0) return { reproduced: 0, total: 0, low: 0, high: 1 };
  const hits = Math.min(Math.max(k, 0), n);
  const p = hits / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  return { reproduced: hits, total: n, low: Math.max(0, center - half), high: Math.min(1, center + half) };
}

/** The rate of a candidate's verdicts (`true` = reproduced). */
export function rateOf(outcomes: readonly boolean[]): Rate {
  return wilson(outcomes.filter(Boolean).length, outcomes.length);
}

/** Whole percents, rounded outwards so the shown interval is never narrower. */
export function percentBounds(rate: Rate): [number, number] {
  const clamp = (x: number) => Math.min(100, Math.max(0, x * 100));
  return [Math.floor(clamp(rate.low - 1e-9)), Math.ceil(clamp(rate.high + 1e-9))];
}
