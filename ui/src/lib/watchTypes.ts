// What the live view, the element inspector and the run queue are shown. The Rust side
// is writing these types in parallel; until `bindings.ts` carries them they are declared
// here, field for field, and will be replaced by imports from the bindings.
import type { RunRefusal_Serialize } from "../bindings";
import type { RunSummary, ShotOmission } from "./runTypes";

/** Left, top, right, bottom, in the picture's pixels. */
export type Bounds = [number, number, number, number];

/** The latest frame of one device's replay. */
export type LiveFrame = {
  device: string;
  attempt: number;
  /** The plan step being replayed (null: launching / draining). */
  step: number | null;
  /** Increases per device. */
  seq: number;
  /** The masked frame; null when it could not be masked (then `omitted` says why). */
  image: { data_url: string; width: number; height: number } | null;
  /** Why the frame is not shown. */
  omitted: ShotOmission | null;
  /** The element the current step acts on, in image pixels. */
  outline: Bounds | null;
};

export type InspectedNode = {
  resource_id: string;
  text: string;
  content_desc: string;
  class: string;
  bounds: Bounds;
  masked: boolean;
  maestro: string | null;
  robo: string | null;
};

export type NearNode = { node: InspectedNode; score: number; matched_on: "identifier" | "text" | "label" | "focused" };

export type QueueView = { entries: QueueEntry[]; paused: boolean; running: boolean };

export type QueueEntry = { id: number; session: string; crash_id: string; label: string | null; state: QueueState };

export type QueueState =
  | { state: "waiting" }
  | { state: "running"; evidence_session: string | null; attempts: number; max_replays: number }
  | { state: "finished"; summary: RunSummary }
  | { state: "failed"; refusal: RunRefusal_Serialize }
  | { state: "cancelled" }
  | { state: "skipped"; reason: { kind: "already_minimized"; evidence_session: string } };
