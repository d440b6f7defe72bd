import { describe, expect, it } from "vitest";
import { resultJump } from "./resultKeys";

const key = (k: string, code: string, mods: Partial<{ shiftKey: boolean; altKey: boolean; ctrlKey: boolean; metaKey: boolean }> = {}) => ({
  key: k,
  code,
  shiftKey: false,
  altKey: true,
  ctrlKey: false,
  metaKey: false,
  ...mods,
});

describe("result keys", () => {
  it("go to Approve with Alt+A and to Export with Alt+E, by the key or its place", () => {
    expect(resultJump(key("a", "KeyA"))).toBe("approve");
    expect(resultJump(key("å", "KeyA"))).toBe("approve");
    expect(resultJump(key("e", "KeyE"))).toBe("export");
    expect(resultJump(key("E", "KeyE"))).toBe("export");
  });

  it("leave the letters alone without Alt, and Ctrl, Cmd or Shift combinations to the system", () => {
    expect(resultJump(key("a", "KeyA", { altKey: false }))).toBeNull();
    expect(resultJump(key("a", "KeyA", { ctrlKey: true }))).toBeNull();
    expect(resultJump(key("a", "KeyA", { metaKey: true }))).toBeNull();
    expect(resultJump(key("A", "KeyA", { shiftKey: true }))).toBeNull();
    expect(resultJump(key("x", "KeyX"))).toBeNull();
  });
});
