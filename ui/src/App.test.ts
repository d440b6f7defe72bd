import { fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import { mockIPC } from "@tauri-apps/api/mocks";
import { describe, expect, it } from "vitest";
import App from "./App.svelte";
import { checkoutDetail, checkoutNpe, sessions } from "./test/fixtures";
import { channelSender, commandCalls, emitEvents, fakeBackend } from "./test/ipc";
import { events, summary } from "./test/runFixtures";

type Calls = Array<{ cmd: string; args: unknown }>;

function backend(overrides: Record<string, (args: unknown) => unknown> = {}): Calls {
  const calls: Calls = [];
  const handlers: Record<string, (args: unknown) => unknown> = {
    default_workspace: () => "/home/tester/whittle/demo/workspace",
    list_sessions: () => sessions,
    session_detail: () => checkoutDetail,
    ...overrides,
  };
  mockIPC((cmd, args) => {
    calls.push({ cmd, args });
    const handler = handlers[cmd];
    if (!handler) throw new Error(`unexpected command ${cmd}`);
    return handler(args);
  });
  return calls;
}

describe("App (mocked IPC)", () => {
  it("minimizes all from the header: the queue's view and its item's live frames are shown as the backend sends them", async () => {
    let send: (message: unknown) => void = () => {};
    const entry = (id: number, state: unknown) => ({ id, session: checkoutNpe.session_id, crash_id: `c${id}`, label: null, state });
    const first = { entries: [entry(1, { state: "waiting" }), entry(2, { state: "waiting" })], paused: false, running: true };
    const calls = backend({
      start_queue: (args) => {
        send = channelSender((args as { onUpdate: unknown }).onUpdate);
        return first;
      },
      interrupted_runs: () => [],
    });
    render(App);
    await screen.findByRole("listbox", { name: "Sessions" });
    await fireEvent.click(screen.getByTestId("minimize-all"));
    // Nothing is queued before the tester said yes to the number of crashes.
    expect(commandCalls(calls as never, "start_queue")).toEqual([]);
    const ask = screen.getByTestId("minimize-all-confirm");
    expect(ask).toHaveTextContent("Minimize 1 crash of this workspace?");
    expect(document.activeElement).toBe(screen.getByTestId("minimize-all-confirm-no"));
    // Not now: the question goes, nothing is queued, the focus is back on the button.
    await fireEvent.click(screen.getByTestId("minimize-all-confirm-no"));
    expect(screen.queryByTestId("minimize-all-confirm")).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId("minimize-all")));
    expect(commandCalls(calls as never, "start_queue")).toEqual([]);
    await fireEvent.click(screen.getByTestId("minimize-all"));
    await fireEvent.click(screen.getByTestId("minimize-all-confirm-yes"));
    await waitFor(() => expect(screen.getAllByTestId("queue-entry")).toHaveLength(2));
    expect(calls).toContainEqual({
      cmd: "start_queue",
      args: expect.objectContaining({ workspace: "/home/tester/whittle/demo/workspace", session: null }),
    });
    // While it works, neither another queue nor a single run can start.
    expect(screen.getByTestId("minimize-all")).toBeDisabled();

    const running = { state: "running", evidence_session: "e1", attempts: 2, max_replays: 30 };
    send({ kind: "queue", view: { ...first, entries: [entry(1, running), entry(2, { state: "waiting" })] } });
    const frame = { device: "sim-1", attempt: 3, step: null, step_words: null, before_action: false, seq: 1, image: { data_url: "data:image/png;base64,QQ==", width: 10, height: 20 }, omitted: null, outline: null };
    send({ kind: "run", entry: 1, update: { kind: "frame", run_id: 1, frame } });
    expect(await screen.findByTestId("live-view")).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getAllByTestId("queue-entry").map((e) => e.dataset.state)).toEqual(["running", "waiting"]),
    );

    send({ kind: "run", entry: 1, update: { kind: "ended", run_id: 1, result: null, error: null } });
    send({ kind: "queue", view: { ...first, running: false, entries: [entry(1, { state: "cancelled" }), entry(2, { state: "cancelled" })] } });
    await waitFor(() => expect(screen.queryByTestId("live-view")).not.toBeInTheDocument());
    expect(screen.getByTestId("minimize-all")).toBeEnabled();
    await fireEvent.click(screen.getByTestId("queue-close"));
    expect(screen.queryByTestId("queue-panel")).not.toBeInTheDocument();
  });

  it("queues with the options chosen in the question, and a finished or running item opens its run", async () => {
    let send: (message: unknown) => void = () => {};
    const entry = (id: number, state: unknown) => ({ id, session: checkoutNpe.session_id, crash_id: "c1", label: null, state, hint: null });
    const first = { entries: [entry(1, { state: "waiting" })], paused: false, running: true };
    const calls = backend({
      start_queue: (args) => {
        send = channelSender((args as { onUpdate: unknown }).onUpdate);
        return first;
      },
      interrupted_runs: () => [],
      open_past_run: () => ({ evidence_session: "ev-1", created_at: "2026-05-20T10:15:00+00:00", events, result: null, unreadable_steps: 0 }),
      list_devices: () => [],
      review_checklist: () => null,
    });
    render(App);
    await screen.findByRole("listbox", { name: "Sessions" });
    await fireEvent.click(screen.getByTestId("minimize-all"));
    const ask = screen.getByTestId("minimize-all-confirm");
    const budget = within(ask).getByTestId("queue-max-replays");
    // A budget that is no count: nothing can be queued, and the question says why.
    await fireEvent.input(budget, { target: { value: "0" } });
    expect(screen.getByTestId("minimize-all-confirm-yes")).toBeDisabled();
    expect(ask).toHaveTextContent("At least 1 replay is needed.");
    await fireEvent.input(budget, { target: { value: "12" } });
    await fireEvent.change(within(ask).getByTestId("queue-strategy"), { target: { value: "flaky" } });
    await fireEvent.change(within(ask).getByTestId("queue-baseline-tries"), { target: { value: "3" } });
    // The single run's form's help, for the same choice.
    expect(within(ask).getByTestId("queue-options-help")).toHaveTextContent("until it reproduces");
    await fireEvent.click(within(ask).getByTestId("queue-include-minimized"));
    await fireEvent.click(screen.getByTestId("minimize-all-confirm-yes"));
    await waitFor(() => expect(screen.getAllByTestId("queue-entry")).toHaveLength(1));
    expect(commandCalls(calls as never, "start_queue")).toEqual([
      expect.objectContaining({
        options: { max_replays: 12, strategy: "flaky", baseline_tries: 3, include_minimized: true },
      }),
    ]);

    // Running, its evidence known: it opens live, in the run view.
    send({ kind: "run", entry: 1, update: { kind: "event", run_id: 1, event: events[1] } });
    send({ kind: "queue", view: { ...first, entries: [entry(1, { state: "running", evidence_session: "ev-1", device: "sim-1", attempts: 0, max_replays: 12 })] } });
    await fireEvent.click(await screen.findByTestId("queue-open"));
    expect(await screen.findByTestId("run-panel")).toBeInTheDocument();
    // Followed: its Cancel works (on that item alone, see queueController.test.ts).
    await waitFor(() => expect(screen.getByTestId("cancel-run")).toBeEnabled());
    expect(commandCalls(calls as never, "open_past_run")).toEqual([]);

    // Finished: it opens as a past run does, from its evidence.
    const done = { state: "finished", summary: { ...summary, evidence_session: "ev-1" } };
    send({ kind: "run", entry: 1, update: { kind: "ended", run_id: 1, result: null, error: null } });
    send({ kind: "queue", view: { ...first, running: false, entries: [entry(1, done)] } });
    await waitFor(() => expect(screen.getByTestId("cancel-run")).toBeDisabled());
    await fireEvent.click(screen.getByTestId("queue-open"));
    await waitFor(() =>
      expect(commandCalls(calls as never, "open_past_run")).toEqual([
        { workspace: "/home/tester/whittle/demo/workspace", sessionId: checkoutNpe.session_id, evidenceSession: "ev-1" },
      ]),
    );
  });

  it("opens on the default workspace and lists its sessions", async () => {
    const calls = backend();
    render(App);
    expect(await screen.findByRole("listbox", { name: "Sessions" })).toBeInTheDocument();
    expect(screen.getByText("/home/tester/whittle/demo/workspace")).toBeInTheDocument();
    expect(screen.getAllByRole("option")).toHaveLength(3);
    expect(calls).toContainEqual({
      cmd: "list_sessions",
      args: { workspace: "/home/tester/whittle/demo/workspace" },
    });
  });

  it("loads the selected session's detail by id", async () => {
    const calls = backend();
    render(App);
    await fireEvent.click(await screen.findByText("checkout-npe"));
    const path = await screen.findByRole("list", { name: "Step path" });
    expect(within(path).getAllByRole("listitem")).toHaveLength(4);
    expect(calls).toContainEqual({
      cmd: "session_detail",
      args: { workspace: "/home/tester/whittle/demo/workspace", sessionId: checkoutNpe.session_id },
    });
  });

  it("shows a backend error in place, in words", async () => {
    backend({
      list_sessions: () => {
        throw {
          code: "workspace_unreadable",
          path: "/tmp/x",
          cause: { kind: "no_sessions_folder" },
          message: "the workspace folder /tmp/x cannot be read: it has no sessions folder, so it is not a Whittle workspace",
        };
      },
    });
    render(App);
    const alert = await screen.findByRole("alert");
    // Worded by the window from the typed fields, not the backend's English sentence.
    expect(alert).toHaveTextContent("/tmp/x has no sessions folder, so it is not a Whittle workspace.");
    expect(alert).not.toHaveTextContent("cannot be read");
    expect(screen.queryByRole("listbox")).toBeNull();
  });

  it("shows a session's error in the detail pane and keeps the list usable", async () => {
    backend({
      session_detail: () => {
        throw {
          code: "session_unreadable",
          id: "x",
          cause: { kind: "invalid", error: { file: "steps.jsonl", line: 4, problem: { code: "truncated" } } },
          message: "session x cannot be opened: steps.jsonl line 4: ends in the middle of a record",
        };
      },
    });
    render(App);
    await fireEvent.click(await screen.findByText("broken-export"));
    await waitFor(() =>
      expect(screen.getByRole("alert")).toHaveTextContent("Session x: steps.jsonl line 4: ends in the middle of a record"),
    );
    expect(screen.getByRole("listbox")).toBeInTheDocument();
  });
});

/** A run of checkout-npe's c1 that this app was closed during. */
const interruptedRun = (resumable: boolean) => ({
  evidence_session: "2026-05-20_101500_minimize-checkout-npe",
  session_id: checkoutNpe.session_id,
  crash_id: "c1",
  created_at: "2026-05-20T10:15:00+00:00",
  own: true,
  resumable,
});

describe("App: recent workspaces and minimizing", () => {
  const runHandlers = {
    default_workspace: () => "/home/tester/whittle/demo/workspace",
    list_sessions: () => sessions,
    session_detail: () => checkoutDetail,
    list_devices: () => [{ id: "sim-1", name: "Sim", platform: "android", type: "emulator", state: "online" }],
    start_run: () => 5,
    cancel_run: () => null,
  };

  it("remembers opened workspaces and reopens one from the Recent menu", async () => {
    localStorage.setItem("whittle.recentWorkspaces", JSON.stringify(["/old/workspace"]));
    const calls = fakeBackend(runHandlers);
    render(App);
    await screen.findByRole("listbox", { name: "Sessions" });
    expect(JSON.parse(localStorage.getItem("whittle.recentWorkspaces")!)).toEqual([
      "/home/tester/whittle/demo/workspace",
      "/old/workspace",
    ]);
    await fireEvent.click(screen.getByRole("button", { name: "Recent ▾" }));
    await fireEvent.click(screen.getByRole("menuitem", { name: "/old/workspace" }));
    await waitFor(() =>
      expect(commandCalls(calls, "list_sessions")).toContainEqual({ workspace: "/old/workspace" }),
    );
    expect(await screen.findByText("/old/workspace", { selector: ".path" })).toBeInTheDocument();
  });

  it("opens the run view for a crash, returns to the session, and keeps a running run reachable", async () => {
    fakeBackend(runHandlers);
    render(App);
    await fireEvent.click(await screen.findByText("checkout-npe"));
    await fireEvent.click(await screen.findByTestId("minimize-c1"));
    expect(await screen.findByRole("heading", { name: /Minimize c1/ })).toBeInTheDocument();

    await waitFor(() => expect(screen.getByTestId("start-run")).toBeEnabled());
    await fireEvent.click(screen.getByTestId("start-run"));
    await waitFor(() => expect(screen.getByTestId("cancel-run")).toBeEnabled());
    await emitEvents(5, events.slice(0, 4));

    await fireEvent.click(screen.getByRole("button", { name: "← Back to session" }));
    expect(screen.getByRole("heading", { level: 2, name: "checkout-npe" })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Minimizing c1 of checkout-npe");
    expect(screen.getByTestId("minimize-c1")).toHaveTextContent("Show the run");

    await fireEvent.click(within(screen.getByRole("status")).getByRole("button", { name: "Show the run" }));
    expect(screen.getByTestId("run-attempts")).toHaveTextContent("1 / 30");
    expect(screen.getAllByTestId("history-row")).toHaveLength(1);
  });

  it("offers the run this app was closed during, resumes it in the run view, or discards it", async () => {
    const own = interruptedRun(true);
    const other = { ...own, evidence_session: "2026-05-19_090000_minimize-checkout-npe", own: false };
    let interrupted = [own, other];
    const calls = fakeBackend({
      ...runHandlers,
      interrupted_runs: () => interrupted,
      resume_run: () => 8,
      discard_run: () => {
        interrupted = [other];
        return null;
      },
    });
    render(App);
    const banner = await screen.findByTestId("interrupted-banner");
    expect(banner).toHaveTextContent("Whittle was closed while minimizing c1 of " + checkoutNpe.session_id);
    expect(screen.getAllByTestId("interrupted-banner")).toHaveLength(1);
    // Both runs mark their session in the list.
    expect(within(screen.getAllByRole("option")[2]!).getByTestId("interrupted-run")).toBeInTheDocument();

    await fireEvent.click(within(banner).getByRole("button", { name: "Resume" }));
    expect(await screen.findByRole("heading", { name: /Minimize c1/ })).toBeInTheDocument();
    await waitFor(() =>
      expect(commandCalls(calls, "resume_run")).toEqual([
        {
          request: { workspace: "/home/tester/whittle/demo/workspace", evidence_session: own.evidence_session, locale: "en" },
          onUpdate: expect.anything(),
        },
      ]),
    );
    expect(commandCalls(calls, "start_run")).toEqual([]);
    expect(screen.queryByTestId("interrupted-banner")).toBeNull();
  });

  it("discards an interrupted run from the banner", async () => {
    const own = interruptedRun(false);
    let interrupted = [own];
    const calls = fakeBackend({
      ...runHandlers,
      interrupted_runs: () => interrupted,
      discard_run: () => {
        interrupted = [];
        return null;
      },
    });
    render(App);
    const banner = await screen.findByTestId("interrupted-banner");
    expect(banner).toHaveTextContent("started by a Whittle without resume");
    expect(within(banner).queryByRole("button", { name: "Resume" })).toBeNull();
    await fireEvent.click(within(banner).getByRole("button", { name: "Discard" }));
    await waitFor(() => expect(screen.queryByTestId("interrupted-banner")).toBeNull());
    expect(commandCalls(calls, "discard_run")).toEqual([
      { workspace: "/home/tester/whittle/demo/workspace", evidenceSession: own.evidence_session },
    ]);
    expect(screen.queryByTestId("interrupted-run")).toBeNull();
  });
});
