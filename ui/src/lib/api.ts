// The UI's single door to the Rust side: unwraps tauri-specta's Result objects so views
// deal in values and one error shape.
import { commands } from "../bindings";
import type { ErrorPayload, SessionDetail, SessionSummary } from "./types";

export class CommandError extends Error {
  readonly code: ErrorPayload["code"];
  constructor(payload: ErrorPayload) {
    super(payload.message);
    this.code = payload.code;
  }
}

type Outcome<T> = { status: "ok"; data: T } | { status: "error"; error: ErrorPayload };

function unwrap<T>(outcome: Outcome<T>): T {
  if (outcome.status === "ok") return outcome.data;
  throw new CommandError(outcome.error);
}

/** A message for any thrown value, worded for a tester (never a stack trace). */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === "string") return err;
  return "Something went wrong talking to the Whittle backend.";
}

export const api = {
  defaultWorkspace: (): Promise<string> => commands.defaultWorkspace(),
  listSessions: async (workspace: string): Promise<SessionSummary[]> =>
    unwrap(await commands.listSessions(workspace)),
  sessionDetail: async (workspace: string, sessionId: string): Promise<SessionDetail> =>
    unwrap(await commands.sessionDetail(workspace, sessionId)),
};
