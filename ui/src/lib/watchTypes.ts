// What the live view, the element inspector and the run queue are shown.
import type { RunRefusal_Serialize } from "../bindings";
import type { RunSummary, ShotOmission } from "./runTypes";

/** Left, top, right, bottom, in the picture's pixels. */
export type Bounds = [number, number, number, number];

// From the backend's types (bindings.ts), as the live view and the inspector get them.
export type {
  LiveFrame_Serialize as LiveFrame,
  InspectedNode_Serialize as InspectedNode,
  NearNode_Serialize as NearNode,
} from "../bindings";

export type QueueView = { entries: QueueEntry[]; paused: boolean; running: boolean };

export type QueueEntry = { id: number; session: string; crash_id: string; label: string | null; state: QueueState };

export type QueueState =
  | { state: "waiting" }
  | { state: "running"; evidence_session: string | null; attempts: number; max_replays: number }
  | { state: "finished"; summary: RunSummary }
  | { state: "failed"; refusal: RunRefusal_Serialize }
  | { state: "cancelled" }
  | { state: "skipped"; reason: { kind: "already_minimized"; evidence_session: string } };
