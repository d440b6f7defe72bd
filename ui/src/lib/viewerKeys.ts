// What a key does in the screenshot viewer (Escape and Tab aside, which the dialog
// handles itself). With a mask selected the arrows move it; otherwise ← and → walk the
// screenshots. Kept pure so the keyboard map is testable without a DOM.
export type ViewerKey =
  | { kind: "walk"; step: -1 | 1 }
  | { kind: "zoom"; to: "in" | "out" | "fit" | "actual" }
  | { kind: "delete" }
  | { kind: "nudge"; dx: number; dy: number; resize: boolean };

type Keyish = Pick<KeyboardEvent, "key" | "shiftKey" | "altKey" | "ctrlKey" | "metaKey">;

const ARROWS: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

const ZOOM: Record<string, "in" | "out" | "fit" | "actual"> = { "+": "in", "=": "in", "-": "out", "0": "fit", "1": "actual" };

export function viewerKey(event: Keyish, maskSelected: boolean): ViewerKey | null {
  // Ctrl/Cmd combinations belong to the system (copy, the browser's own zoom…).
  if (event.ctrlKey || event.metaKey) return null;
  if (!maskSelected && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
    return { kind: "walk", step: event.key === "ArrowLeft" ? -1 : 1 };
  }
  const zoom = ZOOM[event.key];
  if (zoom) return { kind: "zoom", to: zoom };
  if (!maskSelected) return null;
  if (event.key === "Delete" || event.key === "Backspace") return { kind: "delete" };
  const arrow = ARROWS[event.key];
  if (!arrow) return null;
  const step = event.shiftKey ? 10 : 1;
  return { kind: "nudge", dx: arrow[0] * step, dy: arrow[1] * step, resize: event.altKey };
}

/** Keeps Tab inside `dialog`; true when it moved the focus itself. */
export function trapTab(event: KeyboardEvent, dialog: HTMLElement): boolean {
  const items = [
    ...dialog.querySelectorAll<HTMLElement>("button:not(:disabled), select:not(:disabled), input:not(:disabled), [tabindex='0']"),
  ];
  const first = items[0];
  const last = items[items.length - 1];
  if (!first || !last) return false;
  if (event.shiftKey && (document.activeElement === first || document.activeElement === dialog)) {
    last.focus();
    return true;
  }
  if (!event.shiftKey && document.activeElement === last) {
    first.focus();
    return true;
  }
  return false;
}

/** Whether a key pressed in `target` is the control's own: a form field keeps its
 *  arrows, digits and Delete. A checkbox has no use for them (Space toggles it), so
 *  ←/→ still walk the pictures while "Checked" has the focus. */
export function keyBelongsToField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLInputElement) return target.type !== "checkbox";
  return target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;
}

/** Whether the focus has left `dialog`'s usable controls: it is on nothing (the
 *  element that held it was removed), outside the dialog, or on a control that was
 *  just disabled. Keys would then reach no handler. */
export function focusLost(dialog: HTMLElement): boolean {
  const active = document.activeElement;
  if (!active || active === document.body || !dialog.contains(active)) return true;
  return (active as HTMLButtonElement).disabled === true;
}

/** Puts the focus back in `dialog` when it was lost: on the first of `preferred` (CSS
 *  selectors, in order) that is there and enabled, else on the dialog itself, whose own
 *  key handler (Escape, ←/→) then works. True when it moved the focus. */
export function keepFocusIn(dialog: HTMLElement, preferred: readonly string[] = []): boolean {
  if (!focusLost(dialog)) return false;
  for (const selector of preferred) {
    const el = dialog.querySelector<HTMLElement>(selector);
    if (el && !(el as HTMLButtonElement).disabled) {
      el.focus();
      return true;
    }
  }
  dialog.focus();
  return true;
}
