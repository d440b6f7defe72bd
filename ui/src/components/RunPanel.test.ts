import { fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { describe, expect, it } from "vitest";
import RunPanel from "./RunPanel.svelte";
import { RunController } from "../lib/runController.svelte";
import { commandCalls, emitEnded, emitEvents, fail, fakeBackend, type Handlers } from "../test/ipc";
import { events, result, summary } from "../test/runFixtures";

const devices = [
  { id: "sim-1", name: "Simulated shop", platform: "android", type: "emulator", state: "online" },
  { id: "sim-2", name: "Simulated shop", platform: "android", type: "emulator", state: "online" },
];

function setup(handlers: Handlers = {}, props: Record<string, unknown> = {}) {
  const calls = fakeBackend({ list_devices: () => devices, start_run: () => 11, cancel_run: () => null, ...handlers });
  const run = new RunController();
  render(RunPanel, { run, workspace: "/ws", sessionId: summary.session, crashId: "c1", preferredDevice: "sim-2", ...props });
  return { calls, run };
}

describe("RunPanel", () => {
  it("lists devices, preselecting the session's device", async () => {
    const { calls } = setup();
    await waitFor(() => expect(screen.getByTestId("device-select")).toHaveValue("sim-2"));
    expect(screen.getByRole("option", { name: /Simulated shop \(sim-1, online\)/ })).toBeInTheDocument();
    expect(commandCalls(calls, "list_devices")).toEqual([{ workspace: "/ws" }]);
  });

  it("validates max replays in place and blocks Start until it is a whole number ≥ 1", async () => {
    setup();
    const input = screen.getByTestId("max-replays");
    expect(input).toHaveValue("30");
    await waitFor(() => expect(screen.getByTestId("start-run")).toBeEnabled());
    for (const [value, message] of [
      ["0", "At least 1 replay is needed."],
      ["2.5", "Use a whole number of replays, like 30."],
      ["", "Enter how many replays"],
      ["abc", "Use a whole number"],
    ]) {
      await fireEvent.input(input, { target: { value } });
      expect(input).toHaveAttribute("aria-invalid", "true");
      expect(input).toHaveAccessibleDescription(expect.stringContaining(message!));
      expect(screen.getByTestId("start-run")).toBeDisabled();
    }
    await fireEvent.input(input, { target: { value: " 12 " } });
    expect(input).toHaveAttribute("aria-invalid", "false");
    expect(screen.getByTestId("start-run")).toBeEnabled();
  });

  it("starts a run with the chosen device and budget", async () => {
    const { calls } = setup();
    await waitFor(() => expect(screen.getByTestId("start-run")).toBeEnabled());
    await fireEvent.change(screen.getByTestId("device-select"), { target: { value: "sim-1" } });
    await fireEvent.input(screen.getByTestId("max-replays"), { target: { value: "12" } });
    await fireEvent.click(screen.getByTestId("start-run"));
    await waitFor(() => expect(commandCalls(calls, "start_run")).toHaveLength(1));
    expect(commandCalls(calls, "start_run")[0]!.request).toEqual({
      workspace: "/ws",
      session_id: summary.session,
      crash_id: "c1",
      max_replays: 12,
      device: "sim-1",
      strategy: "seed",
      devices: 1,
      locale: "en",
    });
  });

  it("offers one pool size per online Android device and the opt-in strategy", async () => {
    const { calls } = setup();
    await waitFor(() => expect(screen.getByTestId("start-run")).toBeEnabled());
    const pool = screen.getByTestId("pool-size");
    expect([...pool.querySelectorAll("option")].map((o) => o.value)).toEqual(["1", "2"]);
    await fireEvent.change(pool, { target: { value: "2" } });
    await fireEvent.change(screen.getByTestId("strategy"), { target: { value: "binary" } });
    expect(screen.getByText(/binary search/)).toBeInTheDocument();
    await fireEvent.click(screen.getByTestId("start-run"));
    await waitFor(() => expect(commandCalls(calls, "start_run")).toHaveLength(1));
    expect(commandCalls(calls, "start_run")[0]!.request).toMatchObject({ strategy: "binary", devices: 2 });
  });

  it("offers the flaky strategy and baseline tries, sent only when opted in", async () => {
    const { calls } = setup();
    await waitFor(() => expect(screen.getByTestId("start-run")).toBeEnabled());
    await fireEvent.change(screen.getByTestId("strategy"), { target: { value: "flaky" } });
    expect(screen.getByText(/Never rated high/)).toBeInTheDocument();
    await fireEvent.change(screen.getByTestId("baseline-tries"), { target: { value: "5" } });
    expect(screen.getByText(/every try counts against the budget/)).toBeInTheDocument();
    await fireEvent.click(screen.getByTestId("start-run"));
    await waitFor(() => expect(commandCalls(calls, "start_run")).toHaveLength(1));
    expect(commandCalls(calls, "start_run")[0]!.request).toMatchObject({ strategy: "flaky", baseline_tries: 5 });
  });

  it("shows live progress from the run's events and cancels it", async () => {
    const { calls } = setup();
    await waitFor(() => expect(screen.getByTestId("start-run")).toBeEnabled());
    await fireEvent.click(screen.getByTestId("start-run"));
    await waitFor(() => expect(screen.getByTestId("cancel-run")).toBeEnabled());
    expect(screen.getByTestId("start-run")).toBeDisabled();

    await emitEvents(11, events.slice(0, 7));
    await waitFor(() => expect(screen.getByTestId("run-attempts")).toHaveTextContent("2 / 30"));
    expect(screen.getByTestId("run-phase")).toHaveTextContent("Removing one step at a time");
    // Two replays averaged 1.0 s; 28 of the budget remain.
    expect(screen.getByText("up to 28 s")).toBeInTheDocument();
    // Skipped steps say why on their own step card; the panel does not repeat it.
    expect(screen.queryByRole("list", { name: "Warnings" })).toBeNull();

    await fireEvent.click(screen.getByTestId("cancel-run"));
    await waitFor(() => expect(commandCalls(calls, "cancel_run")).toEqual([{ runId: 11 }]));
    expect(screen.getByTestId("run-phase")).toHaveTextContent("Cancelling");
    expect(screen.getByTestId("cancel-run")).toBeDisabled();

    await emitEvents(11, events.slice(7));
    await emitEnded(11, result);
    await waitFor(() => expect(screen.getByTestId("run-phase")).toHaveTextContent("Finished"));
    expect(screen.getByTestId("run-attempts")).toHaveTextContent("4 / 30");
    // Once the run has ended its warnings are in the outcome banner, shown once: not here.
    expect(screen.queryByRole("list", { name: "Warnings" })).toBeNull();
    expect(screen.getByTestId("start-run")).toHaveTextContent("Start again");
  });

  it("shows why a run could not start, with a next step", async () => {
    setup({
      start_run: () =>
        fail("servers_unavailable", "the device servers did not start: no adb", {
          cause: {
            kind: "not_started",
            problems: [{ role: "mobile", server: "adb", problem: { kind: "start_failed", detail: "no adb" } }],
          },
        }),
    });
    await waitFor(() => expect(screen.getByTestId("start-run")).toBeEnabled());
    await fireEvent.click(screen.getByTestId("start-run"));
    const alert = await screen.findByRole("alert");
    // What went wrong in the window's words: by the code, then by its typed cause.
    expect(alert).toHaveTextContent("Not started. The device servers did not start.");
    expect(alert).toHaveTextContent("These roles cannot be served: mobile (adb).");
    expect(alert).not.toHaveTextContent("the device servers did not start: no adb");
    expect(alert).toHaveTextContent("whittle doctor");
    expect(screen.getByTestId("start-run")).toBeEnabled();
  });

  it("keeps working when the device list fails, offering the session's device", async () => {
    setup({
      list_devices: () =>
        fail("config_unavailable", "Whittle's configuration cannot be used: bad json", {
          cause: { kind: "not_json", file: "/w/whittle.json", line: 3, column: 7, detail: "expected `,`" },
        }),
    });
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("/w/whittle.json is not valid JSON (line 3, column 7).");
    expect(alert).toHaveTextContent("expected `,`");
    expect(screen.getByTestId("device-select")).toHaveValue("");
    expect(screen.getByTestId("start-run")).toBeEnabled();
  });

  it("disables Start with the reason when the crash cannot be run live", async () => {
    setup({}, { blockedReason: "Too few of this crash's steps can be replayed for a live run." });
    await waitFor(() => expect(screen.getByTestId("device-select")).toBeEnabled());
    expect(screen.getByTestId("start-run")).toBeDisabled();
    expect(screen.getByText("Too few of this crash's steps can be replayed for a live run.")).toBeInTheDocument();
  });
});
