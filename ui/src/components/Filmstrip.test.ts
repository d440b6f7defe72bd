import { render, screen, waitFor } from "@testing-library/svelte";
import { describe, expect, it } from "vitest";
import Filmstrip from "./Filmstrip.svelte";
import { commandCalls, fakeBackend } from "../test/ipc";

const pixel = "data:image/png;base64,iVBORw0KGgo=";

describe("Filmstrip", () => {
  it("shows each frame numbered as the steps, an omitted one with its reason, and the device time", async () => {
    const calls = fakeBackend({
      filmstrip: () => ({
        attempt: 16,
        extra_device_ms: 946,
        frames: [
          { position: 1, step: 1, image: pixel, omitted: null },
          { position: 2, step: 8, image: pixel, omitted: null },
          { position: 3, step: 11, image: null, omitted: "the UI hierarchy is empty" },
        ],
      }),
    });
    render(Filmstrip, { workspace: "/ws", evidenceSession: "ev-1" });
    await waitFor(() => expect(screen.getByTestId("filmstrip")).toBeInTheDocument());
    expect(commandCalls(calls, "filmstrip")).toEqual([{ workspace: "/ws", evidenceSession: "ev-1" }]);
    expect(screen.getByText(/replay 16 .*0\.9 s of extra device time/)).toBeInTheDocument();
    expect(screen.getAllByRole("img")).toHaveLength(3);
    expect(screen.getByText("Omitted: the UI hierarchy is empty")).toBeInTheDocument();
    expect(screen.getByText(/Step 2 · original step 8/)).toBeInTheDocument();
    expect(screen.getByText(/Step 1 · after the launch/)).toBeInTheDocument();
  });

  it("shows nothing when the run took no filmstrip", async () => {
    const calls = fakeBackend({ filmstrip: () => null });
    render(Filmstrip, { workspace: "/ws", evidenceSession: "ev-1" });
    await waitFor(() => expect(commandCalls(calls, "filmstrip")).toHaveLength(1));
    expect(screen.queryByTestId("filmstrip")).toBeNull();
  });
});
