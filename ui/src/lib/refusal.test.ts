import { describe, expect, it } from "vitest";
import { refusalChoice } from "./refusal";

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
