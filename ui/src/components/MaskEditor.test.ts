import { fireEvent, render, screen } from "@testing-library/svelte";
import { describe, expect, it } from "vitest";
import MaskEditor from "./MaskEditor.svelte";
import { screenshotView } from "../test/runFixtures";
import { layOut } from "../test/layout";

const userRects = (root: ParentNode) =>
  [...root.querySelectorAll("[data-rect-index]")].map((r) => ["x", "y", "width", "height"].map((a) => Number(r.getAttribute(a))));

describe("MaskEditor", () => {
  it("outlines the automatic masks with their reason", () => {
    const { container } = render(MaskEditor, { image: screenshotView("a.png"), label: "Attempt 1" });
    const auto = container.querySelector("[data-auto-mask]")!;
    expect(auto.getAttribute("width")).toBe("1000");
    expect(auto).toHaveAttribute("aria-description", "Masked automatically: password field");
    expect(screen.getByRole("img", { name: "Attempt 1" })).toHaveAttribute("src", "data:image/png;base64,iVBORw0KGgo=");
  });

  it("draws a rectangle by dragging, in image pixels", async () => {
    const { container } = render(MaskEditor, { image: screenshotView("a.png"), label: "Attempt 1" });
    const svg = screen.getByTestId("mask-canvas");
    layOut(svg);
    await fireEvent.pointerDown(svg, { clientX: 150, clientY: 100, button: 0, pointerId: 1 });
    await fireEvent.pointerMove(svg, { clientX: 250, clientY: 150, pointerId: 1 });
    expect(container.querySelector(".draft")).not.toBeNull();
    await fireEvent.pointerUp(svg, { clientX: 250, clientY: 150, pointerId: 1 });
    expect(container.querySelector(".draft")).toBeNull();
    expect(userRects(container)).toEqual([[100, 100, 200, 100]]);
    // The new rectangle is selected: it has a resize handle.
    expect(container.querySelector("[data-handle-index='0']")).not.toBeNull();
  });

  it("moves a rectangle by dragging inside it and resizes it by its corner", async () => {
    const { container } = render(MaskEditor, {
      image: screenshotView("a.png"),
      label: "Attempt 1",
      rects: [{ x: 100, y: 100, w: 200, h: 100, reason: "added by reviewer" }],
      selected: 0,
    });
    const svg = screen.getByTestId("mask-canvas");
    layOut(svg);
    const body = container.querySelector("[data-rect-index='0']")!;
    await fireEvent.pointerDown(body, { clientX: 200, clientY: 120, button: 0 });
    await fireEvent.pointerMove(svg, { clientX: 210, clientY: 145 });
    await fireEvent.pointerUp(svg, { clientX: 210, clientY: 145 });
    expect(userRects(container)).toEqual([[120, 150, 200, 100]]);

    const handle = container.querySelector("[data-handle-index='0']")!;
    await fireEvent.pointerDown(handle, { clientX: 260, clientY: 175, button: 0 });
    await fireEvent.pointerMove(svg, { clientX: 310, clientY: 185 });
    await fireEvent.pointerUp(svg, { clientX: 310, clientY: 185 });
    expect(userRects(container)).toEqual([[120, 150, 300, 120]]);
  });

  it("ignores a click that is too small to be a mask", async () => {
    const { container } = render(MaskEditor, { image: screenshotView("a.png"), label: "A" });
    const svg = screen.getByTestId("mask-canvas");
    layOut(svg);
    await fireEvent.pointerDown(svg, { clientX: 150, clientY: 100, button: 0 });
    await fireEvent.pointerUp(svg, { clientX: 151, clientY: 100 });
    expect(userRects(container)).toEqual([]);
  });

  it("draws nothing on a read-only comparison copy", async () => {
    const { container } = render(MaskEditor, { image: screenshotView("a.png"), label: "A", readonly: true });
    const svg = screen.getByTestId("mask-canvas");
    layOut(svg);
    await fireEvent.pointerDown(svg, { clientX: 150, clientY: 100, button: 0 });
    await fireEvent.pointerMove(svg, { clientX: 250, clientY: 150 });
    await fireEvent.pointerUp(svg, { clientX: 250, clientY: 150 });
    expect(userRects(container)).toEqual([]);
  });
});
