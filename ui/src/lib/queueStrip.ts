// Whether the queue is folded to a strip: the tester's choice, kept for the next queue
// and the next start (localStorage; a refused storage only forgets it).
export const QUEUE_STRIP_KEY = "whittle.queueStrip";

export function loadQueueStrip(): boolean {
  try {
    return globalThis.localStorage?.getItem(QUEUE_STRIP_KEY) === "1";
  } catch {
    return false;
  }
}

export function saveQueueStrip(strip: boolean): void {
  try {
    globalThis.localStorage?.setItem(QUEUE_STRIP_KEY, strip ? "1" : "0");
  } catch {
    // Not kept; the choice still holds while the window is open.
  }
}
