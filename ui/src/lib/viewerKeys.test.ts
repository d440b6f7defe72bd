import { describe, expect, it } from "vitest";
import { viewerKey } from "./viewerKeys";

const key = (k: string, mods: Partial<{ shiftKey: boolean; altKey: boolean; ctrlKey: boolean; metaKey: boolean }> = {}) => ({
  key: k,
  shiftKey: false,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  ...mods,
});

describe("viewer keys", () => {
  it("walk the screenshots with ←/→ when no mask is selected, and move the mask when one is", () => {
    expect(viewerKey(key("ArrowLeft"), false)).toEqual({ kind: "walk", step: -1 });
    expect(viewerKey(key("ArrowRight"), false)).toEqual({ kind: "walk", step: 1 });
    expect(viewerKey(key("ArrowRight"), true)).toEqual({ kind: "nudge", dx: 1, dy: 0, resize: false });
    expect(viewerKey(key("ArrowUp", { shiftKey: true }), true)).toEqual({ kind: "nudge", dx: 0, dy: -10, resize: false });
    expect(viewerKey(key("ArrowDown", { altKey: true }), true)).toEqual({ kind: "nudge", dx: 0, dy: 1, resize: true });
    expect(viewerKey(key("ArrowUp"), false)).toBeNull();
  });

  it("zoom with + − 0 1 and leave Ctrl combinations to the system", () => {
    expect(viewerKey(key("+"), false)).toEqual({ kind: "zoom", to: "in" });
    expect(viewerKey(key("="), true)).toEqual({ kind: "zoom", to: "in" });
    expect(viewerKey(key("-"), false)).toEqual({ kind: "zoom", to: "out" });
    expect(viewerKey(key("0"), false)).toEqual({ kind: "zoom", to: "fit" });
    expect(viewerKey(key("1"), false)).toEqual({ kind: "zoom", to: "actual" });
    expect(viewerKey(key("+", { ctrlKey: true }), false)).toBeNull();
  });

  it("delete only a selected mask", () => {
    expect(viewerKey(key("Delete"), true)).toEqual({ kind: "delete" });
    expect(viewerKey(key("Backspace"), true)).toEqual({ kind: "delete" });
    expect(viewerKey(key("Delete"), false)).toBeNull();
  });
});
