import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/svelte";
import { clearMocks } from "@tauri-apps/api/mocks";
import { webcrypto } from "node:crypto";
import { afterEach } from "vitest";

// @tauri-apps/api's mocks draw callback ids from crypto.getRandomValues.
if (!window.crypto?.getRandomValues) {
  Object.defineProperty(window, "crypto", { value: webcrypto });
}
// jsdom has no layout; the list scrolls the selected option into view.
Element.prototype.scrollIntoView ??= function scrollIntoView() {};

afterEach(() => {
  cleanup();
  clearMocks();
});
