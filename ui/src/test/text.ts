import { expect } from "vitest";

/** Asserts that `element` shows each of `texts` (a row or a card that words several facts). */
export function expectTexts(element: HTMLElement | undefined, texts: Array<string | RegExp>): void {
  for (const text of texts) expect(element).toHaveTextContent(text);
}
