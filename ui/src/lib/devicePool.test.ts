import { describe, expect, it } from "vitest";
import { groupByServer } from "./devicePool";
import type { Device } from "./runTypes";

const device = (id: string, server: string | null): Device => ({
  id,
  name: id,
  platform: "android",
  kind: "emulator",
  state: "online",
  server,
});

describe("groupByServer", () => {
  it("groups a pool by lab host in the order the hosts are listed", () => {
    const groups = groupByServer([
      device("labA/sim-1", "labA"),
      device("labB/sim-1", "labB"),
      device("labA/sim-2", "labA"),
      device("R58M", "labB"),
    ]);
    expect(groups.map((g) => g.server)).toEqual(["labA", "labB"]);
    expect(groups[0]!.devices.map((d) => d.id)).toEqual(["labA/sim-1", "labA/sim-2"]);
    expect(groups[1]!.devices.map((d) => d.id)).toEqual(["labB/sim-1", "R58M"]);
  });

  it("keeps one unnamed group outside a lab", () => {
    const groups = groupByServer([device("sim-1", null), device("sim-2", null)]);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.server).toBeNull();
    expect(groups[0]!.devices).toHaveLength(2);
  });
});
