import { fireEvent, render, screen } from "@testing-library/svelte";
import { createRawSnippet } from "svelte";
import { describe, expect, it } from "vitest";
import VirtualList from "./VirtualList.svelte";

type Item = { id: number };
const items: Item[] = Array.from({ length: 1000 }, (_, i) => ({ id: i + 1 }));
const row = createRawSnippet<[Item, number]>((item) => ({
  render: () => `<span class="cell">row ${item().id}</span>`,
}));

function shownIds(): number[] {
  return screen.getAllByRole("listitem").map((li) => Number(li.textContent!.replace("row ", "")));
}

describe("VirtualList", () => {
  it("renders only the rows in view plus a small overscan", () => {
    render(VirtualList<Item>, { items, key: (i: Item) => i.id, row, label: "Rows", rowHeight: 40, height: 400, overscan: 2 });
    expect(shownIds()).toEqual(Array.from({ length: 14 }, (_, i) => i + 1));
    const list = screen.getByRole("list", { name: "Rows" });
    expect((list.firstElementChild as HTMLElement).style.height).toBe("40000px");
  });

  it("moves the window as the viewport scrolls and keeps row positions for assistive tech", async () => {
    render(VirtualList<Item>, { items, key: (i: Item) => i.id, row, label: "Rows", rowHeight: 40, height: 400, overscan: 2 });
    const list = screen.getByRole("list", { name: "Rows" });
    list.scrollTop = 40 * 500;
    await fireEvent.scroll(list);
    const ids = shownIds();
    expect(ids[0]).toBe(499);
    expect(ids).toContain(510);
    expect(ids).toHaveLength(14);
    expect(screen.getAllByRole("listitem")[0]!.getAttribute("aria-posinset")).toBe("499");
    expect(screen.getAllByRole("listitem")[0]!.getAttribute("aria-setsize")).toBe("1000");
  });

  it("shrinks to its content when there are few rows", () => {
    render(VirtualList<Item>, { items: items.slice(0, 3), key: (i: Item) => i.id, row, label: "Rows", rowHeight: 40, height: 400 });
    expect(shownIds()).toEqual([1, 2, 3]);
    expect(screen.getByRole("list").style.height).toBe("120px");
  });
});
