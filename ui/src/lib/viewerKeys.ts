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
