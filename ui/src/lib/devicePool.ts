// The run panel's device list, grouped by the lab host (configured server) that serves
// each device when the device roles span several servers.
import type { Device } from "./runTypes";

export type DeviceGroup = { server: string | null; devices: Device[] };

/** Groups in the order servers first appear; a single unnamed group outside a lab. */
export function groupByServer(devices: Device[]): DeviceGroup[] {
  const groups: DeviceGroup[] = [];
  for (const device of devices) {
    const server = device.server ?? null;
    let group = groups.find((g) => g.server === server);
    if (!group) {
      group = { server, devices: [] };
      groups.push(group);
    }
    group.devices.push(device);
  }
  return groups;
}
