import { describe, expect, it, vi } from "vitest";
import { QueueController } from "./queueController.svelte";
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
});
