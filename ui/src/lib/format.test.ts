import { describe, expect, it } from "vitest";
import { formatCreatedAt, formatDuration, formatSteps, sentence } from "./format";
import { setLocale, tn } from "./i18n/index.svelte";

describe("format", () => {
  it("shows the recorder's local date and time", () => {
    expect(formatCreatedAt("2026-05-14T16:03:54+02:00")).toBe("May 14, 2026, 16:03");
    // The recorder's wall clock, whatever the offset: never shifted to the viewer's zone.
    expect(formatCreatedAt("2026-05-14T23:59:00-11:00")).toBe("May 14, 2026, 23:59");
    expect(formatCreatedAt("")).toBe("unknown date");
    expect(formatCreatedAt("yesterday")).toBe("yesterday");
  });

  it("pluralizes", () => {
    expect(tn("common.steps", 1)).toBe("1 step");
    expect(tn("common.steps", 3)).toBe("3 steps");
    expect(tn("common.steps", 0)).toBe("0 steps");
  });

  it("formats in Simplified Chinese when that is the language", () => {
    setLocale("zh-CN", false);
    expect(formatCreatedAt("2026-05-14T16:03:54+02:00")).toBe("2026年5月14日 16:03");
    expect(formatDuration(1200)).toBe("1.2 秒");
    expect(formatDuration(65_000)).toBe("1 分 05 秒");
    expect(formatSteps([])).toBe("无");
    expect(tn("common.steps", 1)).toBe("1 步");
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
