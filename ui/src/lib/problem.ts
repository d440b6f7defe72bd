// A thrown value as the window keeps it: the backend's message and its stable code. The
// words around it are chosen when it is shown (ProblemNote), so they follow the language.
import { describeError, errorCode } from "./api";
import type { ShownError } from "./runController.svelte";

export function shownError(err: unknown): ShownError {
  return { message: describeError(err), code: errorCode(err) };
}
