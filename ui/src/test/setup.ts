import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/svelte";
import { clearMocks } from "@tauri-apps/api/mocks";
import { webcrypto } from "node:crypto";
import { afterEach } from "vitest";
import { setLocale } from "../lib/i18n/index.svelte";
import { clearThumbnails } from "../lib/thumbnails";

// @tauri-apps/api's mocks draw callback ids from crypto.getRandomValues.
if (!window.crypto?.getRandomValues) {
  Object.defineProperty(window, "crypto", { value: webcrypto });
}
// jsdom has no layout; the list scrolls the selected option into view.
Element.prototype.scrollIntoView ??= function scrollIntoView() {};

// jsdom has no PointerEvent; the mask editor reads pointer coordinates, which MouseEvent carries.
if (typeof window.PointerEvent === "undefined") {
  class PointerEventShim extends MouseEvent {
    readonly pointerId: number;
    readonly pointerType: string;
    constructor(type: string, init: PointerEventInit = {}) {
      super(type, init);
      this.pointerId = init.pointerId ?? 1;
      this.pointerType = init.pointerType ?? "mouse";
    }
  }
  Object.defineProperty(window, "PointerEvent", { value: PointerEventShim, configurable: true });
}

// Tests read English unless they switch; a switch never leaks into the next test.
setLocale("en", false);

afterEach(() => {
  cleanup();
  setLocale("en", false);
  clearMocks();
  localStorage.clear();
});

// Previews are cached for the whole page; each test starts with none.
afterEach(clearThumbnails);
