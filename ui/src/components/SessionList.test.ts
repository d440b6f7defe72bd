import { fireEvent, render, screen, within } from "@testing-library/svelte";
import { describe, expect, it, vi } from "vitest";
import SessionList from "./SessionList.svelte";
import { brokenExport, browse, checkoutNpe, sessions } from "../test/fixtures";

describe("SessionList", () => {
  it("lists every session with its facts", () => {
    render(SessionList, { sessions, selectedId: null, onselect: () => {} });
    const options = screen.getAllByRole("option");
    expect(options.map((o) => o.querySelector(".name")?.textContent)).toEqual([
      "broken-export",
      "browse-no-crash",
      "checkout-npe",
    ]);
    const npe = options[2]!;
    expect(npe).toHaveTextContent("May 14, 2026, 16:03");
    expect(npe).toHaveTextContent("android");
    expect(npe).toHaveTextContent("12 steps");
    expect(npe).toHaveTextContent("1 crash group");
    expect(within(npe).getByText("Failed")).toBeInTheDocument();
  });

  it("never calls an imported flow that has not run passed", () => {
    const imported = { ...browse, session_id: "2026-06-01_100000_imported", name: "imported", not_run: true };
    render(SessionList, { sessions: [imported, browse], selectedId: null, onselect: () => {} });
    const [flow, ran] = screen.getAllByRole("option");
    expect(within(flow!).getByText("Not run yet")).toBeInTheDocument();
    expect(within(flow!).queryByText("Passed")).toBeNull();
    expect(within(ran!).getByText("Passed")).toBeInTheDocument();
  });

  it("marks a session with an interrupted minimize run", () => {
    render(SessionList, {
      sessions,
      selectedId: null,
      onselect: () => {},
      interrupted: new Set([checkoutNpe.session_id]),
    });
    const options = screen.getAllByRole("option");
    expect(within(options[2]!).getByTestId("interrupted-run")).toHaveTextContent("Interrupted run");
    expect(within(options[1]!).queryByTestId("interrupted-run")).toBeNull();
  });

  it("flags a malformed session with a warning badge and its message, keeping the others", () => {
    render(SessionList, { sessions, selectedId: null, onselect: () => {} });
    const [broken, ok] = screen.getAllByRole("option");
    expect(within(broken!).getByText(/Malformed/)).toBeInTheDocument();
    expect(broken).toHaveTextContent(
      "steps.jsonl line 4: ends in the middle of a record (the file is truncated or still being written)",
    );
    expect(within(ok!).queryByText(/Malformed/)).toBeNull();
  });

  it("marks the selected option for assistive technology", () => {
    render(SessionList, { sessions, selectedId: browse.session_id, onselect: () => {} });
    const listbox = screen.getByRole("listbox", { name: "Sessions" });
    const selected = screen.getByRole("option", { selected: true });
    expect(selected).toHaveTextContent("browse-no-crash");
    expect(listbox.getAttribute("aria-activedescendant")).toBe(selected.id);
  });

  it("moves the selection with arrow keys, Home and End", async () => {
    const onselect = vi.fn();
    render(SessionList, { sessions, selectedId: browse.session_id, onselect });
    const listbox = screen.getByRole("listbox");
    await fireEvent.keyDown(listbox, { key: "ArrowDown" });
    await fireEvent.keyDown(listbox, { key: "ArrowUp" });
    await fireEvent.keyDown(listbox, { key: "End" });
    await fireEvent.keyDown(listbox, { key: "Home" });
    expect(onselect.mock.calls.map((c) => c[0])).toEqual([
      checkoutNpe.session_id,
      brokenExport.session_id,
      checkoutNpe.session_id,
      brokenExport.session_id,
    ]);
  });

  it("stays at the ends of the list", async () => {
    const onselect = vi.fn();
    render(SessionList, { sessions, selectedId: checkoutNpe.session_id, onselect });
    await fireEvent.keyDown(screen.getByRole("listbox"), { key: "ArrowDown" });
    expect(onselect).toHaveBeenCalledWith(checkoutNpe.session_id);
  });

  it("selects on click", async () => {
    const onselect = vi.fn();
    render(SessionList, { sessions, selectedId: null, onselect });
    await fireEvent.click(screen.getByText("checkout-npe"));
    expect(onselect).toHaveBeenCalledWith(checkoutNpe.session_id);
  });

  it("says so when the workspace has no sessions", () => {
    render(SessionList, { sessions: [], selectedId: null, onselect: () => {} });
    expect(screen.queryByRole("listbox")).toBeNull();
    expect(screen.getByText(/No sessions in this workspace/)).toBeInTheDocument();
  });
});
