import { Channel } from "@tauri-apps/api/core";
import { describe, expect, it } from "vitest";
import { api, CommandError, describeError, errorCode } from "./api";
import { commandCalls, fail, fakeBackend } from "../test/ipc";

describe("api (run commands)", () => {
  it("calls each command by its snake_case name with camelCase argument keys", async () => {
    const calls = fakeBackend({
      list_devices: () => [],
      start_run: () => 7,
      cancel_run: () => null,
      approve_run: () => ({ sidecar_path: "/s", written_text: "{}" }),
      export_run: () => "/out/bundle",
      reveal_path: () => null,
      screenshot_image: () => null,
      apply_masks: () => 2,
      omit_screenshot: () => null,
    });
    const request = { workspace: "/ws", session_id: "s", crash_id: "c1", max_replays: 30, device: null, strategy: "seed" as const, devices: 1, locale: "en" };
    await api.listDevices("/ws");
    expect(await api.startRun(request)).toBe(7);
    await api.cancelRun(7);
    await api.approveRun("ev");
    expect(await api.exportRun("ev", "/out")).toBe("/out/bundle");
    await api.revealPath("/out/bundle");
    await api.screenshotImage("/ws", "ev", "screenshots/a.png");
    const mask = { workspace: "/ws", evidence_session: "ev", screenshots: ["a"], rects: [], style: "blur" as const };
    expect(await api.applyMasks(mask)).toBe(2);
    await api.omitScreenshot("/ws", "ev", "screenshots/a.png");
    expect(calls.map((c) => [c.cmd, c.args])).toEqual([
      ["list_devices", { workspace: "/ws" }],
      ["start_run", { request, onUpdate: expect.any(Channel) }],
      ["cancel_run", { runId: 7 }],
      ["approve_run", { evidenceSession: "ev", replace: false }],
      ["export_run", { evidenceSession: "ev", folder: "/out" }],
      ["reveal_path", { path: "/out/bundle" }],
      ["screenshot_image", { workspace: "/ws", evidenceSession: "ev", name: "screenshots/a.png" }],
      ["apply_masks", { request: mask }],
      ["omit_screenshot", { workspace: "/ws", evidenceSession: "ev", name: "screenshots/a.png" }],
    ]);
    expect(commandCalls(calls, "cancel_run")).toEqual([{ runId: 7 }]);
  });

  it("turns a rejected ErrorPayload into a CommandError with its code", async () => {
    fakeBackend({ start_run: () => fail("run_in_progress", "a minimize run is already in progress") });
    const err = await api
      .startRun({ workspace: "/ws", session_id: "s", crash_id: "c1", max_replays: 1, device: null, strategy: "seed" as const, devices: 1, locale: "en" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CommandError);
    expect(errorCode(err)).toBe("run_in_progress");
    expect(describeError(err)).toBe("a minimize run is already in progress");
  });
});
