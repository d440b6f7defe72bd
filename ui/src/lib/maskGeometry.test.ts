import { describe, expect, it } from "vitest";
import { centeredRect, isUsable, moveRect, rectFromDrag, resizeRect, toImagePoint, USER_REASON } from "./maskGeometry";

const image = { width: 1080, height: 1920 };

describe("mask geometry", () => {
  it("maps a pointer on a half-size display to image pixels", () => {
    const box = { left: 100, top: 50, width: 540, height: 960 };
    expect(toImagePoint(100 + 270, 50 + 480, box, image)).toEqual({ x: 540, y: 960 });
    expect(toImagePoint(0, 0, box, image)).toEqual({ x: 0, y: 0 }); // clamped
    expect(toImagePoint(10_000, 10_000, box, image)).toEqual({ x: 1080, y: 1920 });
  });

  it("spans a drag in either direction", () => {
    expect(rectFromDrag({ x: 200, y: 300 }, { x: 100, y: 100 })).toEqual({ x: 100, y: 100, w: 100, h: 200, reason: USER_REASON });
    expect(isUsable(rectFromDrag({ x: 1, y: 1 }, { x: 3, y: 40 }))).toBe(false);
  });

  it("moves and resizes within the image", () => {
    const r = { x: 1000, y: 10, w: 60, h: 20, reason: "r" };
    expect(moveRect(r, 50, -50, image)).toMatchObject({ x: 1020, y: 0 });
    expect(resizeRect(r, 500, -100, image)).toMatchObject({ w: 80, h: 4 });
  });

  it("starts a keyboard-added mask in the middle", () => {
    const r = centeredRect(image);
    expect(r.x + r.w / 2).toBe(540);
    expect(r.y + r.h / 2).toBe(960);
  });
});
