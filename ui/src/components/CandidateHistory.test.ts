import { cleanup, fireEvent, render, screen, within } from "@testing-library/svelte";
import { describe, expect, it, vi } from "vitest";
import CandidateHistory from "./CandidateHistory.svelte";
import { evidenceScope } from "../lib/thumbnails";
import type { AttemptRow } from "../lib/runScreenState";
import type { AttemptVerdict } from "../lib/runTypes";
import { shot } from "../test/runFixtures";
import { expectTexts } from "../test/text";

function rowsOf(n: number): AttemptRow[] {
  return Array.from({ length: n }, (_, i) => {
    const attempt = i + 1;
    const verdict: AttemptVerdict =
      attempt % 10 === 0
        ? { kind: "failed", cause: { kind: "tool", step: null, detail: "device lost" } }
        : attempt % 3 === 0
          ? { kind: "reproduced", signature: "51defb0ee406", label: null }
          : { kind: "not_reproduced", reason: "no_crash", step: null };
    return {
      attempt,
      phase: "one_by_one",
      candidate: Array.from({ length: 12 }, (_, k) => k + 1).filter((k) => k !== (attempt % 12) + 1),
      verdict,
      observed: [],
      durationMs: 1500,
      screenshot: shot(attempt),
      screenshotRedacted: false,
      screenshotBeforeStep: null,
      device: attempt % 2 === 0 ? "sim-2" : "sim-1",
    } satisfies AttemptRow;
  });
}

describe("CandidateHistory", () => {
  it("lists every attempt in the page's own scroll (no inner scroll box)", () => {
    render(CandidateHistory, { rows: rowsOf(300), onopen: () => {} });
    expect(screen.getAllByTestId("history-row")).toHaveLength(300);
    expect(screen.getByRole("list", { name: "Attempts" })).toBeInTheDocument();
    expect(within(screen.getByRole("group", { name: "Show attempts" })).getByRole("button", { name: /All/ })).toHaveTextContent("300");
  });

  it("says what a candidate removed, in ranges, and shows the whole of it on expand", async () => {
    const all = Array.from({ length: 12 }, (_, k) => k + 1);
    const rows: AttemptRow[] = [
      { ...rowsOf(1)[0]!, attempt: 1, candidate: all },
      { ...rowsOf(1)[0]!, attempt: 2, candidate: [1, 6, 7, 8, 10, 11, 12] },
      { ...rowsOf(1)[0]!, attempt: 3, candidate: [] },
    ];
    render(CandidateHistory, { rows, candidates: all, onopen: () => {} });
    const [first, second, third] = screen.getAllByTestId("history-row");
    expect(first).toHaveTextContent("all steps");
    expect(second).toHaveTextContent("removed: 2–5, 9");
    expect(third).toHaveTextContent("launch only");
    await fireEvent.click(within(second!).getByTestId("history-expand"));
    const full = within(second!).getByTestId("history-full");
    expect(full).toHaveTextContent("Replayed steps: 1, 6–8, 10–12");
    expect(full).toHaveTextContent("Removed steps: 2–5, 9");
    expect(within(second!).getByTestId("history-expand")).toHaveAttribute("aria-expanded", "true");
  });

  it("shows the crashes the drain saw with their stacks, target first", async () => {
    const row: AttemptRow = {
      ...rowsOf(1)[0]!,
      verdict: { kind: "not_reproduced", reason: "different_crash", step: null },
      observed: [
        {
          fingerprint: "aaaaaaaaaaaa",
          label: "IllegalStateException @ Cart.add",
          kind: "java",
          process: "com.example.shop",
          is_target: false,
          stack: ["java.lang.IllegalStateException: cart full", " at com.example.shop.Cart.add(Cart.kt:9)"],
        },
      ],
    };
    render(CandidateHistory, { rows: [row], onopen: () => {} });
    expect(screen.getByTestId("history-row")).toHaveTextContent("A different crash");
    await fireEvent.click(screen.getByTestId("history-expand"));
    const panel = screen.getByTestId("stack-panel");
    expect(panel).toHaveTextContent("IllegalStateException @ Cart.add");
    expect(panel).toHaveTextContent("another crash");
    expect(panel).toHaveTextContent("Signature aaaaaaaaaaaa");
    expect(panel.querySelector("pre")!.textContent).toContain("at com.example.shop.Cart.add(Cart.kt:9)");
  });

  it("counts a cancelled attempt as cancelled, not as a failure", async () => {
    const rows = rowsOf(3);
    rows[2] = { ...rows[2]!, verdict: { kind: "cancelled" } };
    render(CandidateHistory, { rows, onopen: () => {} });
    expect(screen.getByRole("button", { name: /^Failed/ })).toHaveTextContent("0");
    expect(screen.getByRole("button", { name: /^Cancelled/ })).toHaveTextContent("1");
    expect(screen.getAllByTestId("history-row")[2]).toHaveTextContent("Stopped by Cancel (not an error)");
  });

  it("offers a filter for guesses stopped as unneeded only when there are some", async () => {
    const rows = rowsOf(4);
    render(CandidateHistory, { rows, onopen: () => {} });
    expect(screen.queryByRole("button", { name: /^Not needed/ })).toBeNull();
    cleanup();
    rows[3] = { ...rows[3]!, verdict: { kind: "unneeded" } };
    render(CandidateHistory, { rows, onopen: () => {} });
    await fireEvent.click(screen.getByRole("button", { name: /^Not needed/ }));
    const shown = screen.getAllByTestId("history-row");
    expect(shown.map((r) => r.dataset.attempt)).toEqual([String(rows[3]!.attempt)]);
    expect(shown[0]).toHaveTextContent("Stopped early; outside the budget");
    expect(screen.getByRole("button", { name: /^Failed/ })).toHaveTextContent("0");
  });

  it("shows an attempt's facts in words", () => {
    const all = Array.from({ length: 12 }, (_, k) => k + 1);
    render(CandidateHistory, { rows: rowsOf(12), candidates: all, onopen: () => {} });
    const [first] = screen.getAllByTestId("history-row");
    // Replays on two devices: each row names its own.
    expectTexts(first, ["One by one", "Not reproduced", "No crash", "1.5 s", "removed: 2", "sim-1"]);
    expect(screen.getAllByTestId("history-row")[1]).toHaveTextContent("sim-2");
  });

  it("names no device when the whole run used one", () => {
    const rows = rowsOf(3).map((r) => ({ ...r, device: "sim-1" }));
    render(CandidateHistory, { rows, onopen: () => {} });
    expect(screen.getAllByTestId("history-row")[0]).not.toHaveTextContent("sim-1");
  });

  it("filters by verdict", async () => {
    render(CandidateHistory, { rows: rowsOf(30), onopen: () => {} });
    await fireEvent.click(screen.getByRole("button", { name: /^Failed/ }));
    expect(screen.getAllByTestId("history-row").map((r) => r.dataset.attempt)).toEqual(["10", "20", "30"]);
    expect(screen.getAllByTestId("history-row")[0]).toHaveTextContent("Device or server error: device lost");
    await fireEvent.click(screen.getByRole("button", { name: /^Reproduced/ }));
    expect(screen.getAllByTestId("history-row").every((r) => r.textContent!.includes("Reproduced"))).toBe(true);
    expect(screen.getAllByTestId("history-row")[0]).toHaveTextContent("51defb0ee406");
    expect(screen.getByRole("button", { name: /^Reproduced/ })).toHaveAttribute("aria-pressed", "true");
  });

  it("opens an attempt's screenshot from its button and hides omitted ones", async () => {
    const onopen = vi.fn();
    const rows = rowsOf(3);
    render(CandidateHistory, { rows, onopen, omitted: new Set([shot(2)]) });
    const buttons = screen.getAllByTestId("open-screenshot");
    expect(buttons).toHaveLength(2);
    await fireEvent.click(buttons[1]!);
    expect(onopen).toHaveBeenCalledWith(rows[2]);
    expect(screen.getAllByTestId("history-row")[1]).toHaveTextContent("omitted");
  });

  it("says when there are no attempts yet", () => {
    render(CandidateHistory, { rows: [], onopen: () => {} });
    expect(screen.getByText(/No attempts yet/)).toBeInTheDocument();
  });

  it("loads previews again when the version changes", async () => {
    const loaded: string[] = [];
    const load = async (name: string) => {
      loaded.push(name);
      return `data:image/png;base64,${btoa(name)}`;
    };
    const scope = evidenceScope("/ws", "2026-05-20_101500_minimize-checkout-npe");
    const { rerender } = render(CandidateHistory, { rows: rowsOf(5), onopen: () => {}, thumbnails: { scope, load } });
    await vi.waitFor(() => expect(screen.getAllByTestId("thumbnail")[0]).toHaveAttribute("data-loaded", "true"));
    const first = loaded.length;
    expect(new Set(loaded).size).toBe(first);
    await rerender({ rows: rowsOf(5), onopen: () => {}, thumbnails: { scope, load, version: 1 } });
    await vi.waitFor(() => expect(loaded.length).toBe(2 * first));
  });

  it("never shows another run's screenshot of the same attempt number", async () => {
    // Two evidence sessions, both with screenshots/attempt-001.png … but different images.
    const source = (session: string) => ({
      scope: evidenceScope("/ws", session),
      load: async (name: string) => `data:image/png;base64,${btoa(`${session}/${name}`)}`,
    });
    const rows = rowsOf(3);
    const { rerender } = render(CandidateHistory, { rows, onopen: () => {}, thumbnails: source("run-a") });
    const imageOf = async (attempt: string) => {
      const row = screen.getAllByTestId("history-row").find((r) => r.dataset.attempt === attempt)!;
      await vi.waitFor(() => expect(row.querySelector("img")).not.toBeNull());
      return atob(row.querySelector("img")!.getAttribute("src")!.split(",")[1]!);
    };
    expect(await imageOf("1")).toBe(`run-a/${rows[0]!.screenshot}`);
    await rerender({ rows, onopen: () => {}, thumbnails: source("run-b") });
    await vi.waitFor(async () => expect(await imageOf("1")).toBe(`run-b/${rows[0]!.screenshot}`));
    // And back: each session's preview is its own, cached under its own key.
    await rerender({ rows, onopen: () => {}, thumbnails: source("run-a") });
    await vi.waitFor(async () => expect(await imageOf("1")).toBe(`run-a/${rows[0]!.screenshot}`));
  });

  it("marks the previews of checked screenshots", async () => {
    const rows = rowsOf(3);
    render(CandidateHistory, {
      rows,
      onopen: () => {},
      thumbnails: { scope: evidenceScope("/ws", "e"), load: async () => "data:image/png;base64,AA==" },
      reviewed: new Set([rows[1]!.screenshot!]),
    });
    const marked = screen.getAllByTestId("history-row").map((r) => r.querySelector(".checked") !== null);
    expect(marked).toEqual([false, true, false]);
  });
});

