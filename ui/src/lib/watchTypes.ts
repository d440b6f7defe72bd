// What the live view, the element inspector and the run queue are shown.

/** Left, top, right, bottom, in the picture's pixels. */
export type Bounds = [number, number, number, number];

// From the backend's types (bindings.ts), as the live view and the inspector get them.
export type {
  LiveFrame_Serialize as LiveFrame,
  InspectedNode_Serialize as InspectedNode,
  NearNode_Serialize as NearNode,
} from "../bindings";

export type {
  QueueView_Serialize as QueueView,
  QueueEntry_Serialize as QueueEntry,
  QueueState_Serialize as QueueState,
  QueueUpdate_Serialize as QueueUpdate,
} from "../bindings";
