import { fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import { describe, expect, it, vi } from "vitest";
import RunView from "./RunView.svelte";
import { commandCalls, emitEnded, emitEvents, emitFrames, fakeBackend } from "../test/ipc";
import { checkoutDetail } from "../test/fixtures";
import { events, finished, frame, pending, planSteps, result, screenshotView, shot, summary } from "../test/runFixtures";
import userEvent from "@testing-library/user-event";
import type { PlannedStep_Serialize } from "../bindings";
import type { ReopenedRun } from "../lib/runTypes";

const crash = checkoutDetail.crashes[0]!;

function setup(more: Parameters<typeof fakeBackend>[0] = {}) {
  const calls = fakeBackend({
    ...more,
    list_devices: () => [{ id: "sim-1", name: "Sim", platform: "android", type: "emulator", state: "online" }],
    start_run: () => 3,
    screenshot_image: (a) => screenshotView(a.name as string),
    omit_screenshot: () => null,
  });
  const onback = vi.fn();
  const onbusychange = vi.fn();
  render(RunView, { workspace: "/ws", detail: checkoutDetail, crash, onback, onbusychange });
  return { calls, onback, onbusychange };
}

async function startAndRun(count: number) {
  await waitFor(() => expect(screen.getByTestId("start-run")).toBeEnabled());
  await fireEvent.click(screen.getByTestId("start-run"));
  await waitFor(() => expect(screen.getByTestId("cancel-run")).toBeEnabled());
  await emitEvents(3, events.slice(0, count));
}

const pathMarks = () =>
  within(screen.getByRole("list", { name: "Step path" }))
    .getAllByRole("listitem")
    .map((li) => li.dataset.mark);

describe("RunView", () => {
  it("runs the chosen crash: candidate highlighted live, minimal path and result at the end", async () => {
    const { calls, onbusychange } = setup();
    expect(screen.getByRole("heading", { level: 2 })).toHaveTextContent("Minimize c1");
    await startAndRun(6); // attempt 2 (candidate [4]) is running
    expect(commandCalls(calls, "start_run")[0]).toMatchObject({ request: { session_id: checkoutDetail.session_id, crash_id: "c1" } });
    expect(onbusychange).toHaveBeenLastCalledWith(true);
    await waitFor(() => expect(pathMarks()).toEqual(["in-attempt", "out-attempt", "out-attempt", "in-attempt"]));
    expect(screen.getAllByTestId("history-row")).toHaveLength(2);

    await emitEvents(3, events.slice(6));
    await emitEnded(3, result);
    await waitFor(() => expect(screen.getByTestId("result-confidence")).toHaveTextContent("High"));
    // Outcome first: the banner says what happened and offers the next action.
    expect(screen.getByTestId("outcome-text")).toHaveTextContent("Minimal path found: 4 → 3 steps. Confidence: High.");
    expect(screen.getByTestId("banner-review")).toBeInTheDocument();
    expect(pathMarks()).toEqual(["kept", "kept", "removed", "kept"]);
    expect(onbusychange).toHaveBeenLastCalledWith(false);
  });

  it("stops asking to approve once the entry is written", async () => {
    setup({ approve_run: () => ({ sidecar_path: "/ws/sessions/s/crashes.minimized.json", written_text: "{}" }) });
    await startAndRun(events.length);
    await emitEnded(3, result);
    await waitFor(() => expect(screen.getByTestId("banner-review")).toBeInTheDocument());
    await fireEvent.click(screen.getByTestId("approve"));
    await waitFor(() => expect(screen.getByTestId("approved-path")).toBeInTheDocument());
    expect(screen.queryByTestId("banner-review")).toBeNull();
    expect(screen.getByTestId("outcome-banner")).toHaveTextContent("Approved; you can export a bug-ticket bundle.");
  });

  it("shows each device's newest live frame during the run, marks the step it replays, and drops the view at the end", async () => {
    setup();
    await startAndRun(6); // attempt 2 (candidate [4]) is running
    const live = (device: string, seq: number, step: number | null) => ({
      device,
      attempt: 2,
      step,
      step_words: null,
      before_action: step !== null,
      seq,
      image: { data_url: `data:image/png;base64,${device}${seq}`, width: 108, height: 192 },
      omitted: null,
      outline: [10, 20, 50, 60] as [number, number, number, number],
    });
    await emitFrames(3, [live("sim-1", 1, null), live("sim-2", 1, 4), live("sim-1", 2, 4)]);
    const view = await screen.findByTestId("live-view");
    const devices = within(view).getAllByTestId("live-device");
    expect(devices.map((d) => d.dataset.device)).toEqual(["sim-1", "sim-2"]);
    expect(within(devices[0]!).getByRole("img")).toHaveAttribute("src", "data:image/png;base64,sim-12");
    const replaying = within(screen.getByRole("list", { name: "Step path" }))
      .getAllByRole("listitem")
      .filter((li) => li.getAttribute("aria-current") === "step")
      .map((li) => li.dataset.stepIndex);
    expect(replaying).toEqual(["4"]);

    await emitEvents(3, events.slice(6));
    await emitEnded(3, result);
    await waitFor(() => expect(screen.queryByTestId("live-view")).not.toBeInTheDocument());
  });

  it("opens an attempt's screenshot, compares it with a related attempt, walks on after omitting it", async () => {
    const { calls } = setup();
    await startAndRun(events.length);
    const buttons = screen.getAllByTestId("open-screenshot");
    expect(buttons).toHaveLength(4);
    await fireEvent.click(buttons[2]!);
    const viewer = await screen.findByTestId("screenshot-viewer");
    expect(viewer).toHaveTextContent("Screenshot of attempt 3");
    expect(await within(viewer).findByTestId("mask-apply-all")).toHaveTextContent("(4)");
    // Attempt 3 replayed step 2; attempt 4 replayed 2 and 4 — the nearest "plus one step".
    await fireEvent.click(await within(viewer).findByTestId("compare-toggle"));
    expect(await within(viewer).findByTestId("compare-caption")).toHaveTextContent(
      "Attempt 4: the same steps plus 1 step (4) · Reproduced",
    );

    await fireEvent.click(within(viewer).getByTestId("omit-screenshot"));
    await fireEvent.click(within(viewer).getByTestId("omit-confirm"));
    await waitFor(() => expect(viewer).toHaveTextContent("Screenshot of attempt 4"));
    expect(commandCalls(calls, "omit_screenshot")).toEqual([
      { workspace: "/ws", evidenceSession: result.summary.evidence_session, name: shot(3) },
    ]);
    expect(screen.getAllByTestId("open-screenshot")).toHaveLength(3);
    expect(await within(viewer).findByTestId("mask-apply-all")).toHaveTextContent("(3)");
    await fireEvent.click(within(viewer).getByTestId("close-viewer"));
    expect(screen.queryByTestId("screenshot-viewer")).toBeNull();
  });

  it("shows the review checklist of the run and opens the next unchecked screenshot", async () => {
    const evidence = result.summary.evidence_session!;
    fakeBackend({
      list_devices: () => [{ id: "sim-1", name: "Sim", platform: "android", type: "emulator", state: "online" }],
      start_run: () => 3,
      screenshot_image: (a) => screenshotView(a.name as string),
      review_checklist: (a) => {
        expect(a).toEqual({ workspace: "/ws", evidenceSession: evidence });
        return {
          shots: [1, 2, 3, 4].map((n) => ({
            name: shot(n),
            attempt: n,
            frame: null,
            reviewed: n === 1 || n === 3,
            omitted: n === 3,
          })),
          summary: { total: 4, reviewed: 2, omitted: 1, not_reviewed: [2, 4], not_reviewed_frames: [] },
        };
      },
    });
    render(RunView, { workspace: "/ws", detail: checkoutDetail, crash, onback: () => {} });
    await startAndRun(events.length);
    const progress = await screen.findByTestId("review-progress");
    expect(within(progress).getByTestId("review-counts")).toHaveTextContent("2 of 4 reviewed · 1 omitted");
    const marked = screen.getAllByTestId("history-row").map((r) => r.querySelector(".checked") !== null);
    expect(marked).toEqual([true, false, true, false]);
    await fireEvent.click(within(progress).getByTestId("review-next"));
    expect(await screen.findByTestId("screenshot-viewer")).toHaveTextContent("Screenshot of attempt 2");
  });

  it("opens a filmstrip frame in the viewer, among the screenshots, to mask, check or omit it", async () => {
    const evidence = result.summary.evidence_session!;
    const pixel = "data:image/png;base64,iVBORw0KGgo=";
    const pictures = [
      ...[1, 2, 3, 4].map((n) => ({ name: shot(n), attempt: n, frame: null })),
      ...[1, 2].map((n) => ({ name: frame(4, n), attempt: 4, frame: n })),
    ];
    const calls = fakeBackend({
      list_devices: () => [{ id: "sim-1", name: "Sim", platform: "android", type: "emulator", state: "online" }],
      start_run: () => 3,
      screenshot_image: (a) => screenshotView(a.name as string),
      review_checklist: () => ({
        shots: pictures.map((p) => ({ ...p, reviewed: false, omitted: false })),
        summary: { total: 6, reviewed: 0, omitted: 0, not_reviewed: [1, 2, 3, 4], not_reviewed_frames: [] },
      }),
      mark_reviewed: (a) => ({
        shots: pictures.map((p) => ({ ...p, reviewed: p.name === a.name, omitted: false })),
        summary: { total: 6, reviewed: 1, omitted: 0, not_reviewed: [1, 2, 3, 4], not_reviewed_frames: [] },
      }),
      filmstrip: () => ({
        attempt: 4,
        extra_device_ms: 900,
        frames: [1, 2].map((n) => ({ position: n, step: n, name: frame(4, n), image: pixel, omitted: null })),
      }),
    });
    render(RunView, { workspace: "/ws", detail: checkoutDetail, crash, onback: () => {} });
    await startAndRun(events.length);
    await emitEnded(3, result);
    const opens = await screen.findAllByTestId("filmstrip-frame");
    expect(opens).toHaveLength(2);
    await fireEvent.click(opens[1]!);

    const viewer = await screen.findByTestId("screenshot-viewer");
    expect(viewer.dataset.shot).toBe(frame(4, 2));
    expect(viewer).toHaveTextContent("Filmstrip frame 2 of attempt 4");
    expect(viewer).toHaveTextContent("6 of 6");
    expect(commandCalls(calls, "screenshot_image")).toContainEqual({ workspace: "/ws", evidenceSession: evidence, name: frame(4, 2) });
    // Apply to all covers the frames too.
    expect(await within(viewer).findByTestId("mask-apply-all")).toHaveTextContent("(6)");
    await fireEvent.click(within(viewer).getByTestId("mark-reviewed"));
    await waitFor(() =>
      expect(commandCalls(calls, "mark_reviewed")).toEqual([
        { workspace: "/ws", evidenceSession: evidence, name: frame(4, 2), reviewed: true },
      ]),
    );
    // ← walks back through the strip to the attempt's own screenshot.
    await fireEvent.keyDown(viewer, { key: "ArrowLeft" });
    expect(viewer).toHaveTextContent("Filmstrip frame 1 of attempt 4");
    await fireEvent.keyDown(viewer, { key: "ArrowLeft" });
    expect(viewer).toHaveTextContent("Screenshot of attempt 4");
  });

  it("goes back to the session", async () => {
    const { onback } = setup();
    await fireEvent.click(screen.getByRole("button", { name: "← Back to session" }));
    expect(onback).toHaveBeenCalledOnce();
  });

  it("refuses a live run for a crash with too few replayable steps", async () => {
    fakeBackend({ list_devices: () => [] });
    const low = { ...crash, plan: { ...crash.plan!, live_run_allowed: false } };
    render(RunView, { workspace: "/ws", detail: checkoutDetail, crash: low, onback: () => {} });
    await waitFor(() => expect(screen.getByText(/No device is connected/)).toBeInTheDocument());
    expect(screen.getByTestId("start-run")).toBeDisabled();
  });
});

describe("RunView from the keyboard", () => {
  async function ended() {
    setup();
    await startAndRun(events.length);
    await emitEnded(3, result);
    const banner = await screen.findByTestId("outcome-banner");
    await waitFor(() => expect(document.activeElement).toBe(banner));
  }

  it("reaches Approve from the banner in two keystrokes: Tab to the skip link, Enter", async () => {
    await ended();
    const user = userEvent.setup();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByTestId("skip-approve"));
    expect(document.activeElement).toHaveTextContent("Skip to Approve");
    await user.keyboard("{Enter}");
    expect(document.activeElement).toBe(screen.getByTestId("approve"));
  });

  it("goes to Approve with Alt+A and to Export with Alt+E from anywhere, as the banner lists", async () => {
    await ended();
    expect(screen.getByTestId("banner-keys")).toHaveTextContent("Alt+A goes to Approve, Alt+E to Export");
    await fireEvent.keyDown(document.activeElement!, { key: "a", code: "KeyA", altKey: true });
    expect(document.activeElement).toBe(screen.getByTestId("approve"));
    await fireEvent.keyDown(document.activeElement!, { key: "e", code: "KeyE", altKey: true });
    expect(document.activeElement).toBe(screen.getByTestId("export-folder"));
  });

  it("lists no way to Approve for a result the record does not allow approving (a cancelled run)", async () => {
    setup();
    await startAndRun(events.length);
    const cancelled = {
      ...result,
      summary: { ...result.summary, status: "cancelled" as const },
      pending: { ...pending, status: "cancelled" as const, write_back_allowed: false },
    };
    await emitEnded(3, cancelled);
    await screen.findByTestId("outcome-banner");
    expect(screen.getByTestId("banner-keys")).toHaveTextContent("Keyboard: Alt+E goes to Export.");
    expect(screen.queryByTestId("skip-approve")).toBeNull();
    await fireEvent.keyDown(document.body, { key: "a", code: "KeyA", altKey: true });
    expect(document.activeElement).not.toBe(screen.getByTestId("approve"));
  });
});

describe("RunView: a recording", () => {
  it("opens as what it recorded: no step in a minimal path, its replay recorded as a crash, nothing to approve", () => {
    fakeBackend({ list_devices: () => [] });
    const all = [1, 2, 3, 4];
    const recording: ReopenedRun = {
      evidence_session: "2026-05-20_101500_record-checkout-npe",
      created_at: "2026-05-20T10:15:00+00:00",
      unreadable_steps: 0,
      events: [
        {
          type: "started",
          evidence_session: "2026-05-20_101500_record-checkout-npe",
          plan_steps: planSteps as PlannedStep_Serialize[],
          candidates: [2, 4],
          max_replays: 1,
          device: "sim-1",
          devices: ["sim-1"],
        },
        { type: "attempt_started", attempt: 1, phase: "baseline", candidate: [2, 4] },
        finished(1, "baseline", [2, 4], { kind: "not_reproduced", reason: "different_crash", step: null }, 1200),
        { type: "finished", ...summary, status: "unproven", original_path: all, minimal_path: all, confidence: "low" },
      ],
      result: {
        ...result,
        purpose: "record",
        reopened: true,
        pending: null,
        sidecar_preview: null,
        summary: { ...result.summary, status: "unproven", original_path: all, minimal_path: all, confidence: "low" },
      },
    };
    render(RunView, { workspace: "/ws", detail: checkoutDetail, crash, onback: () => {}, reopened: recording });
    expect(screen.getByTestId("outcome-text")).toHaveTextContent("Recorded one replay of the whole flow: it caught 1 crash.");
    expect(screen.getByTestId("recorded-crashes")).toHaveTextContent("after step 4");
    expect(screen.queryByTestId("banner-review")).toBeNull();
    expect(screen.queryByTestId("approve")).toBeNull();
    expect(screen.queryByTestId("skip-approve")).toBeNull();
    expect(pathMarks().filter((m) => m === "kept" || m === "removed")).toEqual([]);
    const row = screen.getByTestId("history-row");
    expect(row).toHaveTextContent("Recorded");
    expect(row).toHaveTextContent("the app crashed");
    expect(row).not.toHaveTextContent(/Not reproduced|A different crash/);
  });
});

