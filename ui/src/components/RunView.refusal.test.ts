import { fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { describe, expect, it, vi } from "vitest";
import RunView from "./RunView.svelte";
import { commandCalls, emitEnded, fakeBackend } from "../test/ipc";
import { checkoutDetail } from "../test/fixtures";
import type { RunEnded } from "../lib/runTypes";

const crash = checkoutDetail.crashes[0]!;

function setup() {
  const calls = fakeBackend({
    list_devices: () => [{ id: "sim-1", name: "Sim", platform: "android", type: "emulator", state: "online" }],
    start_run: () => 3,
  });
  const onchoosecrash = vi.fn();
  render(RunView, { workspace: "/ws", detail: checkoutDetail, crash, onback: () => {}, onchoosecrash });
  return { calls, onchoosecrash };
}

async function startAndRefuse(error: NonNullable<RunEnded["error"]>) {
  await waitFor(() => expect(screen.getByTestId("start-run")).toBeEnabled());
  await fireEvent.click(screen.getByTestId("start-run"));
  await waitFor(() => expect(screen.getByTestId("cancel-run")).toBeEnabled());
  await emitEnded(3, null, error);
}

describe("RunView after a refused run", () => {
  it("offers the online devices when the chosen one is gone, and retries on the one picked", async () => {
    const { calls } = setup();
    await startAndRefuse({
      code: "run_refused",
      message: "the run cannot start: device sim-1 is not an online Android device (available: labA/sim-1, labB/sim-1)",
      refusal: {
        kind: "device_not_found",
        device: "sim-1",
        devices: [
          { id: "labA/sim-1", name: "Pixel 7" },
          { id: "labB/sim-1", name: "" },
        ],
      },
    });
    const choice = await screen.findByTestId("refusal-choice");
    expect(choice).toHaveTextContent("sim-1 is not a connected Android device");
    const options = [...screen.getByTestId<HTMLSelectElement>("refusal-select").options].map((o) => o.value);
    expect(options).toEqual(["labA/sim-1", "labB/sim-1"]);
    await fireEvent.change(screen.getByTestId("refusal-select"), { target: { value: "labB/sim-1" } });
    await fireEvent.click(screen.getByTestId("refusal-act"));
    await waitFor(() => expect(commandCalls(calls, "start_run")).toHaveLength(2));
    const [first, again] = commandCalls(calls, "start_run") as Array<{ request: Record<string, unknown> }>;
    expect(again!.request).toEqual({ ...first!.request, device: "labB/sim-1" });
  });

  it("offers the session's crashes when the crash is not among them", async () => {
    const { onchoosecrash } = setup();
    await startAndRefuse({
      code: "run_refused",
      message: "the run cannot start: crash c1 is not in session s (crashes: c2: ANR)",
      refusal: { kind: "crash_not_found", crash_id: "c1", crashes: [{ crash_ids: ["c2", "c4"], label: "ANR in Cart" }] },
    });
    expect(await screen.findByTestId("refusal-choice")).toHaveTextContent("Crash c1 is not among this session's crashes");
    expect(screen.getByTestId("refusal-select")).toHaveTextContent("c2, c4: ANR in Cart");
    await fireEvent.click(screen.getByTestId("refusal-act"));
    expect(onchoosecrash).toHaveBeenCalledWith("c2");
  });

  it("offers nothing for a refusal without a choice", async () => {
    setup();
    await startAndRefuse({
      code: "run_refused",
      message: "the run cannot start: no online Android device is available; connect one or start the simulator",
      refusal: { kind: "no_device" },
    });
    await waitFor(() =>
      expect(screen.getByTestId("refusal-note")).toHaveTextContent("No Android device is online: connect one or start the simulator."),
    );
    expect(screen.queryByTestId("refusal-choice")).toBeNull();
  });
});
