import { fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { describe, expect, it, vi } from "vitest";
import SessionDetailView from "./SessionDetailView.svelte";
import { checkoutDetail } from "../test/fixtures";
import { commandCalls, fail, fakeBackend } from "../test/ipc";

const imported = { ...checkoutDetail, crashes: [] };
const android = (id: string) => ({ id, name: id, platform: "android", kind: "emulator", state: "online" });
const outcome = {
  session_id: imported.session_id,
  evidence_session: "ev-record",
  device: "sim-1",
  end: { kind: "crashed" },
  status: "failed",
  crashes: [{ crash_id: "c1", kind: "java", label: "NPE", step_index: 11, repro_path: [1, 2, 3] }],
  stopped_at_step: null,
};

describe("Run once and record", () => {
  it("replays a session without crashes on the only device and says what it found", async () => {
    const calls = fakeBackend({ list_devices: () => [android("sim-1")], record_flow: () => outcome });
    const onrecorded = vi.fn();
    render(SessionDetailView, { detail: imported, workspace: "/ws", onrecorded });
    await fireEvent.click(screen.getByTestId("record-once"));
    await waitFor(() => expect(screen.getByTestId("record-outcome")).toBeInTheDocument());
    expect(commandCalls(calls, "record_flow")).toEqual([
      { workspace: "/ws", sessionId: imported.session_id, device: "sim-1" },
    ]);
    expect(screen.getByTestId("record-outcome")).toHaveTextContent("1 crash(es) recorded after step 11");
    expect(onrecorded).toHaveBeenCalled();
  });

  it("asks which device when there are several, and says when the flow did not crash", async () => {
    const calls = fakeBackend({
      list_devices: () => [android("sim-1"), android("sim-2")],
      record_flow: () => ({ ...outcome, end: { kind: "ran_to_end" }, status: "passed", crashes: [] }),
    });
    render(SessionDetailView, { detail: imported, workspace: "/ws" });
    await fireEvent.click(screen.getByTestId("record-once"));
    await waitFor(() => expect(screen.getByTestId("record-device")).toBeInTheDocument());
    await fireEvent.change(screen.getByTestId("record-device"), { target: { value: "sim-2" } });
    await fireEvent.click(screen.getByRole("button", { name: "Record on this device" }));
    await waitFor(() => expect(screen.getByTestId("record-outcome")).toHaveTextContent("ran without a crash"));
    expect(commandCalls(calls, "record_flow")[0]).toMatchObject({ device: "sim-2" });
  });

  it("says a replay that stopped early stopped, never that the flow passed", async () => {
    fakeBackend({
      list_devices: () => [android("sim-1")],
      record_flow: () => ({
        ...outcome,
        end: { kind: "stopped", step: 5, reason: "element_not_found" },
        status: "failed",
        crashes: [],
        stopped_at_step: 5,
      }),
    });
    render(SessionDetailView, { detail: imported, workspace: "/ws" });
    await fireEvent.click(screen.getByTestId("record-once"));
    await waitFor(() => expect(screen.getByTestId("record-outcome")).toHaveTextContent("stopped at step 5"));
    expect(screen.getByTestId("record-outcome")).toHaveTextContent("element was not on screen");
    expect(screen.getByTestId("record-outcome")).not.toHaveTextContent("saved as passed");
  });

  it("shows a failed recording in words", async () => {
    fakeBackend({
      list_devices: () => [android("sim-1")],
      record_flow: () =>
        fail("record_failed", "the flow was not recorded: com.example.shop is not installed as a user app on sim-1", {
          detail: "com.example.shop is not installed as a user app on sim-1",
        }),
    });
    render(SessionDetailView, { detail: imported, workspace: "/ws" });
    await fireEvent.click(screen.getByTestId("record-once"));
    await waitFor(() => expect(screen.getByText(/not installed as a user app/)).toBeInTheDocument());
  });

  it("is not offered for a session that has crashes", () => {
    render(SessionDetailView, { detail: checkoutDetail, workspace: "/ws" });
    expect(screen.queryByTestId("record-once")).toBeNull();
  });
});
