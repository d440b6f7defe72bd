// Previews are fetched once per key and shared by every row that shows them; a key
// carries a version so that re-masked screenshots are fetched again.
const cache = new Map<string, Promise<string>>();

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

export function clearThumbnails(): void {
  cache.clear();
}
