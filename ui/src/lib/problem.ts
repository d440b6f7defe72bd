// A thrown value as the window keeps it: the typed error of a failed command (worded
// from its code and fields when it is shown, in ProblemNote, so the words follow the
// language), else the thrown value's own message.
import { describeError, errorCode, errorPayload } from "./api";
import type { ShownError } from "./runController.svelte";

export function shownError(err: unknown): ShownError {
  return { message: describeError(err), code: errorCode(err), error: errorPayload(err) };
}
