import { describe, expect, it } from "vitest";
import { effectiveScale, zoomIn, zoomOut, zoomPercent, ZOOM_STEPS } from "./zoom";

describe("viewer zoom", () => {
  it("steps up and down from the scale Fit showed", () => {
    // A 1080×2400 screenshot fitted into 600 px of height shows at 0.25.
    expect(zoomIn(null, 0.25)).toBe(0.33);
    expect(zoomOut(null, 0.25)).toBe(0.2);
    expect(zoomIn(null, 0.3)).toBe(0.33);
    expect(zoomOut(null, 0.3)).toBe(0.25);
  });

  it("goes through 100 % and stays within its bounds", () => {
    expect(zoomIn(0.75, 0)).toBe(1);
    expect(zoomIn(0.999, 0)).toBe(1.25);
    expect(zoomOut(1, 0)).toBe(0.75);
    expect(zoomIn(4, 0)).toBe(4);
    expect(zoomOut(0.1, 0)).toBe(0.1);
    let z = 0.1;
    for (let i = 0; i < ZOOM_STEPS.length + 2; i++) z = zoomIn(z, 0);
    expect(z).toBe(4);
  });

  it("names the zoom for people", () => {
    expect(zoomPercent(null)).toBeNull();
    expect(zoomPercent(1)).toBe(100);
    expect(zoomPercent(0.33)).toBe(33);
    expect(effectiveScale(null, 0)).toBe(1);
    expect(effectiveScale(2, 0.3)).toBe(2);
  });
});
