// A fake backend for component tests: records every command with its arguments and
// delivers run progress on the channel the last `start_run` was given, as the backend does.
import type { Channel } from "@tauri-apps/api/core";
import { mockIPC } from "@tauri-apps/api/mocks";
import type { RunEnded, RunEvent, RunResultView } from "../lib/runTypes";
import type { LiveFrame } from "../lib/watchTypes";

let lastChannel: ((message: unknown) => void) | null = null;

export type Calls = Array<{ cmd: string; args: Record<string, unknown> }>;
export type Handlers = Record<string, (args: Record<string, unknown>) => unknown>;

export function fakeBackend(handlers: Handlers): Calls {
  const calls: Calls = [];
  mockIPC(
    (cmd, args) => {
      const a = (args ?? {}) as Record<string, unknown>;
      calls.push({ cmd, args: a });
      if ((cmd === "start_run" || cmd === "resume_run") && a.onUpdate) lastChannel = channelSender(a.onUpdate);
      const handler = handlers[cmd];
      if (!handler) throw new Error(`unexpected command ${cmd}`);
      return handler(a);
    },
    { shouldMockEvents: true },
  );
  return calls;
}

export const commandCalls = (calls: Calls, cmd: string) => calls.filter((c) => c.cmd === cmd).map((c) => c.args);

function send(message: unknown) {
  if (!lastChannel) throw new Error("no start_run channel to send on");
  lastChannel(message);
}

const settle = () => new Promise((r) => setTimeout(r, 0));

export async function emitEvents(runId: number, events: RunEvent[]): Promise<void> {
  for (const event of events) send({ kind: "event", run_id: runId, event });
  await settle();
}

/** Live frames of run `runId`, as the backend sends them while devices replay. */
export async function emitFrames(runId: number, frames: LiveFrame[]): Promise<void> {
  for (const frame of frames) send({ kind: "frame", run_id: runId, frame });
  await settle();
}

export async function emitEnded(runId: number, result: RunResultView | null, error: RunEnded["error"] = null) {
  send({ kind: "ended", run_id: runId, result, error });
  await settle();
}

/** A payload-shaped rejection, as Tauri delivers a command's Err. */
/** A command's error as the backend sends it: its code, typed fields and English sentence. */
export function fail(code: string, message: string, fields: Record<string, unknown> = {}): never {
  throw { code, ...fields, message };
}

/** Sends messages on a channel argument, as the backend would (in order, by index). */
export function channelSender(channel: unknown): (message: unknown) => void {
  const id = (channel as Channel<unknown>).id;
  let index = 0;
  const internals = (window as unknown as { __TAURI_INTERNALS__: { runCallback: (id: number, data: unknown) => void } })
    .__TAURI_INTERNALS__;
  return (message) => internals.runCallback(id, { index: index++, message });
}
