// The finished run's keyboard shortcuts, listed in the outcome banner: Alt+A goes to
// Approve, Alt+E to Export, from anywhere in the run view (the history between the
// banner and them costs dozens of Tab stops). Kept pure so the map is testable.
export type ResultJump = "approve" | "export";

type Keyish = Pick<KeyboardEvent, "key" | "code" | "shiftKey" | "altKey" | "ctrlKey" | "metaKey">;

// By the physical key too: Alt+A types "å" on some layouts, and an IME may report
// another character.
const JUMPS: Array<[ResultJump, string, string]> = [
  ["approve", "KeyA", "a"],
  ["export", "KeyE", "e"],
];

export function resultJump(event: Keyish): ResultJump | null {
  if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return null;
  const hit = JUMPS.find(([, code, key]) => event.code === code || event.key.toLowerCase() === key);
  return hit ? hit[0] : null;
}
