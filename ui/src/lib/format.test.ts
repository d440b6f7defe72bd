import { describe, expect, it } from "vitest";
import { formatCreatedAt, formatDuration, formatSteps, plural, sentence } from "./format";

describe("format", () => {
  it("shows the recorder's local date and time", () => {
    expect(formatCreatedAt("2026-05-14T16:03:54+02:00")).toBe("2026-05-14 16:03");
    expect(formatCreatedAt("")).toBe("unknown date");
  });

  it("pluralizes", () => {
    expect(plural(1, "step")).toBe("1 step");
    expect(plural(3, "step")).toBe("3 steps");
  });

  it("formats durations at a readable precision", () => {
    expect(formatDuration(1200)).toBe("1.2 s");
    expect(formatDuration(42_000)).toBe("42 s");
    expect(formatDuration(65_000)).toBe("1 min 05 s");
    expect(formatDuration(3_723_000)).toBe("1 h 02 min");
    expect(formatDuration(-1)).toBe("—");
  });

  it("compacts step lists into ranges", () => {
    expect(formatSteps([8, 1, 2, 3, 5, 7])).toBe("1–3, 5, 7–8");
    expect(formatSteps([4])).toBe("4");
    expect(formatSteps([])).toBe("none");
  });

  it("makes a backend message a sentence of its own", () => {
    expect(sentence("the run cannot start: no device")).toBe("The run cannot start: no device");
    expect(sentence("")).toBe("");
  });
});
