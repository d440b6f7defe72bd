import { fireEvent, render, screen, within } from "@testing-library/svelte";
import { describe, expect, it, vi } from "vitest";
import QueuePanel from "./QueuePanel.svelte";
import { summary } from "../test/runFixtures";
import { setLocale } from "../lib/i18n/index.svelte";
import { statusHeadline } from "../lib/wording";
import type { QueueEntry, QueueState, QueueView } from "../lib/watchTypes";

let nextId = 0;
const entry = (state: QueueState, over: Partial<QueueEntry> = {}): QueueEntry => ({
  id: ++nextId,
  session: `2026-05-14_16035${nextId}_checkout`,
  crash_id: `c${nextId}`,
  label: `NPE in Cart ${nextId}`,
  state,
  ...over,
});

function setup(queue: QueueView) {
  const callbacks = {
    onPause: vi.fn(),
    onResume: vi.fn(),
    onMove: vi.fn(),
    onCancel: vi.fn(),
    onCancelAll: vi.fn(),
  };
  render(QueuePanel, { queue, ...callbacks });
  return callbacks;
}

const rows = () => screen.getAllByTestId("queue-entry");
const stateOf = (row: HTMLElement) => within(row).getByTestId("queue-state");

describe("QueuePanel", () => {
  it("lists the entries in order with their crash (label, else id) and session", () => {
    const a = entry({ state: "waiting" });
    const b = entry({ state: "waiting" }, { label: null, crash_id: "f00d" });
    setup({ entries: [a, b], paused: false, running: false });
    expect(rows()).toHaveLength(2);
    expect(rows()[0]).toHaveTextContent(a.label!);
    expect(rows()[0]).toHaveTextContent(a.session);
    expect(rows()[1]).toHaveTextContent("f00d");
    expect(rows()[1]).toHaveTextContent(b.session);
  });

  it("shows a waiting entry", () => {
    setup({ entries: [entry({ state: "waiting" })], paused: false, running: false });
    expect(stateOf(rows()[0]!)).toHaveTextContent("Waiting");
  });

  it("shows a running entry's replays as a progress bar, and its device once it has one", () => {
    setup({
      entries: [entry({ state: "running", evidence_session: "ev-1", device: "sim-2", attempts: 7, max_replays: 30 })],
      paused: false,
      running: true,
    });
    expect(stateOf(rows()[0]!)).toHaveTextContent("Running on sim-2: replay 7 of at most 30");
    const bar = screen.getByRole("progressbar", { name: "Replays used" });
    expect(bar).toHaveAttribute("value", "7");
    expect(bar).toHaveAttribute("max", "30");
  });

  it("words a finished entry as the result does, never calling an unproven path minimal", () => {
    const unproven = { ...summary, status: "unproven" as const };
    setup({
      entries: [entry({ state: "finished", summary }), entry({ state: "finished", summary: unproven })],
      paused: false,
      running: false,
    });
    expect(stateOf(rows()[0]!)).toHaveTextContent("Minimal path found: 4 → 3 steps");
    expect(stateOf(rows()[0]!).textContent?.trim()).toBe(statusHeadline(summary));
    expect(stateOf(rows()[1]!)).toHaveTextContent("Shortest reproducing path so far: 4 → 3 steps (minimality not proven)");
  });

  it("words a refused entry as the window words a refusal, with what to choose and the detail", () => {
    setup({
      entries: [
        entry({ state: "failed", refusal: { kind: "device_not_found", device: "sim-1", devices: [{ id: "labA/sim-1", name: "Pixel 7" }] } }),
        entry({ state: "failed", refusal: { kind: "session_unusable", detail: "steps.jsonl line 3 is not JSON" } }),
        entry({ state: "failed", refusal: { kind: "no_device" } }),
      ],
      paused: false,
      running: false,
    });
    const [a, b, c] = rows();
    expect(stateOf(a!)).toHaveTextContent("The run was refused.");
    expect(stateOf(a!)).toHaveTextContent("sim-1 is not a connected Android device: choose one that is.");
    expect(stateOf(b!)).toHaveTextContent("The run was refused. Steps.jsonl line 3 is not JSON");
    expect(stateOf(c!).textContent?.trim()).toBe("The run was refused.");
  });

  it("shows cancelled and skipped entries, the skipped one with its evidence session", () => {
    setup({
      entries: [
        entry({ state: "cancelled" }),
        entry({ state: "skipped", reason: { kind: "already_minimized", evidence_session: "2026-05-20_101500_minimize" } }),
      ],
      paused: false,
      running: false,
    });
    expect(stateOf(rows()[0]!)).toHaveTextContent("Cancelled");
    expect(stateOf(rows()[1]!)).toHaveTextContent("Skipped: already minimized (evidence 2026-05-20_101500_minimize)");
  });

  it("moves only waiting entries, past their waiting neighbours", async () => {
    const running = entry({ state: "running", evidence_session: null, device: null, attempts: 1, max_replays: 30 });
    const first = entry({ state: "waiting" });
    const second = entry({ state: "waiting" });
    const done = entry({ state: "cancelled" });
    const { onMove } = setup({ entries: [running, first, second, done], paused: false, running: true });

    expect(within(rows()[0]!).queryByRole("button", { name: /^Move/ })).toBeNull();
    expect(within(rows()[3]!).queryByRole("button", { name: /^Move/ })).toBeNull();

    const up = (row: HTMLElement) => within(row).getByRole("button", { name: /^Move .* up$/ });
    const down = (row: HTMLElement) => within(row).getByRole("button", { name: /^Move .* down$/ });
    expect(up(rows()[1]!)).toBeDisabled();
    expect(down(rows()[2]!)).toBeDisabled();
    expect(up(rows()[1]!)).toHaveAccessibleName(`Move ${first.label} · ${first.session} up`);

    await fireEvent.click(down(rows()[1]!));
    expect(onMove).toHaveBeenLastCalledWith(first.id, 2);
    await fireEvent.click(up(rows()[2]!));
    expect(onMove).toHaveBeenLastCalledWith(second.id, 1);
    expect(onMove).toHaveBeenCalledTimes(2);
  });

  it("cancels a waiting or running entry, and no other", async () => {
    const running = entry({ state: "running", evidence_session: "ev-1", device: "sim-1", attempts: 3, max_replays: 30 });
    const waiting = entry({ state: "waiting" });
    const finished = entry({ state: "finished", summary });
    const { onCancel } = setup({ entries: [running, waiting, finished], paused: false, running: true });
    expect(within(rows()[2]!).queryByRole("button", { name: /^Cancel/ })).toBeNull();
    await fireEvent.click(within(rows()[0]!).getByRole("button", { name: `Cancel ${running.label} · ${running.session}` }));
    expect(onCancel).toHaveBeenLastCalledWith(running.id);
    await fireEvent.click(within(rows()[1]!).getByRole("button", { name: /^Cancel/ }));
    expect(onCancel).toHaveBeenLastCalledWith(waiting.id);
  });

  it("pauses a running queue", async () => {
    const { onPause, onResume } = setup({ entries: [entry({ state: "waiting" })], paused: false, running: false });
    expect(screen.queryByRole("button", { name: "Resume" })).toBeNull();
    await fireEvent.click(screen.getByRole("button", { name: "Pause" }));
    expect(onPause).toHaveBeenCalledTimes(1);
    expect(onResume).not.toHaveBeenCalled();
  });

  it("offers no Pause once nothing waits: the last item running or every item ended", () => {
    setup({
      entries: [
        entry({ state: "finished", summary }),
        entry({ state: "running", evidence_session: null, device: null, attempts: 2, max_replays: 30 }),
      ],
      paused: false,
      running: true,
    });
    expect(screen.getByRole("button", { name: "Pause" })).toBeDisabled();
    expect(stateOf(rows()[1]!)).toHaveTextContent("Running: replay 2 of at most 30");
    expect(screen.getByRole("button", { name: "Cancel all" })).toBeEnabled();
  });

  it("resumes a paused queue and says what pausing does", async () => {
    const { onPause, onResume } = setup({
      entries: [entry({ state: "running", evidence_session: null, device: null, attempts: 2, max_replays: 30 }), entry({ state: "waiting" })],
      paused: true,
      running: true,
    });
    expect(screen.queryByRole("button", { name: "Pause" })).toBeNull();
    expect(screen.getByRole("status")).toHaveTextContent("the run in progress goes on");
    await fireEvent.click(screen.getByRole("button", { name: "Resume" }));
    expect(onResume).toHaveBeenCalledTimes(1);
    expect(onPause).not.toHaveBeenCalled();
  });

  it("cancels all, when anything is left to cancel", async () => {
    const { onCancelAll } = setup({ entries: [entry({ state: "waiting" })], paused: false, running: false });
    await fireEvent.click(screen.getByRole("button", { name: "Cancel all" }));
    expect(onCancelAll).toHaveBeenCalledTimes(1);
  });

  it("offers no Cancel all when nothing is waiting or running, and says an empty queue is empty", () => {
    setup({ entries: [], paused: false, running: false });
    expect(screen.getByRole("button", { name: "Cancel all" })).toBeDisabled();
    expect(screen.getByText("No run is queued.")).toBeInTheDocument();
  });

  it("speaks the window's language", () => {
    setLocale("zh-CN", false);
    setup({ entries: [entry({ state: "waiting" }), entry({ state: "finished", summary })], paused: false, running: false });
    expect(stateOf(rows()[0]!)).toHaveTextContent("等待中");
    expect(stateOf(rows()[1]!)).toHaveTextContent("已找到最小路径");
    expect(screen.getByRole("button", { name: "全部取消" })).toBeInTheDocument();
  });
});
