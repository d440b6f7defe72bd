import { describe, expect, it } from "vitest";
import { newestFrames } from "./runController.svelte";
import type { LiveFrame } from "./watchTypes";

const frame = (device: string, attempt: number, seq: number): LiveFrame => ({
  device,
  attempt,
  step: null,
  step_words: null,
  before_action: false,
  seq,
  image: { data_url: `data:${device}-${attempt}-${seq}`, width: 10, height: 20 },
  omitted: null,
  outline: null,
});

describe("newestFrames", () => {
  it("keeps one frame per device, the newest, in the order devices first showed", () => {
    let frames: LiveFrame[] = [];
    frames = newestFrames(frames, frame("sim-1", 1, 1));
    frames = newestFrames(frames, frame("sim-2", 2, 1));
    frames = newestFrames(frames, frame("sim-1", 1, 2));
    expect(frames.map((f) => [f.device, f.attempt, f.seq])).toEqual([
      ["sim-1", 1, 2],
      ["sim-2", 2, 1],
    ]);
  });

  it("never lets a late frame replace a newer one, and a new attempt starts its count again", () => {
    let frames = [frame("sim-1", 3, 5)];
    expect(newestFrames(frames, frame("sim-1", 3, 4))).toBe(frames);
    expect(newestFrames(frames, frame("sim-1", 2, 9))).toBe(frames);
    frames = newestFrames(frames, frame("sim-1", 4, 1));
    expect(frames[0]?.attempt).toBe(4);
  });
});
