// What a refused run lets the user choose: the backend sends the refusal's case with
// its data (`ErrorPayload.refusal`), and a refusal for want of a device or a crash
// carries the ones to choose from. Every other refusal is only told, not offered.
import type { CrashChoice, DeviceChoice, DeviceHolder, RunRefusal } from "../bindings";
import { formatCreatedAt } from "./format";
import { t } from "./i18n/index.svelte";

export type RefusalChoice =
  | { kind: "device"; missing: string | null; devices: DeviceChoice[] }
  | { kind: "crash"; missing: string | null; crashes: CrashChoice[] };

/** The choice `refusal` offers, or `null` when there is nothing to choose from. */
export function refusalChoice(refusal: RunRefusal | null | undefined): RefusalChoice | null {
  if (!refusal) return null;
  switch (refusal.kind) {
    case "needs_device":
      return refusal.devices.length > 0 ? { kind: "device", missing: null, devices: refusal.devices } : null;
    case "device_not_found":
      return refusal.devices.length > 0 ? { kind: "device", missing: refusal.device, devices: refusal.devices } : null;
    case "needs_crash":
      return refusal.crashes.length > 0 ? { kind: "crash", missing: null, crashes: refusal.crashes } : null;
    case "crash_not_found":
      return refusal.crashes.length > 0
        ? { kind: "crash", missing: refusal.crash_id, crashes: refusal.crashes }
        : null;
    default:
      return null;
  }
}

/** What is missing, in one sentence: "sim-1 is not a connected Android device: choose one that is." */
export function refusalChoiceLead(choice: RefusalChoice): string {
  if (choice.kind === "device") {
    return choice.missing ? t("refusal.deviceNotFound", { device: choice.missing }) : t("refusal.needsDevice");
  }
  return choice.missing ? t("refusal.crashNotFound", { crash: choice.missing }) : t("refusal.needsCrash");
}

/** Who holds a busy device, in words. */
export function holderWords(holder: DeviceHolder): string {
  switch (holder.kind) {
    case "process":
      // A process id is a name, not a quantity: never grouped as a number is.
      return t("refusal.holderProcess", {
        pid: String(holder.pid),
        purpose: holder.purpose,
        since: formatCreatedAt(holder.since),
      });
    case "lab_session":
      return t("refusal.holderLab", { holder: holder.holder, server: holder.server });
    case "unknown":
      return t("refusal.holderUnknown");
  }
}

/** What a refusal that offers no choice says in the window's language, when its case has words of its own. */
export function refusalNote(refusal: RunRefusal | null | undefined): string | null {
  if (!refusal) return null;
  switch (refusal.kind) {
    case "no_device":
      return t("refusal.noDevice");
    case "device_busy":
      return t("refusal.deviceBusy", { device: refusal.device, holder: holderWords(refusal.holder) });
    case "missing_tool": {
      const where =
        refusal.servers_with_it.length > 0
          ? t("refusal.missingToolElsewhere", { servers: refusal.servers_with_it.join(", ") })
          : t("refusal.missingToolNowhere");
      const lead = t("refusal.missingTool", {
        step: refusal.step,
        action: t(`refusal.action.${refusal.action}`),
        tool: refusal.tool,
        server: refusal.server,
      });
      return `${lead} ${where}`;
    }
    case "reproof_refused":
      return t(`refusal.reproof.${refusal.problem}`);
    default:
      return null;
  }
}
