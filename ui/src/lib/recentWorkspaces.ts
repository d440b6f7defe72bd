// The last few workspaces opened, newest first, remembered across launches. Storage may
// be unavailable or full; remembering is a convenience, so failures are ignored.

export const RECENT_KEY = "whittle.recentWorkspaces";
export const RECENT_LIMIT = 5;

type Store = Pick<Storage, "getItem" | "setItem">;

function defaultStore(): Store | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export function loadRecent(store: Store | null = defaultStore()): string[] {
  if (!store) return [];
  try {
    const parsed: unknown = JSON.parse(store.getItem(RECENT_KEY) ?? "[]");
    if (!Array.isArray(parsed)) return [];
    // Storage is editable by anyone with devtools; keep only non-empty strings.
    return parsed.filter((p): p is string => typeof p === "string" && p !== "").slice(0, RECENT_LIMIT);
  } catch {
    return [];
  }
}

/** Puts `path` first (once) and keeps the newest RECENT_LIMIT; returns the new list. */
export function rememberWorkspace(path: string, store: Store | null = defaultStore()): string[] {
  const next = [path, ...loadRecent(store).filter((p) => p !== path)].slice(0, RECENT_LIMIT);
  try {
    store?.setItem(RECENT_KEY, JSON.stringify(next));
  } catch {
    // Quota or privacy mode: the list still holds for this window.
  }
  return next;
}
