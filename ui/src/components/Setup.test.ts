import { fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { describe, expect, it, vi } from "vitest";
import SetupBanner from "./SetupBanner.svelte";
import DeviceSetup from "./DeviceSetup.svelte";
import { commandCalls, fakeBackend } from "../test/ipc";

const firstRun = {
  config_path: "/home/t/.config/whittle/whittle.json",
  first_run_demo: "/home/t/.local/share/whittle/demo",
  problem: null,
  log_dir: "/home/t/.local/state/whittle/logs",
  simulator: true,
  privacy_level: "standard" as const,
};

const check = (name: "adb" | "role" | "devices", ok: boolean, subject: string | null = null) => ({
  name,
  subject,
  ok,
  detail: ok ? `${name} fine` : `${name} broken`,
  fix: ok ? null : `fix the ${name}`,
});

describe("SetupBanner", () => {
  it("says in one line what the first run set up and offers the two ways on", async () => {
    const open = vi.fn();
    const connect = vi.fn();
    render(SetupBanner, { setup: firstRun, onopenworkspace: open, onconnectdevice: connect });
    expect(screen.getByTestId("first-run")).toHaveTextContent("/home/t/.local/share/whittle/demo");
    await fireEvent.click(screen.getByTestId("open-own-workspace"));
    await fireEvent.click(screen.getByTestId("connect-device"));
    expect(open).toHaveBeenCalledOnce();
    expect(connect).toHaveBeenCalledOnce();
  });

  it("stays quiet on a later start", () => {
    render(SetupBanner, {
      setup: { ...firstRun, first_run_demo: null },
      onopenworkspace: () => {},
      onconnectdevice: () => {},
    });
    expect(screen.queryByTestId("first-run")).toBeNull();
  });
});

describe("DeviceSetup", () => {
  it("shows each check with its fix and keeps the switch off until all pass", async () => {
    const calls = fakeBackend({
      check_real_device: () => ({
        checks: [check("adb", false), check("role", true, "mobile")],
        ready: false,
        in_use: false,
      }),
    });
    render(DeviceSetup, { workspace: "/ws", onclose: () => {}, onchanged: () => {} });
    await waitFor(() => expect(screen.getAllByTestId("setup-check")).toHaveLength(2));
    const [adb, role] = screen.getAllByTestId("setup-check");
    expect(adb).toHaveTextContent("adb broken");
    expect(adb).toHaveTextContent("fix the adb");
    expect(role).toHaveTextContent("mobile");
    expect(screen.getByRole("button", { name: "Use the real device for runs" })).toBeDisabled();
    expect(commandCalls(calls, "check_real_device")).toEqual([{ workspace: "/ws" }]);
  });

  it("switches runs to the phone once ready, then checks again", async () => {
    let inUse = false;
    const changed = vi.fn();
    const calls = fakeBackend({
      check_real_device: () => ({ checks: [check("devices", true, "R58M")], ready: true, in_use: inUse }),
      use_real_device: () => {
        inUse = true;
        return { ...firstRun, simulator: false };
      },
    });
    render(DeviceSetup, { workspace: "/ws", onclose: () => {}, onchanged: changed });
    const use = await screen.findByRole("button", { name: "Use the real device for runs" });
    await waitFor(() => expect(use).toBeEnabled());
    await fireEvent.click(use);
    await waitFor(() => expect(changed).toHaveBeenCalledWith(expect.objectContaining({ simulator: false })));
    expect(commandCalls(calls, "use_real_device")).toEqual([{ real: true }]);
    expect(await screen.findByRole("button", { name: "Back to the simulator" })).toBeInTheDocument();
  });

  it("closes on Escape", async () => {
    fakeBackend({ check_real_device: () => ({ checks: [], ready: false, in_use: false }) });
    const close = vi.fn();
    render(DeviceSetup, { workspace: "/ws", onclose: close, onchanged: () => {} });
    await fireEvent.keyDown(screen.getByTestId("device-setup"), { key: "Escape" });
    expect(close).toHaveBeenCalledOnce();
  });
});
