import { render, screen, waitFor, within } from "@testing-library/svelte";
import { describe, expect, it } from "vitest";
import RunPanel from "./RunPanel.svelte";
import { RunController } from "../lib/runController.svelte";
import { fakeBackend } from "../test/ipc";
import { summary } from "../test/runFixtures";

const lab = [
  { id: "labA/sim-1", name: "Shop", platform: "android", kind: "emulator", state: "online", server: "labA" },
  { id: "labB/sim-1", name: "Shop", platform: "android", kind: "emulator", state: "online", server: "labB" },
  { id: "labA/sim-2", name: "Shop", platform: "android", kind: "emulator", state: "online", server: "labA" },
];

function setup(devices: unknown[]) {
  fakeBackend({ list_devices: () => devices, start_run: () => 1, cancel_run: () => null });
  render(RunPanel, { run: new RunController(), workspace: "/ws", sessionId: summary.session, crashId: "c1" });
}

describe("RunPanel device pool", () => {
  it("lists a pool across lab hosts grouped by server", async () => {
    setup(lab);
    await waitFor(() => expect(screen.getAllByTestId("device-server")).toHaveLength(2));
    const [a, b] = screen.getAllByTestId("device-server");
    expect(a).toHaveAttribute("label", "labA");
    expect(within(a!).getAllByRole("option").map((o) => o.getAttribute("value"))).toEqual(["labA/sim-1", "labA/sim-2"]);
    expect(b).toHaveAttribute("label", "labB");
    expect(within(b!).getAllByRole("option").map((o) => o.getAttribute("value"))).toEqual(["labB/sim-1"]);
    // Every Android device counts towards the pool size, whichever host serves it.
    expect(within(screen.getByTestId("pool-size")).getAllByRole("option")).toHaveLength(3);
  });

  it("shows no groups for devices of a single server", async () => {
    setup([{ id: "sim-1", name: "Shop", platform: "android", kind: "emulator", state: "online", server: null }]);
    await waitFor(() => expect(screen.getByTestId("device-select")).toHaveValue("sim-1"));
    expect(screen.queryByTestId("device-server")).toBeNull();
  });
});
