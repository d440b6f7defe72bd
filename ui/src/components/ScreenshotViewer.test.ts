import { fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { describe, expect, it, vi } from "vitest";
import ScreenshotViewer from "./ScreenshotViewer.svelte";
import { commandCalls, fail, fakeBackend } from "../test/ipc";
import { autoMask, screenshotView, shot } from "../test/runFixtures";
import { layOut } from "../test/layout";

const evidenceSession = "2026-05-20_101500_minimize-checkout-npe";

function open(overrides: Record<string, unknown> = {}) {
  const onclose = vi.fn();
  const onomitted = vi.fn();
  render(ScreenshotViewer, {
    workspace: "/ws",
    evidenceSession,
    shot: { name: shot(3), attempt: 3 },
    previous: { name: shot(1), attempt: 1 },
    allScreenshots: [shot(1), shot(3), shot(4)],
    onclose,
    onomitted,
    ...overrides,
  });
  return { onclose, onomitted };
}

async function drawMask() {
  const svg = await screen.findByTestId("mask-canvas");
  layOut(svg);
  await fireEvent.pointerDown(svg, { clientX: 150, clientY: 100, button: 0 });
  await fireEvent.pointerMove(svg, { clientX: 250, clientY: 150 });
  await fireEvent.pointerUp(svg, { clientX: 250, clientY: 150 });
}

describe("ScreenshotViewer", () => {
  it("loads the archived screenshot and explains masking", async () => {
    const calls = fakeBackend({ screenshot_image: (a) => screenshotView(a.name as string) });
    open();
    expect(await screen.findByRole("img", { name: "Screenshot of attempt 3" })).toBeInTheDocument();
    expect(screen.getByTestId("screenshot-viewer")).toHaveTextContent(
      "Masks are burned into the saved image; the unmasked image is never kept.",
    );
    expect(commandCalls(calls, "screenshot_image")).toEqual([{ workspace: "/ws", evidenceSession, name: shot(3) }]);
    expect(screen.getByTestId("mask-apply-one")).toBeDisabled();
  });

  it("applies drawn masks to this screenshot with the chosen style, then shows them burned in", async () => {
    const drawn = { x: 100, y: 100, w: 200, h: 100, reason: "added by reviewer" };
    let burned = false;
    const calls = fakeBackend({
      screenshot_image: (a) => screenshotView(a.name as string, burned ? [autoMask, drawn] : [autoMask]),
      apply_masks: () => {
        burned = true;
        return 1;
      },
    });
    open();
    await drawMask();
    await fireEvent.change(screen.getByTestId("mask-style"), { target: { value: "pixelate" } });
    await fireEvent.click(screen.getByTestId("mask-apply-one"));
    expect(await screen.findByRole("status")).toHaveTextContent("Masks burned into 1 screenshot.");
    expect(commandCalls(calls, "apply_masks")).toEqual([
      {
        request: {
          workspace: "/ws",
          evidence_session: evidenceSession,
          screenshots: [shot(3)],
          rects: [drawn],
          style: "pixelate",
        },
      },
    ]);
    await waitFor(() => expect(document.querySelectorAll("[data-auto-mask]")).toHaveLength(2));
    expect(document.querySelectorAll("[data-rect-index]")).toHaveLength(0);
  });

  it("applies to every screenshot of the run", async () => {
    const calls = fakeBackend({ screenshot_image: (a) => screenshotView(a.name as string), apply_masks: () => 3 });
    open();
    await drawMask();
    await fireEvent.click(screen.getByTestId("mask-apply-all"));
    expect(await screen.findByRole("status")).toHaveTextContent("Masks burned into 3 screenshots.");
    const [args] = commandCalls(calls, "apply_masks");
    expect((args!.request as { screenshots: string[] }).screenshots).toEqual([shot(1), shot(3), shot(4)]);
  });

  it("removes the selected mask with Delete, nudges it with arrows and closes on Escape", async () => {
    fakeBackend({ screenshot_image: (a) => screenshotView(a.name as string) });
    const { onclose } = open();
    await drawMask();
    const dialog = screen.getByTestId("screenshot-viewer");
    await fireEvent.keyDown(dialog, { key: "ArrowRight", shiftKey: true });
    await fireEvent.keyDown(dialog, { key: "ArrowUp" });
    expect(screen.getByRole("button", { name: "Mask 1: 200×100 at 110, 99" })).toBeInTheDocument();
    await fireEvent.keyDown(dialog, { key: "Delete" });
    expect(document.querySelectorAll("[data-rect-index]")).toHaveLength(0);
    expect(onclose).not.toHaveBeenCalled();
    await fireEvent.keyDown(dialog, { key: "Escape" });
    expect(onclose).toHaveBeenCalledOnce();
  });

  it("adds a mask from the keyboard", async () => {
    fakeBackend({ screenshot_image: (a) => screenshotView(a.name as string) });
    open();
    await fireEvent.click(await screen.findByRole("button", { name: "Add a mask" }));
    expect(document.querySelectorAll("[data-rect-index]")).toHaveLength(1);
    expect(screen.getByTestId("mask-apply-one")).toBeEnabled();
  });

  it("omits the screenshot only after confirmation", async () => {
    const calls = fakeBackend({ screenshot_image: (a) => screenshotView(a.name as string), omit_screenshot: () => null });
    const { onomitted } = open();
    await fireEvent.click(await screen.findByTestId("omit-screenshot"));
    expect(commandCalls(calls, "omit_screenshot")).toEqual([]);
    await fireEvent.click(screen.getByTestId("omit-confirm"));
    await waitFor(() => expect(onomitted).toHaveBeenCalledWith(shot(3)));
    expect(commandCalls(calls, "omit_screenshot")).toEqual([{ workspace: "/ws", evidenceSession, name: shot(3) }]);
  });

  it("compares with the previous attempt's screenshot side by side", async () => {
    const calls = fakeBackend({ screenshot_image: (a) => screenshotView(a.name as string) });
    open();
    await fireEvent.click(await screen.findByRole("button", { name: "Compare with attempt 1" }));
    expect(await screen.findByRole("img", { name: "Screenshot of attempt 1" })).toBeInTheDocument();
    expect(screen.getByText("Before: attempt 1")).toBeInTheDocument();
    expect(screen.getByText("After: attempt 3")).toBeInTheDocument();
    expect(commandCalls(calls, "screenshot_image").map((a) => a.name)).toEqual([shot(3), shot(1)]);
  });

  it("shows a load failure in place with a way to retry", async () => {
    fakeBackend({ screenshot_image: () => fail("screenshot_unavailable", "the screenshot cannot be used: gone") });
    open({ previous: null });
    expect(await screen.findByRole("alert")).toHaveTextContent("gone");
    expect(screen.getByRole("button", { name: "Try again" })).toBeInTheDocument();
  });
});
