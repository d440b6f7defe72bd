// Which run a queue entry opens: a running item's live run, or the evidence of the run
// it finished with — or, skipped because it is already minimized, of that run.
import type { QueueEntry } from "./watchTypes";

export type EntryRun = { kind: "live" } | { kind: "past"; evidenceSession: string };

/** The run `entry` opens, or null (waiting, refused, cancelled, an unreadable session,
 *  or a running item whose evidence does not exist yet). */
export function entryRun(entry: QueueEntry): EntryRun | null {
  if (entry.crash_id === null) return null;
  const state = entry.state;
  switch (state.state) {
    case "running":
      return state.evidence_session ? { kind: "live" } : null;
    case "finished":
      return state.summary.evidence_session ? { kind: "past", evidenceSession: state.summary.evidence_session } : null;
    case "skipped":
      return state.reason.kind === "already_minimized" || state.reason.kind === "minimized_unchanged"
        ? { kind: "past", evidenceSession: state.reason.evidence_session }
        : null;
    default:
      return null;
  }
}
