import { fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { describe, expect, it, vi } from "vitest";
import SetupBanner from "./SetupBanner.svelte";
import DeviceSetup from "./DeviceSetup.svelte";
import { commandCalls, fakeBackend } from "../test/ipc";
import { expectTexts } from "../test/text";
import { setLocale } from "../lib/i18n/index.svelte";
import type { Check_Serialize as Check } from "../bindings";

const firstRun = {
  config_path: "/home/t/.config/whittle/whittle.json",
  first_run_demo: "/home/t/.local/share/whittle/demo",
  problem: null,
  log_dir: "/home/t/.local/state/whittle/logs",
  simulator: true,
  privacy_level: "standard" as const,
};

const check = (
  name: Check["name"],
  finding: Check["finding"],
  status: Check["status"],
  subject: string | null = null,
  server: string | null = null,
): Check => ({
  name,
  subject,
  server,
  status,
  finding,
  detail: `${finding} detail`,
  fix: status === "ok" ? null : `fix the ${finding}`,
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
  it("shows each check, worded from its finding, with its fix, and keeps the switch off until all pass", async () => {
    const calls = fakeBackend({
      check_real_device: () => ({
        checks: [
          check("adb", "adb_missing", "fail", null, "phone"),
          check("role", "role_ready", "ok", "mobile", "phone"),
          check("http", "plain_http", "warn", null, "lab"),
        ],
        ready: false,
        in_use: false,
      }),
    });
    render(DeviceSetup, { workspace: "/ws", onclose: () => {}, onchanged: () => {} });
    await waitFor(() => expect(screen.getAllByTestId("setup-check")).toHaveLength(3));
    const [adb, role, http] = screen.getAllByTestId("setup-check");
    expectTexts(adb, [
      "adb on this computer (phone)",
      "Problem: adb was not found",
      // The specifics come as the backend found them; the fix is in the window's words and
      // names the configured server whose --adb to set.
      "adb_missing detail",
      "Fix: Install the Android platform tools",
      "mcpServers.phone",
    ]);
    expectTexts(role, ["Server for role · mobile (phone)", "OK: Starts and offers the role's tools"]);
    expect(role).not.toHaveTextContent("Fix:");
    expectTexts(http, ["Warning: Reached over plain HTTP", "Fix: Use https"]);
    expect(screen.getByRole("button", { name: "Use the real device for runs" })).toBeDisabled();
    expect(commandCalls(calls, "check_real_device")).toEqual([{ workspace: "/ws" }]);
  });

  it("words the checks in Simplified Chinese from the same data", async () => {
    setLocale("zh-CN", false);
    try {
      fakeBackend({
        check_real_device: () => ({
          checks: [check("adb", "remote_missing", "fail", "10.0.0.9:5555", "farm")],
          ready: false,
          in_use: false,
        }),
      });
      render(DeviceSetup, { workspace: "/ws", onclose: () => {}, onchanged: () => {} });
      const [remote] = await screen.findAllByTestId("setup-check");
      expectTexts(remote, ["问题: 远程设备未连接", "修复: 在本机运行 adb connect 10.0.0.9:5555"]);
      expect(remote).not.toHaveTextContent("fix the remote_missing");
    } finally {
      setLocale("en", false);
    }
  });

  it("switches runs to the phone once ready, then checks again", async () => {
    let inUse = false;
    const changed = vi.fn();
    const calls = fakeBackend({
      check_real_device: () => ({ checks: [check("device", "device_ready", "ok", "R58M")], ready: true, in_use: inUse }),
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
