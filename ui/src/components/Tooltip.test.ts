// Hints (lib/tooltip.ts, the window's one mechanism): shown beside their anchor after a
// rest, never over it or over an open confirmation, and gone with the pointer — on leave,
// press, Escape, scroll, blur, and when the anchor is removed or hidden.
import { fireEvent, render, screen } from "@testing-library/svelte";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import MaskEditor from "./MaskEditor.svelte";
import MaskActions from "./MaskActions.svelte";
import QueuePanel from "./QueuePanel.svelte";
import { screenshotView, shot } from "../test/runFixtures";
import { placeTip, TOOLTIP_DELAY_MS, type Box } from "../lib/tooltip";
import { USER_REASON } from "../lib/maskGeometry";
import type { ShotRow } from "../lib/evidenceShots";
import type { QueueEntry, QueueView } from "../lib/watchTypes";

const tip = () => screen.queryByRole("tooltip");
const rest = () => vi.advanceTimersByTime(TOOLTIP_DELAY_MS + 10);

async function hover(el: Element) {
  await fireEvent.pointerEnter(el, { pointerType: "mouse" });
  rest();
}

/** jsdom has no layout: each element named here gets a box, every other one none. */
function layOut(boxes: Array<[Element | ((el: Element) => boolean), Box]>) {
  vi.spyOn(Element.prototype, "getBoundingClientRect").mockImplementation(function (this: Element) {
    const found = boxes.find(([match]) => (typeof match === "function" ? match(this) : match === this));
    const b = found?.[1] ?? { left: 0, top: 0, width: 0, height: 0 };
    return { ...b, x: b.left, y: b.top, right: b.left + b.width, bottom: b.top + b.height, toJSON: () => b } as DOMRect;
  });
}

const isTip = (el: Element) => el.getAttribute("role") === "tooltip";

const waiting = (id: number): QueueEntry => ({ id, session: `s${id}`, crash_id: `c${id}`, label: `Crash ${id}`, state: { state: "waiting" }, hint: null });

function queue(view: QueueView) {
  const callbacks = { onPause: vi.fn(), onResume: vi.fn(), onMove: vi.fn(), onCancel: vi.fn(), onCancelAll: vi.fn() };
  const rendered = render(QueuePanel, { queue: view, ...callbacks });
  return (next: QueueView) => rendered.rerender({ queue: next, ...callbacks });
}

const shots: ShotRow[] = [1, 2].map((n) => ({
  name: shot(n),
  attempt: n,
  candidate: [n],
  verdict: "reproduced",
  beforeStep: null,
  frame: null,
  notFoundStep: null,
}));

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("tooltips", () => {
  it("show the hint after the pointer rests, and go when it leaves", async () => {
    queue({ entries: [waiting(1)], paused: false, running: true });
    const pause = screen.getByRole("button", { name: "Pause" });
    await fireEvent.pointerEnter(pause, { pointerType: "mouse" });
    expect(tip()).toBeNull();
    rest();
    expect(tip()).toHaveTextContent("The run in progress goes on; no new one starts until you resume");
    await fireEvent.pointerLeave(pause);
    expect(tip()).toBeNull();
  });

  it("go on a press and stay away while the pointer stays: no box is left over the screenshot after a click", async () => {
    const { container } = render(MaskEditor, { image: screenshotView("a.png"), label: "Attempt 1" });
    const auto = container.querySelector("[data-auto-mask]")!;
    await hover(auto);
    expect(tip()).toHaveTextContent("Masked automatically: password field");
    await fireEvent.pointerDown(auto, { button: 0 });
    expect(tip()).toBeNull();
    await fireEvent.click(auto);
    rest();
    expect(tip()).toBeNull();
    // Back only after the pointer left and came again.
    await fireEvent.pointerLeave(auto);
    await hover(auto);
    expect(tip()).not.toBeNull();
  });

  it("go on Escape, on scroll and on a press anywhere", async () => {
    queue({ entries: [waiting(1)], paused: false, running: true });
    const pause = screen.getByRole("button", { name: "Pause" });
    await hover(pause);
    await fireEvent.keyDown(document.body, { key: "Escape" });
    expect(tip()).toBeNull();

    await fireEvent.pointerLeave(pause);
    await hover(pause);
    await fireEvent.scroll(screen.getByTestId("queue-panel"));
    expect(tip()).toBeNull();

    await fireEvent.pointerLeave(pause);
    await hover(pause);
    await fireEvent.pointerDown(document.body);
    expect(tip()).toBeNull();
  });

  it("show on keyboard focus and go on blur, never after a click's focus", async () => {
    queue({ entries: [waiting(1)], paused: false, running: true });
    const cancelAll = screen.getByRole("button", { name: "Cancel all" });
    await fireEvent.keyDown(document.body, { key: "Tab" });
    cancelAll.focus();
    rest();
    expect(tip()).toHaveTextContent("Cancel the run in progress and every waiting one");
    cancelAll.blur();
    expect(tip()).toBeNull();

    await fireEvent.pointerDown(cancelAll);
    cancelAll.focus();
    rest();
    expect(tip()).toBeNull();
  });

  it("go when their anchor is removed or hidden", async () => {
    const rerender = queue({ entries: [waiting(1), waiting(2)], paused: false, running: true });
    await hover(screen.getByRole("button", { name: "Move Crash 2 · s2 up" }));
    expect(tip()).toHaveTextContent("Move up");
    // Entry 2 started: its arrows are gone, and their hint with them.
    await rerender({ entries: [waiting(1), { ...waiting(2), state: { state: "running", evidence_session: null, device: null, attempts: 0, max_replays: 30 } }], paused: false, running: true });
    expect(tip()).toBeNull();

    await hover(screen.getByRole("button", { name: "Move Crash 1 · s1 down" }));
    expect(tip()).not.toBeNull();
    screen.getByTestId("queue-panel").parentElement!.hidden = true;
    vi.advanceTimersByTime(250);
    expect(tip()).toBeNull();
  });

  it("stand beside their anchor, never over it", async () => {
    queue({ entries: [waiting(1)], paused: false, running: true });
    const pause = screen.getByRole("button", { name: "Pause" });
    layOut([
      [pause, { left: 100, top: 100, width: 80, height: 30 }],
      [isTip, { left: 0, top: 0, width: 200, height: 40 }],
    ]);
    await hover(pause);
    const shown = tip()!;
    expect(shown.dataset.side).toBe("right");
    expect(parseFloat(shown.style.left)).toBeGreaterThanOrEqual(180);
    expect(shown.style.top).toBe("95px");
  });

  it("keep off an open confirmation's buttons (the Burn question)", async () => {
    const rect = { x: 10, y: 10, w: 100, h: 100, reason: USER_REASON };
    render(MaskActions, {
      rects: [rect],
      selected: null,
      style: "solid",
      busy: false,
      all: shots,
      onselect: () => {},
      onremove: () => {},
      onapply: () => {},
      onomit: () => {},
    });
    const applyAll = screen.getByTestId("mask-apply-all");
    await hover(applyAll);
    expect(tip()).toHaveTextContent("The same rectangles on every screenshot");
    // Pressing it asks first; the hint goes and does not come back over the question.
    await fireEvent.pointerDown(applyAll);
    await fireEvent.click(applyAll);
    rest();
    expect(tip()).toBeNull();
    const ask = screen.getByTestId("apply-all-confirm");

    // The question right of the button and below it: the hint goes left.
    await fireEvent.pointerLeave(applyAll);
    layOut([
      [applyAll, { left: 400, top: 300, width: 160, height: 30 }],
      [ask, { left: 380, top: 200, width: 400, height: 200 }],
      [isTip, { left: 0, top: 0, width: 220, height: 40 }],
    ]);
    await hover(applyAll);
    const shown = tip()!;
    expect(shown.dataset.side).toBe("left");
    expect(parseFloat(shown.style.left) + 220).toBeLessThanOrEqual(400);
  });
});

describe("placeTip", () => {
  const anchor: Box = { left: 100, top: 100, width: 80, height: 30 };
  const size = { width: 200, height: 40 };
  const viewport = { width: 1000, height: 800 };
  const over = (a: Box, b: Box) =>
    a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;

  it("never covers its anchor, on any side", () => {
    for (const a of [anchor, { ...anchor, left: 900 }, { ...anchor, top: 770 }, { ...anchor, left: 0, top: 0 }]) {
      const p = placeTip(a, size, viewport);
      expect(over({ left: p.left, top: p.top, ...size }, a)).toBe(false);
    }
  });

  it("goes left at the window's right edge", () => {
    expect(placeTip({ ...anchor, left: 900 }, size, viewport).side).toBe("left");
  });

  it("avoids the controls next to its anchor when it can", () => {
    const neighbour: Box = { left: 186, top: 95, width: 90, height: 40 };
    const p = placeTip(anchor, size, viewport, [], [neighbour]);
    expect(over({ left: p.left, top: p.top, ...size }, neighbour)).toBe(false);
  });
});

describe("one mechanism", () => {
  it("no component uses the native title attribute or an SVG <title>", () => {
    const sources = import.meta.glob(["../**/*.svelte"], { query: "?raw", import: "default", eager: true }) as Record<string, string>;
    expect(Object.keys(sources).length).toBeGreaterThan(20);
    const offenders = Object.entries(sources)
      .filter(([, text]) => /\stitle=|<title[\s>]/.test(text.replace(/<script[\s\S]*?<\/script>/g, "")))
      .map(([file]) => file);
    expect(offenders).toEqual([]);
  });
});
