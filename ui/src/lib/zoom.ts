// Zoom levels of the screenshot viewer. "Fit" (null) shows the whole image in the window;
// a number is the scale against the image's own pixels (1 = 100 %, one image pixel per
// CSS pixel). Stepping from Fit starts at the scale Fit happened to show.
export type Zoom = number | null;

export const ZOOM_STEPS = [0.1, 0.2, 0.25, 0.33, 0.5, 0.67, 0.75, 1, 1.25, 1.5, 2, 3, 4] as const;
const MIN = 0.1;
const MAX = 4;

/** The scale actually on screen: `fitScale` when fitting. */
export function effectiveScale(zoom: Zoom, fitScale: number): number {
  return zoom ?? (fitScale > 0 ? fitScale : 1);
}

/** The next step up from what is shown (a small tolerance so 0.999 does not stay at 1). */
export function zoomIn(zoom: Zoom, fitScale: number): number {
  const now = effectiveScale(zoom, fitScale);
  return ZOOM_STEPS.find((s) => s > now * 1.01) ?? MAX;
}

export function zoomOut(zoom: Zoom, fitScale: number): number {
  const now = effectiveScale(zoom, fitScale);
  return [...ZOOM_STEPS].reverse().find((s) => s < now * 0.99) ?? MIN;
}

/** "Fit", or the scale as a whole percentage. */
export function zoomPercent(zoom: Zoom): number | null {
  return zoom === null ? null : Math.round(zoom * 100);
}
