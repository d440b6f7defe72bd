// jsdom has no layout. The mask editor's image (1080×1920) is shown at half size with its
// top-left corner at (100, 50): client (x, y) is image ((x − 100)·2, (y − 50)·2).
export function layOut(svg: Element) {
  Object.defineProperty(svg, "getBoundingClientRect", {
    value: () => ({ left: 100, top: 50, width: 540, height: 960, right: 640, bottom: 1010, x: 100, y: 50 }),
  });
}
