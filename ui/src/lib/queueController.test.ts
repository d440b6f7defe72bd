import { describe, expect, it, vi } from "vitest";
import { QueueController } from "./queueController.svelte";
import { RunController } from "./runController.svelte";
import { api } from "./api";
import { events } from "../test/runFixtures";
import type { LiveFrame, QueueUpdate } from "./watchTypes";

const frame = (device: string, seq: number): LiveFrame => ({
  device,
  attempt: 1,
  step: 2,
  step_words: null,
  before_action: false,
  seq,
  image: { data_url: `data:image/png;base64,${device}${seq}`, width: 1080, height: 2400 },
  omitted: null,
  outline: null,
});
const framed = (entry: number, f: LiveFrame): QueueUpdate => ({
  kind: "run",
  entry,
  update: { kind: "frame", run_id: 1, frame: f },
});
const ended = (entry: number): QueueUpdate => ({
  kind: "run",
  entry,
  update: { kind: "ended", run_id: 1, result: null, error: null },
});

describe("QueueController", () => {
  it("shows each device of items side by side, and an item's end takes away only its own device", () => {
    const onItemEnded = vi.fn();
    const queue = new QueueController(onItemEnded);
    queue.receive(framed(1, frame("sim-1", 1)));
    queue.receive(framed(2, frame("sim-2", 1)));
    queue.receive(framed(1, frame("sim-1", 2)));
    expect(queue.frames.map((f) => [f.device, f.seq])).toEqual([
      ["sim-1", 2],
      ["sim-2", 1],
    ]);
    queue.receive(ended(2));
    expect(queue.frames.map((f) => f.device)).toEqual(["sim-1"]);
    expect(onItemEnded).toHaveBeenCalledTimes(1);
    // The device freed by item 2 goes on with item 3: its frames are item 3's now.
    queue.receive(framed(3, frame("sim-2", 1)));
    queue.receive(ended(1));
    expect(queue.frames.map((f) => f.device)).toEqual(["sim-2"]);
  });

  it("drops every frame once the queue stops running", () => {
    const queue = new QueueController();
    queue.receive(framed(1, frame("sim-1", 1)));
    queue.receive({ kind: "queue", view: { entries: [], paused: false, running: false } });
    expect(queue.frames).toEqual([]);
  });

  it("hands a followed item's run its messages so far, then each new one, and only its own", async () => {
    const queue = new QueueController();
    const event = (entry: number, attempts: number): QueueUpdate => ({
      kind: "run",
      entry,
      update: { kind: "event", run_id: 7, event: { ...events[1]!, max_replays: attempts } } as never,
    });
    expect(queue.follow(1, { update: vi.fn(), ended: vi.fn() }), "nothing arrived yet: nothing to follow").toBeNull();
    queue.receive(event(1, 1));
    queue.receive(event(2, 1));
    const sink = { update: vi.fn(), ended: vi.fn(), frame: vi.fn() };
    expect(queue.follow(1, sink)).toBe(7);
    expect(sink.update).toHaveBeenCalledTimes(1);
    queue.receive(event(1, 2));
    queue.receive(event(2, 2));
    queue.receive(framed(1, frame("sim-1", 1)));
    expect(sink.update).toHaveBeenCalledTimes(2);
    expect(sink.frame).toHaveBeenCalledTimes(1);
    queue.receive({ kind: "run", entry: 1, update: { kind: "ended", run_id: 7, result: null, error: null } });
    expect(sink.ended).toHaveBeenCalledWith({ run_id: 7, result: null, error: null });
    queue.receive(event(1, 3));
    expect(sink.update, "ended: no longer followed").toHaveBeenCalledTimes(2);
  });

  it("a run view follows a queue item live, and its Cancel cancels that item alone", async () => {
    const queue = new QueueController();
    queue.receive({
      kind: "run",
      entry: 3,
      update: { kind: "event", run_id: 4, event: events[1]! },
    });
    const cancelItem = vi.spyOn(api, "cancelQueueEntry").mockResolvedValue(true);
    const cancelRun = vi.spyOn(api, "cancelRun").mockResolvedValue();
    const run = new RunController();
    await run.follow(
      (sink) => queue.follow(3, sink),
      () => api.cancelQueueEntry(3),
    );
    expect(run.lifecycle).toBe("running");
    expect(run.runId).toBe(4);
    await run.cancel();
    expect(cancelItem).toHaveBeenCalledWith(3);
    expect(cancelRun).not.toHaveBeenCalled();
    queue.receive({ kind: "run", entry: 3, update: { kind: "ended", run_id: 4, result: null, error: null } });
    expect(run.lifecycle).toBe("ended");
  });

  it("a run view with nothing to follow says so and does not start", async () => {
    const run = new RunController();
    await run.follow(
      () => null,
      async () => true,
    );
    expect(run.lifecycle).toBe("idle");
    expect(run.startError?.message).toBe("This run has not started yet: try again in a moment.");
  });
});
