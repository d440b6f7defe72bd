import { fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import { describe, expect, it, vi } from "vitest";
import ScreenshotViewer from "./ScreenshotViewer.svelte";
import { commandCalls, fail, fakeBackend, type Handlers } from "../test/ipc";
import { autoMask, frame, screenshotView, shot } from "../test/runFixtures";
import { layOut } from "../test/layout";
import type { ShotRow } from "../lib/evidenceShots";
import type { ReviewChecklist } from "../lib/runTypes";

const evidenceSession = "2026-05-20_101500_minimize-checkout-npe";

// A bisect history: 1 baseline, 2 and 3 halves, 4 one step fewer than 3.
const shots: ShotRow[] = [
  { name: shot(1), attempt: 1, candidate: [2, 3, 4, 5], verdict: "reproduced", beforeStep: null, frame: null, notFoundStep: null },
  { name: shot(2), attempt: 2, candidate: [2, 3], verdict: "not_reproduced", beforeStep: null, frame: null, notFoundStep: null },
  { name: shot(3), attempt: 3, candidate: [4, 5], verdict: "reproduced", beforeStep: null, frame: null, notFoundStep: null },
  { name: shot(4), attempt: 4, candidate: [5], verdict: "not_reproduced", beforeStep: null, frame: null, notFoundStep: null },
];

const patch = { x: 100, y: 100, w: 200, h: 100, data_url: "data:image/png;base64,UFJFVklFVw==" };

function backend(extra: Handlers = {}) {
  return fakeBackend({
    screenshot_image: (a) => screenshotView(a.name as string),
    preview_masks: () => [patch],
    ...extra,
  });
}

function open(overrides: Record<string, unknown> = {}) {
  const onclose = vi.fn();
  const onomitted = vi.fn();
  const onapplied = vi.fn();
  const onreviewed = vi.fn();
  render(ScreenshotViewer, {
    workspace: "/ws",
    evidenceSession,
    shots,
    start: shot(3),
    onclose,
    onomitted,
    onapplied,
    onreviewed,
    ...overrides,
  });
  return { onclose, onomitted, onapplied, onreviewed };
}

async function drawMask() {
  const svg = await screen.findAllByTestId("mask-canvas").then((all) => all[0]!);
  layOut(svg);
  await fireEvent.pointerDown(svg, { clientX: 150, clientY: 100, button: 0 });
  await fireEvent.pointerMove(svg, { clientX: 250, clientY: 150 });
  await fireEvent.pointerUp(svg, { clientX: 250, clientY: 150 });
}

const dialog = () => screen.getByTestId("screenshot-viewer");
const shown = () => dialog().dataset.shot;

describe("ScreenshotViewer", () => {
  it("inspects elements; where a step's element was not found, opens on the nodes nearest to it", async () => {
    const node = {
      resource_id: "com.example.shop:id/btn_cart",
      text: "Cart",
      content_desc: "",
      class: "android.widget.Button",
      bounds: [0, 0, 100, 50] as [number, number, number, number],
      masked: false,
      maestro: 'id: "com.example.shop:id/btn_cart"',
      robo: '{"resourceId":"com.example.shop:id/btn_cart"}',
    };
    const calls = backend({
      nearest_nodes: () => [{ node, score: 0.62, matched_on: "identifier" }],
      inspect_point: () => [node],
      copy_text: () => null,
    });
    const notFound = shots.map((r) => (r.attempt === 4 ? { ...r, notFoundStep: 5 } : r));
    open({ shots: notFound, start: shot(4) });
    const nearest = await screen.findByTestId("nearest-nodes");
    expect(nearest).toHaveTextContent("com.example.shop:id/btn_cart");
    expect(commandCalls(calls, "nearest_nodes")[0]).toMatchObject({ name: shot(4), step: 5 });
    // Back to masking, and the mask editor is there again.
    await fireEvent.click(screen.getByTestId("inspect-toggle"));
    expect(screen.queryByTestId("node-inspector")).not.toBeInTheDocument();
    expect(await screen.findAllByTestId("mask-canvas")).not.toHaveLength(0);
  });

  it("opens on the mask editor for an attempt whose elements were all found", async () => {
    const calls = backend();
    open();
    await screen.findAllByTestId("mask-canvas");
    expect(screen.queryByTestId("node-inspector")).not.toBeInTheDocument();
    expect(commandCalls(calls, "nearest_nodes")).toHaveLength(0);
  });

  it("loads the archived screenshot, says what it shows, and starts with Solid", async () => {
    const calls = backend({ screenshot_image: (a) => ({ ...screenshotView(a.name as string), style: "pixelate" }) });
    open();
    expect(await screen.findByRole("img", { name: "Screenshot of attempt 3" })).toBeInTheDocument();
    expect(dialog()).toHaveTextContent("Masks are burned into the saved image; the unmasked image is never kept.");
    expect(dialog()).toHaveTextContent("This: attempt 3 · steps 4–5 · Reproduced");
    expect(dialog()).toHaveTextContent("3 of 4");
    expect(commandCalls(calls, "screenshot_image")).toEqual([{ workspace: "/ws", evidenceSession, name: shot(3) }]);
    expect(screen.getByTestId("mask-style")).toHaveValue("solid");
    expect(screen.getByTestId("mask-apply-one")).toBeDisabled();
  });

  it("previews unapplied masks as the backend renders them, again when the style changes", async () => {
    const calls = backend();
    open();
    await drawMask();
    await waitFor(() => expect(screen.getAllByTestId("mask-preview")).toHaveLength(1));
    expect(screen.getByTestId("mask-preview")).toHaveAttribute("href", patch.data_url);
    expect(dialog()).toHaveTextContent("The masks show exactly what Apply will burn in.");
    await fireEvent.change(screen.getByTestId("mask-style"), { target: { value: "blur" } });
    // A stale preview is never shown for the new style.
    expect(screen.queryAllByTestId("mask-preview")).toHaveLength(0);
    await waitFor(() => expect(commandCalls(calls, "preview_masks")).toHaveLength(2));
    expect(commandCalls(calls, "preview_masks").map((a) => (a.request as { style: string }).style)).toEqual([
      "solid",
      "blur",
    ]);
    const [first] = commandCalls(calls, "preview_masks");
    expect(first!.request).toEqual({
      workspace: "/ws",
      evidence_session: evidenceSession,
      screenshot: shot(3),
      rects: [{ x: 100, y: 100, w: 200, h: 100, reason: "added by reviewer" }],
      style: "solid",
    });
    expect(commandCalls(calls, "apply_masks")).toEqual([]);
  });

  it("applies drawn masks to this screenshot with the chosen style, then shows them burned in", async () => {
    const drawn = { x: 100, y: 100, w: 200, h: 100, reason: "added by reviewer" };
    let burned = false;
    const calls = backend({
      screenshot_image: (a) => screenshotView(a.name as string, burned ? [autoMask, drawn] : [autoMask]),
      apply_masks: () => {
        burned = true;
        return 1;
      },
    });
    const { onapplied } = open();
    await drawMask();
    await fireEvent.change(screen.getByTestId("mask-style"), { target: { value: "pixelate" } });
    await fireEvent.click(screen.getByTestId("mask-apply-one"));
    expect(await screen.findByText("Masks burned into 1 screenshot.")).toBeInTheDocument();
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
    expect(onapplied).toHaveBeenCalledWith([shot(3)]);
    await waitFor(() => expect(document.querySelectorAll("[data-auto-mask]")).toHaveLength(2));
    expect(document.querySelectorAll("[data-rect-index]")).toHaveLength(0);
  });

  it("applies to every screenshot only after listing them and asking", async () => {
    const calls = backend({ apply_masks: () => 4 });
    open();
    await drawMask();
    await fireEvent.click(screen.getByTestId("mask-apply-all"));
    const ask = screen.getByTestId("apply-all-confirm");
    expect(ask).toHaveTextContent(
      "Burn 1 mask (Solid) into all 4 screenshots of this run: attempts 1–4? What is under it is gone for good.",
    );
    expect(commandCalls(calls, "apply_masks")).toEqual([]);
    expect(document.activeElement).toBe(within(ask).getByRole("button", { name: "Cancel" }));
    await fireEvent.click(within(ask).getByRole("button", { name: "Cancel" }));
    expect(commandCalls(calls, "apply_masks")).toEqual([]);
    expect(document.querySelectorAll("[data-rect-index]")).toHaveLength(1);

    await fireEvent.click(screen.getByTestId("mask-apply-all"));
    await fireEvent.click(screen.getByTestId("apply-all-confirm-yes"));
    expect(await screen.findByText("Masks burned into 4 screenshots.")).toBeInTheDocument();
    const [args] = commandCalls(calls, "apply_masks");
    expect((args!.request as { screenshots: string[] }).screenshots).toEqual(shots.map((s) => s.name));
  });

  it("applies to the filmstrip frames too, and says so before it does", async () => {
    const frames: ShotRow[] = [1, 2].map((n) => ({
      name: frame(4, n),
      attempt: 4,
      candidate: [5],
      verdict: "not_reproduced",
      beforeStep: null,
      frame: n,
      notFoundStep: null,
    }));
    const all = [...shots, ...frames];
    const calls = backend({ apply_masks: () => 6 });
    open({ shots: all, start: frame(4, 1) });
    expect(await screen.findByRole("heading", { name: "Filmstrip frame 1 of attempt 4" })).toBeInTheDocument();
    await drawMask();
    await fireEvent.click(screen.getByTestId("mask-apply-all"));
    expect(screen.getByTestId("apply-all-confirm")).toHaveTextContent(
      "Burn 1 mask (Solid) into all 6 screenshots of this run: attempts 1–4; 2 filmstrip frames (attempt 4)?",
    );
    await fireEvent.click(screen.getByTestId("apply-all-confirm-yes"));
    expect(await screen.findByText("Masks burned into 6 screenshots.")).toBeInTheDocument();
    const [args] = commandCalls(calls, "apply_masks");
    expect((args!.request as { screenshots: string[] }).screenshots).toEqual([...shots.map((s) => s.name), frame(4, 1), frame(4, 2)]);
  });

  it("asks before Escape or × would drop unapplied masks", async () => {
    backend({ apply_masks: () => 1 });
    const { onclose } = open();
    await drawMask();
    await fireEvent.keyDown(dialog(), { key: "Escape" });
    expect(onclose).not.toHaveBeenCalled();
    const guard = screen.getByTestId("unapplied-guard");
    expect(guard).toHaveTextContent("1 mask is not applied yet.");
    // Focused (and so scrolled into view) on the harmless answer.
    expect(document.activeElement).toBe(within(guard).getByRole("button", { name: "Keep editing" }));
    await fireEvent.click(within(guard).getByRole("button", { name: "Keep editing" }));
    expect(screen.queryByTestId("unapplied-guard")).toBeNull();
    expect(document.querySelectorAll("[data-rect-index]")).toHaveLength(1);

    await fireEvent.click(screen.getByTestId("close-viewer"));
    await fireEvent.click(screen.getByTestId("unapplied-discard"));
    expect(onclose).toHaveBeenCalledOnce();
  });

  it("can apply the pending masks on the way out", async () => {
    const calls = backend({ apply_masks: () => 1 });
    const { onclose } = open();
    await drawMask();
    await fireEvent.keyDown(dialog(), { key: "Escape" });
    await fireEvent.click(screen.getByTestId("unapplied-apply"));
    await waitFor(() => expect(onclose).toHaveBeenCalledOnce());
    expect(commandCalls(calls, "apply_masks")).toHaveLength(1);
  });

  it("walks to the previous and next screenshot with the arrow keys and buttons", async () => {
    const calls = backend();
    open();
    await screen.findByRole("img", { name: "Screenshot of attempt 3" });
    await fireEvent.keyDown(dialog(), { key: "ArrowRight" });
    expect(await screen.findByRole("img", { name: "Screenshot of attempt 4" })).toBeInTheDocument();
    expect(screen.getByTestId("viewer-next")).toBeDisabled();
    await fireEvent.click(screen.getByTestId("viewer-prev"));
    await fireEvent.keyDown(dialog(), { key: "ArrowLeft" });
    expect(await screen.findByRole("img", { name: "Screenshot of attempt 2" })).toBeInTheDocument();
    expect(commandCalls(calls, "screenshot_image").map((a) => a.name)).toEqual([shot(3), shot(4), shot(3), shot(2)]);
  });

  it("moves a selected mask with the arrows instead, and asks before walking away from it", async () => {
    backend();
    open();
    await drawMask();
    await fireEvent.keyDown(dialog(), { key: "ArrowRight", shiftKey: true });
    await fireEvent.keyDown(dialog(), { key: "ArrowUp" });
    expect(screen.getByRole("button", { name: "Mask 1: 200×100 at 110, 99" })).toBeInTheDocument();
    expect(shown()).toBe(shot(3));
    await fireEvent.keyDown(dialog(), { key: "Delete" });
    expect(document.querySelectorAll("[data-rect-index]")).toHaveLength(0);

    await fireEvent.click(screen.getByRole("button", { name: "Add a mask" }));
    await fireEvent.click(screen.getByTestId("viewer-next"));
    expect(screen.getByTestId("unapplied-guard")).toBeInTheDocument();
    await fireEvent.click(screen.getByTestId("unapplied-discard"));
    expect(await screen.findByRole("img", { name: "Screenshot of attempt 4" })).toBeInTheDocument();
  });

  it("zooms with the keys and buttons: Fit, 100 % and steps", async () => {
    backend();
    open();
    const img = await screen.findByRole("img", { name: "Screenshot of attempt 3" });
    expect(img.getAttribute("style") ?? "").not.toContain("width");
    await fireEvent.click(screen.getByRole("button", { name: "100 %" }));
    expect(img).toHaveStyle({ width: "1080px" });
    expect(screen.getByTestId("zoom-level")).toHaveTextContent("100 %");
    await fireEvent.keyDown(dialog(), { key: "+" });
    expect(img).toHaveStyle({ width: "1350px" });
    await fireEvent.keyDown(dialog(), { key: "-" });
    await fireEvent.keyDown(dialog(), { key: "-" });
    expect(img).toHaveStyle({ width: "810px" });
    await fireEvent.keyDown(dialog(), { key: "0" });
    expect(img.getAttribute("style") ?? "").not.toContain("width");
    await fireEvent.wheel(img.parentElement!.parentElement!, { deltaY: -100, ctrlKey: true });
    expect(img.getAttribute("style") ?? "").toContain("width");
  });

  it("compares with the same steps plus one by default, and lets the reviewer pick", async () => {
    const calls = backend();
    open({ start: shot(4) });
    await screen.findByRole("img", { name: "Screenshot of attempt 4" });
    await fireEvent.click(screen.getByTestId("compare-toggle"));
    // Attempt 4 replayed step 5; attempt 3 replayed 4 and 5: what adding step 4 changed.
    expect(await screen.findByRole("img", { name: "Screenshot of attempt 3" })).toBeInTheDocument();
    expect(screen.getByTestId("compare-caption")).toHaveTextContent(
      "Attempt 3: the same steps plus 1 step (4) · Reproduced",
    );
    expect(dialog()).not.toHaveTextContent("Before");
    expect(dialog()).not.toHaveTextContent("After");
    await fireEvent.change(screen.getByTestId("compare-select"), { target: { value: shot(2) } });
    expect(await screen.findByRole("img", { name: "Screenshot of attempt 2" })).toBeInTheDocument();
    expect(screen.getByTestId("compare-caption")).toHaveTextContent("not these steps plus more");
    expect(commandCalls(calls, "screenshot_image").map((a) => a.name)).toEqual([shot(4), shot(3), shot(2)]);
  });

  it("offers no default partner when nothing replayed these steps plus more", async () => {
    backend();
    open({ start: shot(1) });
    await screen.findByRole("img", { name: "Screenshot of attempt 1" });
    await fireEvent.click(screen.getByTestId("compare-toggle"));
    expect(screen.getByTestId("compare-partner")).toHaveTextContent(
      "No attempt replayed these steps plus more; choose one to compare with.",
    );
  });

  it("records the check mark in the evidence and reports the new checklist", async () => {
    const checklist: ReviewChecklist = {
      shots: [{ name: shot(3), attempt: 3, frame: null, reviewed: true, omitted: false }],
      summary: { total: 4, reviewed: 1, omitted: 0, not_reviewed: [1, 2, 4], not_reviewed_frames: [] },
    };
    const calls = backend({ mark_reviewed: () => checklist });
    const { onreviewed } = open();
    await screen.findByRole("img", { name: "Screenshot of attempt 3" });
    await fireEvent.click(screen.getByTestId("mark-reviewed"));
    await waitFor(() => expect(onreviewed).toHaveBeenCalledWith(checklist));
    expect(commandCalls(calls, "mark_reviewed")).toEqual([
      { workspace: "/ws", evidenceSession, name: shot(3), reviewed: true },
    ]);
  });

  it("omits the screenshot only after confirmation, then shows the next one", async () => {
    const calls = backend({ omit_screenshot: () => null });
    const { onomitted } = open();
    await fireEvent.click(await screen.findByTestId("omit-screenshot"));
    expect(commandCalls(calls, "omit_screenshot")).toEqual([]);
    await fireEvent.click(screen.getByTestId("omit-confirm"));
    await waitFor(() => expect(onomitted).toHaveBeenCalledWith(shot(3)));
    expect(commandCalls(calls, "omit_screenshot")).toEqual([{ workspace: "/ws", evidenceSession, name: shot(3) }]);
    expect(await screen.findByRole("img", { name: "Screenshot of attempt 4" })).toBeInTheDocument();
  });

  it("shows a load failure in place with a way to retry", async () => {
    fakeBackend({ screenshot_image: () => fail("screenshot_unavailable", "the screenshot cannot be used: gone", {
        cause: { kind: "unavailable", detail: "gone" },
      }) });
    open();
    expect(await screen.findByRole("alert")).toHaveTextContent("gone");
    expect(screen.getByRole("button", { name: "Try again" })).toBeInTheDocument();
  });
});

describe("ScreenshotViewer from the keyboard", () => {
  /** A click by keyboard: the control has the focus, then it is pressed. */
  async function press(el: HTMLElement) {
    el.focus();
    await fireEvent.click(el);
  }

  it("takes the keyboard to the picture in inspect mode: Enter inspects the centre, arrows move the crosshair without walking", async () => {
    const calls = backend({ inspect_point: () => [] });
    open();
    await screen.findByRole("img", { name: "Screenshot of attempt 3" });
    await press(screen.getByTestId("inspect-toggle"));
    const stage = await screen.findByTestId("inspector-stage");
    await waitFor(() => expect(document.activeElement).toBe(stage));

    // Enter where the focus now is: the picture's centre is inspected; the mode stays on.
    await fireEvent.keyDown(document.activeElement!, { key: "Enter" });
    await waitFor(() => expect(commandCalls(calls, "inspect_point")).toHaveLength(1));
    expect(commandCalls(calls, "inspect_point")[0]).toMatchObject({ x: 540, y: 960 });
    expect(screen.getByTestId("inspect-toggle")).toHaveAttribute("aria-pressed", "true");

    // → moves the crosshair; the viewer stays on this picture.
    await fireEvent.keyDown(stage, { key: "ArrowRight" });
    expect(shown()).toBe(shot(3));
    await fireEvent.keyDown(stage, { key: "Enter" });
    await waitFor(() => expect(commandCalls(calls, "inspect_point")[1]).toMatchObject({ x: 550, y: 960 }));
  });

  it("walks the pictures with ←/→ while the Checked box has the focus", async () => {
    backend({ mark_reviewed: () => ({ shots: [], summary: { total: 4, reviewed: 0, omitted: 0, not_reviewed: [], not_reviewed_frames: [] } }) });
    open();
    await screen.findByRole("img", { name: "Screenshot of attempt 3" });
    const checked = screen.getByTestId("mark-reviewed");
    checked.focus();
    await fireEvent.keyDown(checked, { key: "ArrowRight" });
    expect(await screen.findByRole("img", { name: "Screenshot of attempt 4" })).toBeInTheDocument();
    await fireEvent.keyDown(document.activeElement!, { key: "ArrowLeft" });
    expect(await screen.findByRole("img", { name: "Screenshot of attempt 3" })).toBeInTheDocument();
  });

  it("after Burn into all, gives the focus to Add a mask, and Escape closes", async () => {
    backend({ apply_masks: () => 4 });
    const { onclose } = open();
    await drawMask();
    await press(screen.getByTestId("mask-apply-all"));
    await press(screen.getByTestId("apply-all-confirm-yes"));
    expect(await screen.findByText("Masks burned into 4 screenshots.")).toBeInTheDocument();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId("add-mask")));
    await fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    expect(onclose).toHaveBeenCalledOnce();
  });

  it("gives the focus back to the button that asked when a question is answered no or escaped", async () => {
    backend();
    open();
    await drawMask();
    await press(screen.getByTestId("mask-apply-all"));
    await press(within(screen.getByTestId("apply-all-confirm")).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId("mask-apply-all")));

    await press(screen.getByTestId("mask-apply-all"));
    await fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    expect(screen.queryByTestId("apply-all-confirm")).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId("mask-apply-all")));

    await press(screen.getByTestId("omit-screenshot"));
    await press(screen.getByRole("button", { name: "Keep it" }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId("omit-screenshot")));
  });

  it("takes the focus back when a removed control left it on nothing, so Escape still works", async () => {
    backend();
    const { onclose } = open();
    await screen.findByRole("img", { name: "Screenshot of attempt 3" });
    // The focus fell to the page (its control was removed under it).
    (document.activeElement as HTMLElement | null)?.blur();
    expect(document.activeElement).toBe(document.body);
    await fireEvent.keyDown(document.body, { key: "ArrowRight" });
    expect(await screen.findByRole("img", { name: "Screenshot of attempt 4" })).toBeInTheDocument();
    expect(dialog().contains(document.activeElement)).toBe(true);
    (document.activeElement as HTMLElement).blur();
    await fireEvent.keyDown(document.body, { key: "Escape" });
    expect(onclose).toHaveBeenCalledOnce();
  });

  it("after deleting the selected mask with its button, the focus goes to Add a mask", async () => {
    backend();
    open();
    await drawMask();
    await press(screen.getByRole("button", { name: "Delete selected" }));
    expect(document.querySelectorAll("[data-rect-index]")).toHaveLength(0);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId("add-mask")));
  });
});
