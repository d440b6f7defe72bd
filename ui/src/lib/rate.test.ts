import { describe, expect, it } from "vitest";
import { percentBounds, rateOf, wilson } from "./rate";

describe("wilson", () => {
  it("matches the published values the Rust function is tested with", () => {
    // Newcombe (1998), table I, method 3.
    for (const [k, n, low, high] of [
      [81, 263, 0.2553, 0.3662],
      [15, 148, 0.0624, 0.1605],
      [0, 20, 0, 0.1611],
      [1, 29, 0.0061, 0.1718],
    ] as const) {
      const r = wilson(k, n);
      expect(r.low).toBeCloseTo(low, 4);
      expect(r.high).toBeCloseTo(high, 4);
    }
    expect(wilson(40, 100).low).toBeCloseTo(0.3094, 4);
    expect(wilson(0, 1).high).toBeCloseTo(0.79345, 5);
  });

  it("rounds outwards and handles the edges", () => {
    expect(percentBounds(rateOf([true, true, true]))).toEqual([43, 100]);
    expect(percentBounds(rateOf([false, false, false]))).toEqual([0, 57]);
    expect(rateOf([])).toEqual({ reproduced: 0, total: 0, low: 0, high: 1 });
    expect(wilson(9, 3)).toEqual(wilson(3, 3));
  });
});
