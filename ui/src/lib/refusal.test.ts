import { describe, expect, it } from "vitest";
import { refusalChoice, refusalNote } from "./refusal";

describe("refusalChoice", () => {
  it("offers the devices of a device refusal and the crashes of a crash refusal", () => {
    const devices = [{ id: "a", name: "A" }];
    expect(refusalChoice({ kind: "needs_device", devices })).toEqual({ kind: "device", missing: null, devices });
    expect(refusalChoice({ kind: "device_not_found", device: "x", devices })).toEqual({ kind: "device", missing: "x", devices });
    const crashes = [{ crash_ids: ["c1"], label: "NPE" }];
    expect(refusalChoice({ kind: "needs_crash", crashes })).toEqual({ kind: "crash", missing: null, crashes });
    expect(refusalChoice({ kind: "crash_not_found", crash_id: "c9", crashes })).toEqual({ kind: "crash", missing: "c9", crashes });
  });

  it("offers nothing when there is nothing to choose from", () => {
    expect(refusalChoice({ kind: "needs_device", devices: [] })).toBeNull();
    expect(refusalChoice({ kind: "crash_not_found", crash_id: "c9", crashes: [] })).toBeNull();
    expect(refusalChoice({ kind: "no_device" })).toBeNull();
    expect(refusalChoice({ kind: "invalid_argument", detail: "max replays 0" })).toBeNull();
    expect(refusalChoice(null)).toBeNull();
    expect(refusalChoice(undefined)).toBeNull();
  });
});

describe("refusalNote", () => {
  it("names who holds a busy device, on this machine or on its lab host", () => {
    const local = refusalNote({
      kind: "device_busy",
      device: "sim-1",
      holder: { kind: "process", pid: 4242, purpose: "minimize checkout", since: "2026-12-06T10:00:00Z" },
    });
    expect(local).toContain("sim-1");
    expect(local).toContain("Whittle process 4242, minimize checkout");
    const lab = refusalNote({
      kind: "device_busy",
      device: "labA/sim-1",
      holder: { kind: "lab_session", server: "labA", holder: "MCP session 3 (whittle)" },
    });
    expect(lab).toContain("MCP session 3 (whittle), on lab host labA");
  });

  it("names the step, the tool and the servers that have it", () => {
    const note = refusalNote({
      kind: "missing_tool",
      step: 4,
      action: "long_press",
      tool: "long_press_element",
      server: "peer",
      servers_with_it: ["sim"],
    });
    expect(note).toContain("Step 4");
    expect(note).toContain("long_press_element");
    expect(note).toContain("Servers that offer it: sim.");
    const nowhere = refusalNote({ kind: "missing_tool", step: 2, action: "long_press", tool: "long_press_element", server: "peer", servers_with_it: [] });
    expect(nowhere).toContain("No configured ui server offers it.");
  });

  it("says nothing of its own for other refusals", () => {
    // `no_device` has words now: the window no longer shows the backend's English.
    expect(refusalNote({ kind: "no_device" })).toBe("No Android device is online: connect one or start the simulator.");
    expect(refusalNote({ kind: "no_crash" })).toBeNull();
    expect(refusalNote(null)).toBeNull();
  });
});
