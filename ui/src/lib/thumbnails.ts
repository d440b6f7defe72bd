// Previews are fetched once per key and shared by every row that shows them. A key names
// the image completely — workspace, session and file — because attempt numbers and step
// files repeat from one run (or session) to the next: keyed by file name alone, a row
// showed an earlier run's attempt with the same number. A key also carries a version, so
// re-masked screenshots are fetched again.
const cache = new Map<string, Promise<string>>();

/** Where a session's images come from, and the scope their cache keys live in. */
export type ImageSource = {
  /** Identifies the session completely (see `evidenceScope` / `sessionScope`). */
  scope: string;
  /** Bumped when the images change (masks burned in). */
  version?: number;
  load: (name: string) => Promise<string>;
};

// A separator no path or session id can contain.
const SEP = "\u0000";

/** The scope of an evidence session's archived screenshots. */
export function evidenceScope(workspace: string, evidenceSession: string): string {
  return ["evidence", workspace, evidenceSession].join(SEP);
}

/** The scope of a recorded session's own step screenshots. */
export function sessionScope(workspace: string, sessionId: string): string {
  return ["session", workspace, sessionId].join(SEP);
}

/** The cache key of image `name` of `source`. */
export function thumbnailKey(source: Pick<ImageSource, "scope" | "version">, name: string): string {
  return [source.scope, name, `v${source.version ?? 0}`].join(SEP);
}

export function cachedThumbnail(key: string, load: () => Promise<string>): Promise<string> {
  let pending = cache.get(key);
  if (!pending) {
    pending = load();
    // A failure is not cached: the next row that shows it may try again.
    pending.catch(() => cache.delete(key));
    cache.set(key, pending);
  }
  return pending;
}

/** Drops every cached preview of `scope` (its images changed). */
export function forgetThumbnails(scope: string): void {
  for (const key of [...cache.keys()]) {
    if (key.startsWith(scope + SEP)) cache.delete(key);
  }
}

export function clearThumbnails(): void {
  cache.clear();
}
