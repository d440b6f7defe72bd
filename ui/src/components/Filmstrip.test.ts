import { fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { describe, expect, it, vi } from "vitest";
import Filmstrip from "./Filmstrip.svelte";
import { commandCalls, fakeBackend } from "../test/ipc";

const pixel = "data:image/png;base64,iVBORw0KGgo=";

/** Frame `position` of attempt 16's strip, kept (with its picture name) after step `step`. */
const kept = (position: number, step: number) => ({
  position,
  step,
  name: `filmstrip/attempt-016/step-0${position}.png`,
  image: pixel,
  omitted: null,
  before_action: false,
});

/** The strip as the backend sends it. */
const strip = (frames: unknown[]) => ({ attempt: 16, extra_device_ms: 946, frames });

describe("Filmstrip", () => {
  it("says when the crash step's frame is the screen right before its action", async () => {
    fakeBackend({
      filmstrip: () => strip([kept(1, 1), kept(2, 8), { ...kept(3, 11), before_action: true }]),
    });
    render(Filmstrip, { workspace: "/ws", evidenceSession: "ev-1" });
    await waitFor(() => expect(screen.getByTestId("filmstrip")).toBeInTheDocument());
    expect(screen.getByText(/Step 3 · right before original step 11, which crashed the app/)).toBeInTheDocument();
    expect(screen.getByText(/Step 2 · original step 8$/)).toBeInTheDocument();
  });

  it("shows each frame numbered as the steps, an omitted one with its reason, and the device time", async () => {
    const calls = fakeBackend({
      filmstrip: () =>
        strip([kept(1, 1), kept(2, 8), { position: 3, step: 11, name: null, image: null, omitted: { kind: "empty_hierarchy" }, before_action: false }]),
    });
    render(Filmstrip, { workspace: "/ws", evidenceSession: "ev-1" });
    await waitFor(() => expect(screen.getByTestId("filmstrip")).toBeInTheDocument());
    expect(commandCalls(calls, "filmstrip")).toEqual([{ workspace: "/ws", evidenceSession: "ev-1" }]);
    expect(screen.getByText(/replay 16 .*0\.9 s of extra device time/)).toBeInTheDocument();
    expect(screen.getAllByRole("img")).toHaveLength(3);
    expect(screen.getByText("Omitted: the UI hierarchy is empty (as when the app has just crashed)")).toBeInTheDocument();
    expect(screen.getByText(/Step 2 · original step 8/)).toBeInTheDocument();
    expect(screen.getByText(/Step 1 · after the launch/)).toBeInTheDocument();
  });

  it("opens a kept frame by its picture name, and reloads when its pixels change", async () => {
    let omitted = false;
    const calls = fakeBackend({
      filmstrip: () =>
        strip([
          kept(1, 1),
          omitted ? { position: 2, step: 8, name: null, image: null, omitted: { kind: "by_reviewer" }, before_action: false } : kept(2, 8),
        ]),
    });
    const onopen = vi.fn();
    const view = render(Filmstrip, { workspace: "/ws", evidenceSession: "ev-1", onopen, version: 0 });
    const frames = await screen.findAllByTestId("filmstrip-frame");
    expect(frames).toHaveLength(2);
    await fireEvent.click(frames[1]!);
    expect(onopen).toHaveBeenCalledWith("filmstrip/attempt-016/step-02.png");

    omitted = true;
    await view.rerender({ workspace: "/ws", evidenceSession: "ev-1", onopen, version: 1 });
    await waitFor(() => expect(screen.getByText("Omitted: omitted by the reviewer")).toBeInTheDocument());
    expect(screen.getAllByTestId("filmstrip-frame")).toHaveLength(1);
    expect(commandCalls(calls, "filmstrip")).toHaveLength(2);
  });

  it("shows nothing when the run took no filmstrip", async () => {
    const calls = fakeBackend({ filmstrip: () => null });
    render(Filmstrip, { workspace: "/ws", evidenceSession: "ev-1" });
    await waitFor(() => expect(commandCalls(calls, "filmstrip")).toHaveLength(1));
    expect(screen.queryByTestId("filmstrip")).toBeNull();
  });
});
