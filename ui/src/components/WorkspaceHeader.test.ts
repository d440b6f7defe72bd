import { fireEvent, render, screen } from "@testing-library/svelte";
import { describe, expect, it, vi } from "vitest";
import WorkspaceHeader from "./WorkspaceHeader.svelte";

describe("WorkspaceHeader", () => {
  it("offers the other recent workspaces in a menu and picks one", async () => {
    const onpick = vi.fn();
    render(WorkspaceHeader, { workspace: "/a", recent: ["/a", "/b", "/c"], onchoose: () => {}, onpick });
    const trigger = screen.getByRole("button", { name: "Recent ▾" });
    expect(trigger).toHaveAttribute("aria-expanded", "false");
    await fireEvent.click(trigger);
    const items = screen.getAllByRole("menuitem");
    expect(items.map((i) => i.textContent)).toEqual(["/b", "/c"]);
    await fireEvent.click(items[1]!);
    expect(onpick).toHaveBeenCalledWith("/c");
    expect(screen.queryByRole("menu")).toBeNull();
  });

  it("moves through the menu with arrow keys and closes on Escape", async () => {
    render(WorkspaceHeader, { workspace: "/a", recent: ["/b", "/c"], onchoose: () => {}, onpick: () => {} });
    const trigger = screen.getByRole("button", { name: "Recent ▾" });
    await fireEvent.keyDown(trigger, { key: "ArrowDown" });
    const menu = await screen.findByRole("menu", { name: "Recent workspaces" });
    await new Promise((r) => setTimeout(r, 0));
    expect(document.activeElement).toHaveTextContent("/b");
    await fireEvent.keyDown(menu, { key: "ArrowDown" });
    expect(document.activeElement).toHaveTextContent("/c");
    await fireEvent.keyDown(menu, { key: "ArrowDown" });
    expect(document.activeElement).toHaveTextContent("/b");
    await fireEvent.keyDown(menu, { key: "Escape" });
    expect(screen.queryByRole("menu")).toBeNull();
    expect(document.activeElement).toBe(trigger);
  });

  it("is disabled when no other workspace was opened", () => {
    render(WorkspaceHeader, { workspace: "/a", recent: ["/a"], onchoose: () => {} });
    expect(screen.getByRole("button", { name: "Recent ▾" })).toBeDisabled();
  });
});
