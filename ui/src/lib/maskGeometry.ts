// Rectangle arithmetic for the mask editor, in image pixels. Every result is clamped to
// the image and has whole-pixel coordinates, because the backend burns exactly these.
import type { MaskRect } from "./runTypes";

export type Size = { width: number; height: number };
export type Point = { x: number; y: number };
type Box = { left: number; top: number; width: number; height: number };

export const MIN_SIZE = 4;
export const USER_REASON = "added by reviewer";

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** A pointer position on the displayed image, in image pixels (clamped to the image). */
export function toImagePoint(clientX: number, clientY: number, box: Box, image: Size): Point {
  if (box.width <= 0 || box.height <= 0) return { x: 0, y: 0 };
  return {
    x: Math.round(clamp(((clientX - box.left) / box.width) * image.width, 0, image.width)),
    y: Math.round(clamp(((clientY - box.top) / box.height) * image.height, 0, image.height)),
  };
}

/** The rectangle spanned by a drag from `a` to `b`, whichever way it went. */
export function rectFromDrag(a: Point, b: Point, reason = USER_REASON): MaskRect {
  return {
    x: Math.min(a.x, b.x),
    y: Math.min(a.y, b.y),
    w: Math.abs(a.x - b.x),
    h: Math.abs(a.y - b.y),
    reason,
  };
}

export function isUsable(rect: MaskRect): boolean {
  return rect.w >= MIN_SIZE && rect.h >= MIN_SIZE;
}

/** Moved by (dx, dy), kept whole inside the image. */
export function moveRect(rect: MaskRect, dx: number, dy: number, image: Size): MaskRect {
  return {
    ...rect,
    x: Math.round(clamp(rect.x + dx, 0, Math.max(0, image.width - rect.w))),
    y: Math.round(clamp(rect.y + dy, 0, Math.max(0, image.height - rect.h))),
  };
}

/** The bottom-right corner moved by (dw, dh); never smaller than MIN_SIZE nor past the image. */
export function resizeRect(rect: MaskRect, dw: number, dh: number, image: Size): MaskRect {
  return {
    ...rect,
    w: Math.round(clamp(rect.w + dw, MIN_SIZE, image.width - rect.x)),
    h: Math.round(clamp(rect.h + dh, MIN_SIZE, image.height - rect.y)),
  };
}

/** A starter rectangle in the middle of the image, for adding a mask from the keyboard. */
export function centeredRect(image: Size): MaskRect {
  const w = Math.max(MIN_SIZE, Math.round(image.width / 4));
  const h = Math.max(MIN_SIZE, Math.round(image.height / 10));
  return {
    x: Math.round((image.width - w) / 2),
    y: Math.round((image.height - h) / 2),
    w,
    h,
    reason: USER_REASON,
  };
}
