// The viewer's preview of unapplied masks: the backend renders them with the very code
// Apply burns with, and a rendering is shown only while it still matches the masks and
// style on screen (a stale one would show something Apply will not do).
import { api } from "./api";
import type { MaskPatchView, MaskPreviewRequest } from "./runTypes";

/** How long the masks must stay still before the backend is asked (a drag moves them). */
const SETTLE_MS = 150;

export class MaskPreview {
  #patches = $state.raw<MaskPatchView[]>([]);
  #renderedFor = $state("");
  failed = $state(false);

  /** The patches for `request`, or none while they are being rendered. */
  patchesFor(request: MaskPreviewRequest): MaskPatchView[] {
    return this.#renderedFor === keyOf(request) ? this.#patches : [];
  }

  /** Asks for a rendering of `request` once it settles; returns the cancel function. */
  request(request: MaskPreviewRequest): () => void {
    this.failed = false;
    if (request.rects.length === 0) return () => {};
    const key = keyOf(request);
    const timer = setTimeout(async () => {
      try {
        const rendered = await api.previewMasks(request);
        this.#patches = rendered;
        this.#renderedFor = key;
      } catch {
        this.failed = true;
      }
    }, SETTLE_MS);
    return () => clearTimeout(timer);
  }
}

function keyOf(r: MaskPreviewRequest): string {
  return JSON.stringify([r.workspace, r.evidence_session, r.screenshot, r.style, r.rects.map(({ x, y, w, h }) => [x, y, w, h])]);
}
