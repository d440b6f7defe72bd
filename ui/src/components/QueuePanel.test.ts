import { cleanup, fireEvent, render, screen, within } from "@testing-library/svelte";
import { describe, expect, it, vi } from "vitest";
import QueuePanel from "./QueuePanel.svelte";
import { summary } from "../test/runFixtures";
import { setLocale } from "../lib/i18n/index.svelte";
import { statusHeadline } from "../lib/wording";
import type { LiveFrame, QueueEntry, QueueState, QueueView } from "../lib/watchTypes";
import { QUEUE_STRIP_KEY } from "../lib/queueStrip";

let nextId = 0;
const entry = (state: QueueState, over: Partial<QueueEntry> = {}): QueueEntry => ({
  id: ++nextId,
  session: `2026-05-14_16035${nextId}_checkout`,
  crash_id: `c${nextId}`,
  label: `NPE in Cart ${nextId}`,
  state,
  hint: null,
  ...over,
});

function setup(queue: QueueView, frames?: LiveFrame[]) {
  const callbacks = {
    onPause: vi.fn(),
    onResume: vi.fn(),
    onMove: vi.fn(),
    onCancel: vi.fn(),
    onCancelAll: vi.fn(),
    onOpen: vi.fn(),
  };
  const view = render(QueuePanel, { queue, frames, ...callbacks });
  return { ...callbacks, rerender: (next: QueueView, nextFrames?: LiveFrame[]) => view.rerender({ queue: next, frames: nextFrames, ...callbacks }) };
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
    expect(stateOf(rows()[0]!)).toHaveTextContent("Running on sim-2: 7 of at most 30 replays done");
    const bar = screen.getByRole("progressbar", { name: "Replays used" });
    expect(bar).toHaveAttribute("value", "7");
    expect(bar).toHaveAttribute("max", "30");
  });

  it("words a finished entry as the result does, never calling an unproven path minimal", () => {
    const unproven = { ...summary, status: "unproven" as const };
    setup({
      entries: [entry({ state: "finished", summary, took_ms: 41_000 }), entry({ state: "finished", summary: unproven, took_ms: 41_000 })],
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
    // No device online has words of its own now (refusal.noDevice), as in the run view.
    expect(stateOf(c!).textContent?.trim()).toBe(
      "The run was refused. No Android device is online: connect one or start the simulator.",
    );
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
    const finished = entry({ state: "finished", summary, took_ms: 41_000 });
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
        entry({ state: "finished", summary, took_ms: 41_000 }),
        entry({ state: "running", evidence_session: null, device: null, attempts: 2, max_replays: 30 }),
      ],
      paused: false,
      running: true,
    });
    expect(screen.getByRole("button", { name: "Pause" })).toBeDisabled();
    expect(stateOf(rows()[1]!)).toHaveTextContent("Running: 2 of at most 30 replays done");
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

  it("cancels all only after asking, naming how many runs it cancels", async () => {
    const running = entry({ state: "running", evidence_session: null, device: null, attempts: 2, max_replays: 30 });
    const entries = [entry({ state: "finished", summary, took_ms: 41_000 }), running, entry({ state: "waiting" }), entry({ state: "waiting" }), entry({ state: "waiting" })];
    const { onCancelAll } = setup({ entries, paused: false, running: true });
    await fireEvent.click(screen.getByRole("button", { name: "Cancel all" }));
    expect(onCancelAll).not.toHaveBeenCalled();
    const ask = screen.getByRole("alertdialog", { name: "Cancel all 4 runs? The one in progress stops and no waiting one starts." });
    // The harmless answer has the focus: a second Enter or a double click cancels nothing.
    expect(document.activeElement).toBe(within(ask).getByRole("button", { name: "Don’t cancel" }));
    await fireEvent.click(within(ask).getByRole("button", { name: "Don’t cancel" }));
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(onCancelAll).not.toHaveBeenCalled();
    // Answered, the question gives the focus back to Cancel all.
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Cancel all" }));

    await fireEvent.click(screen.getByRole("button", { name: "Cancel all" }));
    await fireEvent.keyDown(screen.getByRole("alertdialog"), { key: "Escape" });
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(onCancelAll).not.toHaveBeenCalled();

    await fireEvent.click(screen.getByRole("button", { name: "Cancel all" }));
    await fireEvent.click(screen.getByRole("button", { name: "Cancel all 4 runs" }));
    expect(onCancelAll).toHaveBeenCalledTimes(1);
  });

  it("asks in Chinese too, with the count", async () => {
    setLocale("zh-CN", false);
    setup({ entries: [entry({ state: "waiting" }), entry({ state: "waiting" })], paused: false, running: true });
    await fireEvent.click(screen.getByRole("button", { name: "全部取消" }));
    expect(screen.getByRole("alertdialog")).toHaveTextContent("取消全部 2 个运行？");
    expect(screen.getByRole("button", { name: "全部取消（2 个运行）" })).toBeInTheDocument();
  });

  it("offers no Cancel all when nothing is waiting or running, and says an empty queue is empty", () => {
    setup({ entries: [], paused: false, running: false });
    expect(screen.getByRole("button", { name: "Cancel all" })).toBeDisabled();
    expect(screen.getByText("No run is queued.")).toBeInTheDocument();
  });

  it("speaks the window's language", () => {
    setLocale("zh-CN", false);
    setup({ entries: [entry({ state: "waiting" }), entry({ state: "finished", summary, took_ms: 41_000 })], paused: false, running: false });
    expect(stateOf(rows()[0]!)).toHaveTextContent("等待中");
    expect(stateOf(rows()[1]!)).toHaveTextContent("已找到最小路径");
    expect(screen.getByRole("button", { name: "全部取消" })).toBeInTheDocument();
  });

  it("shows what a finished entry's record holds: its confidence, the replays it used and how long it took", () => {
    setup({ entries: [entry({ state: "finished", summary: { ...summary, attempts: 12 }, took_ms: 41_000 })], paused: false, running: false });
    expect(within(rows()[0]!).getByTestId("queue-facts")).toHaveTextContent("Confidence: High");
    expect(within(rows()[0]!).getByTestId("queue-facts")).toHaveTextContent("12 replays");
    expect(within(rows()[0]!).getByTestId("queue-took")).toHaveTextContent("in 41 s");
  });

  const frame = (over: Partial<LiveFrame> = {}): LiveFrame => ({
    device: "sim-1",
    attempt: 3,
    step: 2,
    step_words: null,
    before_action: true,
    seq: 1,
    image: { data_url: "data:image/png;base64,QQ==", width: 1080, height: 1920 },
    omitted: null,
    outline: null,
    ...over,
  });

  it("keeps its geometry while runs go on: one live box, the same size with a frame, a hidden frame or none", async () => {
    const running = entry({ state: "running", evidence_session: "e1", device: "sim-1", attempts: 2, max_replays: 30 });
    const view = { entries: [running, entry({ state: "waiting" })], paused: false, running: true };
    const { rerender } = setup(view, []);
    const box = () => screen.getByTestId("live-box");
    const size = () => [box().style.width, box().style.height];
    expect(box().dataset.shows).toBe("none");
    const none = size();
    expect(none).toEqual(["108px", "192px"]);

    await rerender(view, [frame()]);
    expect(box().dataset.shows).toBe("frame");
    expect(size()).toEqual(none);

    await rerender(view, [frame({ seq: 2, image: null, omitted: { kind: "screen_changed" } })]);
    expect(box().dataset.shows).toBe("placeholder");
    expect(size()).toEqual(none);

    // The column beside the entries is there from the start, frame or not.
    expect(screen.getByTestId("queue-live")).toBeInTheDocument();
    await rerender(view, []);
    expect(screen.getByTestId("queue-live")).toBeInTheDocument();
    expect(size()).toEqual(none);
  });

  it("keeps Pause and Resume in one button, so Cancel all never moves under the pointer", async () => {
    const view = { entries: [entry({ state: "waiting" })], paused: false, running: true };
    const { rerender } = setup(view);
    const pause = screen.getByRole("button", { name: "Pause" });
    const cancelAll = screen.getByRole("button", { name: "Cancel all" });
    pause.focus();
    await rerender({ ...view, paused: true });
    // The same element, now Resume: it keeps the focus and its place.
    expect(screen.getByRole("button", { name: "Resume" })).toBe(pause);
    expect(document.activeElement).toBe(pause);
    expect(screen.getByRole("button", { name: "Cancel all" })).toBe(cancelAll);
    // The paused note comes below the entries, not above them.
    const note = screen.getByRole("status");
    expect(rows()[0]!.compareDocumentPosition(note) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("folds to a strip and back with a keyboard-reachable toggle, and keeps the choice", async () => {
    const view = { entries: [entry({ state: "waiting" }), entry({ state: "waiting" })], paused: false, running: true };
    setup(view);
    const toggle = screen.getByRole("button", { name: "Fold the queue to a strip" });
    expect(toggle.tabIndex).toBe(0);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    expect(screen.getByTestId("queue-summary")).toHaveTextContent("0 of 2 ended · 0 running · 2 waiting");
    await fireEvent.click(toggle);
    expect(screen.queryAllByTestId("queue-entry")).toHaveLength(0);
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    expect(toggle).toHaveAccessibleName("Show the whole queue");
    // The strip still pauses and cancels, and says where the queue stands.
    expect(screen.getByRole("button", { name: "Pause" })).toBeEnabled();
    expect(screen.getByRole("button", { name: "Cancel all" })).toBeEnabled();
    expect(screen.getByTestId("queue-summary")).toHaveTextContent("0 of 2 ended");
    expect(localStorage.getItem(QUEUE_STRIP_KEY)).toBe("1");

    // The next panel (another queue, the next start) opens folded too.
    cleanup();
    setup(view);
    expect(screen.queryAllByTestId("queue-entry")).toHaveLength(0);
    await fireEvent.click(screen.getByRole("button", { name: "Show the whole queue" }));
    expect(rows()).toHaveLength(2);
    expect(localStorage.getItem(QUEUE_STRIP_KEY)).toBe("0");
  });

  it("keeps the focus on its control when the backend's next view re-renders the entries", async () => {
    const a = entry({ state: "waiting" });
    const b = entry({ state: "waiting" });
    const c = entry({ state: "waiting" });
    const { rerender } = setup({ entries: [a, b, c], paused: false, running: true });
    const rowOf = (e: QueueEntry) => rows().find((r) => r.dataset.entryId === String(e.id))!;

    // c moved up past b: the same entry's same control still has the focus.
    within(rowOf(c)).getByRole("button", { name: /up$/ }).focus();
    await rerender({ entries: [a, c, b], paused: false, running: true });
    expect(document.activeElement).toBe(within(rowOf(c)).getByRole("button", { name: /up$/ }));

    // c moved to the top: Move up is disabled there, Move down of c takes the focus.
    await rerender({ entries: [c, a, b], paused: false, running: true });
    expect(document.activeElement).toBe(within(rowOf(c)).getByRole("button", { name: /down$/ }));

    // c started: its arrows went, its Cancel has the focus.
    const started = { ...c, state: { state: "running", evidence_session: null, device: null, attempts: 0, max_replays: 30 } as QueueState };
    await rerender({ entries: [started, a, b], paused: false, running: true });
    expect(document.activeElement).toBe(within(rowOf(c)).getByRole("button", { name: /^Cancel / }));

    // c ended: nothing of it is left to click; the focus stays on its row, not the page.
    await rerender({ entries: [{ ...c, state: { state: "cancelled" } }, a, b], paused: false, running: true });
    expect(document.activeElement).toBe(rowOf(c));
  });

  describe("issue 43", () => {
    it("opens a finished, a running and an already-minimized entry's run by click or Enter, and no other", async () => {
      const finished = entry({ state: "finished", summary, took_ms: 41_000 });
      const running = entry({ state: "running", evidence_session: "ev-run", device: "sim-1", attempts: 2, max_replays: 30 });
      const starting = entry({ state: "running", evidence_session: null, device: null, attempts: 0, max_replays: 0 });
      const unchanged = entry({ state: "skipped", reason: { kind: "minimized_unchanged", evidence_session: "ev-old" } });
      const waiting = entry({ state: "waiting" });
      const cancelled = entry({ state: "cancelled" });
      const { onOpen } = setup({ entries: [finished, running, starting, unchanged, waiting, cancelled], paused: false, running: true });
      const openOf = (row: HTMLElement) => within(row).queryByTestId("queue-open");
      const [r0, r1, r2, r3, r4, r5] = rows();
      expect([r0, r1, r2, r3, r4, r5].map((r) => openOf(r!) !== null)).toEqual([true, true, false, true, false, false]);
      const open = openOf(r0!)!;
      // A button: a click, and Enter or Space on it once focused, open the run.
      expect(open.tagName).toBe("BUTTON");
      expect(open).toHaveAccessibleName(`Open the run of ${finished.label} · ${finished.session}`);
      expect(open).toHaveTextContent(finished.label!);
      await fireEvent.click(open);
      expect(onOpen).toHaveBeenLastCalledWith(finished);
      await fireEvent.click(openOf(r1!)!);
      expect(onOpen).toHaveBeenLastCalledWith(running);
      await fireEvent.click(openOf(r3!)!);
      expect(onOpen).toHaveBeenLastCalledWith(unchanged);
      expect(onOpen).toHaveBeenCalledTimes(3);
    });

    it("opens nothing when the host does not ask to", () => {
      render(QueuePanel, {
        queue: { entries: [entry({ state: "finished", summary, took_ms: 41_000 })], paused: false, running: false },
        onPause: vi.fn(),
        onResume: vi.fn(),
        onMove: vi.fn(),
        onCancel: vi.fn(),
        onCancelAll: vi.fn(),
      });
      expect(screen.queryByTestId("queue-open")).toBeNull();
    });

    it("words every skip reason, an unreadable session with its detail on hover", () => {
      setup({
        entries: [
          entry({ state: "skipped", reason: { kind: "minimized_unchanged", evidence_session: "ev-7" } }),
          entry({ state: "skipped", reason: { kind: "no_live_run", plan_problem: null } }),
          entry(
            { state: "skipped", reason: { kind: "session_unreadable", problem: "unreadable", detail: "steps.jsonl line 3 is not JSON" } },
            { crash_id: null, label: null, session: "2026-05-16_120000_broken-export" },
          ),
          entry(
            { state: "skipped", reason: { kind: "session_unreadable", problem: "invalid_id", detail: "x" } },
            { crash_id: null, label: null },
          ),
        ],
        paused: false,
        running: false,
      });
      expect(stateOf(rows()[0]!)).toHaveTextContent("Skipped: minimized, not approved yet, unchanged since (evidence ev-7)");
      expect(stateOf(rows()[1]!)).toHaveTextContent("Skipped: this crash cannot be replayed live");
      expect(stateOf(rows()[2]!)).toHaveTextContent("Skipped: this session cannot be read");
      expect(rows()[2]).toHaveTextContent("2026-05-16_120000_broken-export");
      expect(rows()[2]).toHaveTextContent("Session");
      expect(stateOf(rows()[3]!)).toHaveTextContent("Skipped: this folder’s name is not a session id");
    });

    it("words an unreadable session in Chinese too", () => {
      setLocale("zh-CN", false);
      setup({
        entries: [
          entry(
            { state: "skipped", reason: { kind: "session_unreadable", problem: "not_found", detail: "gone" } },
            { crash_id: null, label: null },
          ),
        ],
        paused: false,
        running: false,
      });
      expect(stateOf(rows()[0]!)).toHaveTextContent("已跳过：此会话已不存在");
      expect(rows()[0]).toHaveTextContent("会话");
    });

    it("gives a finished entry's hint: a baseline miss on one try may be a flaky crash", () => {
      const missed = { ...summary, status: "not_reproduced" as const, minimal_path: [] };
      setup({
        entries: [
          entry({ state: "finished", summary: missed, took_ms: 41_000 }, { hint: { kind: "more_baseline_tries" } }),
          entry({ state: "finished", summary, took_ms: 41_000 }),
        ],
        paused: false,
        running: false,
      });
      expect(within(rows()[0]!).getByTestId("queue-hint")).toHaveTextContent(
        "The crash may be flaky: run it again with more baseline tries.",
      );
      expect(within(rows()[1]!).queryByTestId("queue-hint")).toBeNull();
    });
  });
});
