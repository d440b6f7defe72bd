// The window's one way of giving a hint on hover or keyboard focus: `use:tooltip={text}`.
// Native `title` tooltips are not used anywhere — the webview leaves them on screen as
// empty grey boxes after a click, over whatever is under them (a screenshot under
// review, a confirmation's buttons). A tooltip here:
// - never outlives its pointer: it hides on pointer leave, on any press or click, when
//   its anchor loses focus, on Escape, on scroll, wheel and resize, when the window
//   loses focus, and when its anchor is removed or hidden;
// - never covers what it describes: it is placed beside its anchor (right, else left,
//   else below or above), never over it, and where it covers the fewest controls and no
//   open confirmation (`[data-tooltip-avoid]`, `role="alertdialog"`);
// - is one at a time, and reappears only after the pointer left and came back.
// Its text stays available to assistive technology as the anchor's `aria-description`.
import type { Action } from "svelte/action";

/** How long the pointer (or keyboard focus) rests on an anchor before its hint shows. */
export const TOOLTIP_DELAY_MS = 450;
/** Space between a tooltip and its anchor. */
const GAP = 6;
/** Space kept between a tooltip and the window's edge. */
const MARGIN = 4;
/** How often a shown tooltip checks that its anchor is still there and visible. */
const WATCH_MS = 200;

/** Open confirmations: a tooltip never covers them. */
const AVOID = "[data-tooltip-avoid], [role='alertdialog']";
/** Controls a tooltip prefers not to cover. */
const CONTROLS = "button, input, select, textarea, a[href], [tabindex]:not([tabindex='-1']), [role='button']";

export type Side = "right" | "left" | "below" | "above";
export type Box = { left: number; top: number; width: number; height: number };
export type Placement = { side: Side; left: number; top: number };

const SIDES: Side[] = ["right", "left", "below", "above"];

const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));

function overlap(a: Box, b: Box): number {
  const w = Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left);
  const h = Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top);
  return w > 0 && h > 0 ? w * h : 0;
}

function candidate(side: Side, anchor: Box, size: { width: number; height: number }, viewport: { width: number; height: number }): Box {
  const { width, height } = size;
  const maxTop = Math.max(MARGIN, viewport.height - MARGIN - height);
  const maxLeft = Math.max(MARGIN, viewport.width - MARGIN - width);
  switch (side) {
    case "right":
      return { left: anchor.left + anchor.width + GAP, top: clamp(anchor.top + anchor.height / 2 - height / 2, MARGIN, maxTop), width, height };
    case "left":
      return { left: anchor.left - GAP - width, top: clamp(anchor.top + anchor.height / 2 - height / 2, MARGIN, maxTop), width, height };
    case "below":
      return { left: clamp(anchor.left, MARGIN, maxLeft), top: anchor.top + anchor.height + GAP, width, height };
    case "above":
      return { left: clamp(anchor.left, MARGIN, maxLeft), top: anchor.top - GAP - height, width, height };
  }
}

/**
 * Where a tooltip of `size` goes beside `anchor`: never over the anchor, inside the
 * viewport when it can be, over no `avoid` box (open confirmations) when it can be, and
 * over as little of the `controls` as it can; on a tie the first of right, left, below,
 * above.
 */
export function placeTip(
  anchor: Box,
  size: { width: number; height: number },
  viewport: { width: number; height: number },
  avoid: Box[] = [],
  controls: Box[] = [],
): Placement {
  let best: { placement: Placement; score: number } | null = null;
  for (const side of SIDES) {
    const box = candidate(side, anchor, size, viewport);
    const outside =
      Math.max(0, MARGIN - box.left) +
      Math.max(0, box.left + box.width - (viewport.width - MARGIN)) +
      Math.max(0, MARGIN - box.top) +
      Math.max(0, box.top + box.height - (viewport.height - MARGIN));
    // Leaving the window is worst, covering a confirmation next, covering controls last.
    const score =
      (outside > 0 ? 1e12 + outside : 0) +
      avoid.reduce((n, a) => n + (overlap(box, a) > 0 ? 1e9 + overlap(box, a) : 0), 0) +
      controls.reduce((n, c) => n + overlap(box, c), 0);
    if (best === null || score < best.score) best = { placement: { side, left: box.left, top: box.top }, score };
    if (score === 0) break;
  }
  return best!.placement;
}

// Whether the last input was the keyboard: focus shows a hint only then (a click
// focuses a button too, and must not leave a hint behind).
let keyboardInput = false;
let inputWatched = false;
function watchInput() {
  if (inputWatched || typeof document === "undefined") return;
  inputWatched = true;
  document.addEventListener("keydown", () => (keyboardInput = true), true);
  document.addEventListener("pointerdown", () => (keyboardInput = false), true);
  document.addEventListener("mousedown", () => (keyboardInput = false), true);
}

let shown: Tip | null = null;
let nextId = 0;

/** Hides whatever tooltip is showing (for code that is about to move things). */
export function hideTooltip(): void {
  shown?.hide();
}

function boxOf(el: Element): Box {
  const r = el.getBoundingClientRect();
  return { left: r.left, top: r.top, width: r.width, height: r.height };
}

class Tip {
  readonly anchor: Element;
  text: string;
  el: HTMLDivElement | null = null;
  /** After a press, the hint stays away until the pointer leaves. */
  pressed = false;
  timer: ReturnType<typeof setTimeout> | undefined;
  watch: ReturnType<typeof setInterval> | undefined;
  readonly id = `tooltip-${++nextId}`;

  constructor(anchor: Element, text: string) {
    this.anchor = anchor;
    this.text = text;
    for (const [event, listener] of this.anchorListeners()) anchor.addEventListener(event, listener);
    this.describe();
  }

  /** What the anchor's own events do (pointer and mouse both: WebKit sends either). */
  anchorListeners(): Array<[string, EventListener]> {
    return [
      ["pointerenter", this.onenter],
      ["mouseenter", this.onenter],
      ["pointerleave", this.onleave],
      ["mouseleave", this.onleave],
      ["pointerdown", this.onpress],
      ["mousedown", this.onpress],
      ["click", this.onpress],
      ["focusin", this.onfocus],
      ["focusout", this.hide],
    ];
  }

  describe() {
    if (this.text) this.anchor.setAttribute("aria-description", this.text);
    else this.anchor.removeAttribute("aria-description");
  }

  update(text: string) {
    this.text = text;
    this.describe();
    if (!text) this.hide();
    else if (this.el) {
      this.el.textContent = text;
      this.position();
    }
  }

  destroy() {
    this.hide();
    for (const [event, listener] of this.anchorListeners()) this.anchor.removeEventListener(event, listener);
    this.anchor.removeAttribute("aria-description");
  }

  onenter = (event: Event) => {
    // A finger has no hover: a touch shows nothing.
    if ((event as PointerEvent).pointerType === "touch") return;
    if (!this.pressed) this.schedule();
  };

  onleave = () => {
    this.pressed = false;
    this.hide();
  };

  onpress = () => {
    this.pressed = true;
    this.hide();
  };

  onfocus = () => {
    if (keyboardInput) this.schedule();
  };

  schedule() {
    if (!this.text || this.el) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.show(), TOOLTIP_DELAY_MS);
  }

  /** The anchor is gone, or hidden with one of its ancestors. */
  gone(): boolean {
    return !this.anchor.isConnected || this.anchor.closest("[hidden], [inert]") !== null;
  }

  show() {
    if (!this.text || this.gone()) return;
    shown?.hide();
    shown = this;
    const el = document.createElement("div");
    el.id = this.id;
    el.className = "tooltip";
    el.setAttribute("role", "tooltip");
    el.dataset.testid = "tooltip";
    el.textContent = this.text;
    // Never in the way of the pointer; placed before it is seen.
    el.style.position = "fixed";
    el.style.left = "0px";
    el.style.top = "0px";
    el.style.visibility = "hidden";
    el.style.pointerEvents = "none";
    el.style.zIndex = "1000";
    document.body.append(el);
    this.el = el;
    this.position();
    el.style.visibility = "";
    document.addEventListener("keydown", this.onkey, true);
    document.addEventListener("pointerdown", this.hide, true);
    window.addEventListener("scroll", this.hide, true);
    window.addEventListener("wheel", this.hide, true);
    window.addEventListener("resize", this.hide);
    window.addEventListener("blur", this.hide);
    this.watch = setInterval(() => {
      if (this.gone()) this.hide();
    }, WATCH_MS);
  }

  position() {
    const el = this.el;
    if (!el) return;
    const anchor = boxOf(this.anchor);
    const size = boxOf(el);
    const near = (b: Box) =>
      b.left < anchor.left + anchor.width + 400 && b.left + b.width > anchor.left - 400 && b.top < anchor.top + anchor.height + 200 && b.top + b.height > anchor.top - 200;
    const avoid = [...document.querySelectorAll(AVOID)].filter((a) => !a.contains(this.anchor)).map(boxOf);
    const controls = [...document.querySelectorAll(CONTROLS)]
      .filter((c) => c !== this.anchor && !c.contains(this.anchor))
      .map(boxOf)
      .filter(near);
    const place = placeTip(anchor, size, { width: window.innerWidth, height: window.innerHeight }, avoid, controls);
    el.dataset.side = place.side;
    el.style.left = `${Math.round(place.left)}px`;
    el.style.top = `${Math.round(place.top)}px`;
  }

  onkey = (event: KeyboardEvent) => {
    // Escape dismisses the hint; it still reaches whatever else it closes.
    if (event.key === "Escape") this.hide();
  };

  hide = () => {
    clearTimeout(this.timer);
    this.timer = undefined;
    clearInterval(this.watch);
    this.watch = undefined;
    if (this.el) {
      this.el.remove();
      this.el = null;
      document.removeEventListener("keydown", this.onkey, true);
      document.removeEventListener("pointerdown", this.hide, true);
      window.removeEventListener("scroll", this.hide, true);
      window.removeEventListener("wheel", this.hide, true);
      window.removeEventListener("resize", this.hide);
      window.removeEventListener("blur", this.hide);
    }
    if (shown === this) shown = null;
  };
}

/**
 * `use:tooltip={text}`: `text` shown beside the element on hover (after a rest) and on
 * keyboard focus; nothing when `text` is empty, null or undefined.
 */
export const tooltip: Action<Element, string | null | undefined> = (node, text) => {
  watchInput();
  const tip = new Tip(node, text ?? "");
  return {
    update: (next) => tip.update(next ?? ""),
    destroy: () => tip.destroy(),
  };
};
