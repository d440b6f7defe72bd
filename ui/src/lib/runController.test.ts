import { Channel } from "@tauri-apps/api/core";
import { describe, expect, it } from "vitest";
import { RunController } from "./runController.svelte";
import { channelSender, commandCalls, emitEnded, emitEvents, fail, fakeBackend } from "../test/ipc";
import { events, result, summary } from "../test/runFixtures";

const request = { workspace: "/ws", session_id: summary.session, crash_id: "c1", max_replays: 30, device: "sim-1", strategy: "seed" as const, devices: 1, locale: "en" };

describe("RunController", () => {
  it("starts, folds its own run's events, ignores other runs, and ends with the result", async () => {
    const calls = fakeBackend({ start_run: () => 4 });
    const run = new RunController(() => 0);
    await run.start(request);
    expect(commandCalls(calls, "start_run")).toEqual([{ request, onUpdate: expect.any(Channel) }]);
    expect(run.lifecycle).toBe("running");
    expect(run.busy).toBe(true);

    await emitEvents(9, events); // another window's run
    expect(run.state.rows).toHaveLength(0);

    await emitEvents(4, events);
    expect(run.state.rows).toHaveLength(4);
    expect(run.state.summary).toEqual(summary);

    await emitEnded(9, null, { code: "run_refused", refusal: { kind: "cancelled" }, message: "not ours" });
    expect(run.lifecycle).toBe("running");
    await emitEnded(4, result);
    expect(run.lifecycle).toBe("ended");
    expect(run.result).toEqual(result);
    expect(run.endError).toBeNull();
    run.dispose();
  });

  it("keeps events that arrive before start_run returns the run id", async () => {
    let answer: (id: number) => void = () => {};
    fakeBackend({ start_run: () => new Promise<number>((resolve) => (answer = resolve)) });
    const run = new RunController(() => 0);
    const started = run.start(request);
    await new Promise((r) => setTimeout(r, 0));
    await emitEvents(5, events.slice(0, 4));
    expect(run.lifecycle).toBe("starting");
    answer(5);
    await started;
    expect(run.state.rows).toHaveLength(1);
    expect(run.state.evidenceSession).toBe(summary.evidence_session);
    run.dispose();
  });

  it("shows why a run could not start and lets it be started again", async () => {
    const cause = { kind: "no_config", env: "WHITTLE_CONFIG", expected: "/home/t/.config/whittle/whittle.json" };
    fakeBackend({ start_run: () => fail("config_unavailable", "Whittle's configuration cannot be used: none", { cause }) });
    const run = new RunController();
    await run.start(request);
    expect(run.lifecycle).toBe("idle");
    expect(run.startError).toEqual({
      message: "Whittle's configuration cannot be used: none",
      code: "config_unavailable",
      error: { code: "config_unavailable", cause, message: "Whittle's configuration cannot be used: none" },
    });
    run.dispose();
  });

  it("cancels its own run once and reports an ended run's error", async () => {
    const calls = fakeBackend({ start_run: () => 2, cancel_run: () => null });
    const run = new RunController();
    await run.start(request);
    await run.cancel();
    await run.cancel();
    expect(commandCalls(calls, "cancel_run")).toEqual([{ runId: 2 }]);
    expect(run.cancelRequested).toBe(true);
    const lost = { code: "servers_unavailable", cause: { kind: "failed", detail: "device lost" }, message: "m" } as const;
    await emitEnded(2, null, lost);
    expect(run.lifecycle).toBe("ended");
    expect(run.endError).toEqual(lost);
    run.dispose();
  });

  it("also takes progress from start_run's channel, for a backend that sends it there", async () => {
    let send: (message: unknown) => void = () => {};
    fakeBackend({
      start_run: (args) => {
        send = channelSender(args.onUpdate);
        send({ kind: "event", run_id: 6, event: events[1] }); // before the id is returned
        return 6;
      },
    });
    const run = new RunController(() => 0);
    await run.start(request);
    expect(run.state.evidenceSession).toBe(summary.evidence_session);
    for (const event of events.slice(2)) send({ kind: "event", run_id: 6, event });
    expect(run.state.rows).toHaveLength(4);
    send({ kind: "ended", run_id: 6, result });
    expect(run.lifecycle).toBe("ended");
    expect(run.result).toEqual(result);
    expect(run.endError).toBeNull();
    run.dispose();
  });

  it("stops listening when disposed", async () => {
    fakeBackend({ start_run: () => 1 });
    const run = new RunController();
    await run.start(request);
    run.dispose();
    await new Promise((r) => setTimeout(r, 0));
    await emitEvents(1, events.slice(0, 4));
    expect(run.state.rows).toHaveLength(0);
  });

  it("resumes an interrupted run through resume_run and folds its events like a new one", async () => {
    const calls = fakeBackend({ resume_run: () => 7 });
    const run = new RunController(() => 0);
    const resume = { workspace: "/ws", evidence_session: summary.evidence_session!, locale: "en" };
    await run.resume(resume);
    expect(commandCalls(calls, "resume_run")).toEqual([{ request: resume, onUpdate: expect.any(Channel) }]);
    expect(commandCalls(calls, "start_run")).toEqual([]);
    expect(run.lifecycle).toBe("running");
    expect(run.lastRequest).toBeNull();
    await emitEvents(7, events);
    expect(run.state.rows).toHaveLength(4);
    await emitEnded(7, result);
    expect(run.lifecycle).toBe("ended");
    expect(run.result).toEqual(result);
    run.dispose();
  });

  it("shows why a resume was refused", async () => {
    fakeBackend({
      resume_run: () =>
        fail("run_refused", "the run cannot start: the files of session s changed since the run started", {
          refusal: { kind: "resume_refused", detail: "the files of session s changed since the run started" },
        }),
    });
    const run = new RunController();
    await run.resume({ workspace: "/ws", evidence_session: "e1", locale: "en" });
    expect(run.lifecycle).toBe("idle");
    expect(run.startError?.error).toMatchObject({ code: "run_refused", refusal: { kind: "resume_refused" } });
    run.dispose();
  });
});
