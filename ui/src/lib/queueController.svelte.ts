// *Minimize all* as the window sees it: starts the backend's queue and folds what it
// sends (the queue's view on every change, and each running item's live frames) into
// state the queue panel and the live view show. The backend decides every state; this
// only keeps the newest. A running item's run can be followed in a run view of its own
// (`follow`): it is handed the run's messages so far, then each new one.
import { api, deliverRunMessage, type RunSink } from "./api";
import { shownError } from "./problem";
import type { QueueRunOptions } from "./queueOptions.svelte";
import { newestFrames, type ShownError } from "./runController.svelte";
import type { LiveFrame, QueueUpdate, QueueView } from "./watchTypes";

type RunMessage = Extract<QueueUpdate, { kind: "run" }>["update"];

export class QueueController {
  view = $state.raw<QueueView | null>(null);
  /** The newest live frame of each device of the items running now (side by side, one
   *  device each). */
  frames = $state.raw<LiveFrame[]>([]);
  /** The entry each device's newest frame came from: an item's end takes only its own. */
  #frameEntry = new Map<string, number>();
  error = $state<ShownError | null>(null);
  /** Told when an item's run ends (the session list and past runs change). */
  #onitemended: () => void;
  /** The queue's run id (every item's messages carry it), once one arrived. */
  #runId: number | null = null;
  /** Each running item's messages so far (frames aside), for a view that follows it. */
  #messages = new Map<number, RunMessage[]>();
  /** The views following an item's run. */
  #followers = new Map<number, RunSink[]>();
  /** A view of the queue being started arrived (it is newer than the one returned). */
  #viewArrived = false;

  constructor(onitemended: () => void = () => {}) {
    this.#onitemended = onitemended;
  }

  get running(): boolean {
    return this.view?.running ?? false;
  }

  async start(workspace: string, session: string | null, options: QueueRunOptions): Promise<void> {
    if (this.running) return;
    this.error = null;
    this.frames = [];
    this.#messages.clear();
    this.#followers.clear();
    this.#viewArrived = false;
    try {
      const view = await api.startQueue(workspace, session, options, (update) => this.receive(update));
      // A change may have arrived before the first view was returned.
      if (!this.#viewArrived) this.view = view;
    } catch (err) {
      this.error = shownError(err);
    }
  }

  receive(update: QueueUpdate): void {
    if (update.kind === "queue") {
      this.#viewArrived = true;
      this.view = update.view;
      if (!update.view.running) this.frames = [];
      return;
    }
    const run = update.update;
    this.#runId = run.run_id;
    const followers = this.#followers.get(update.entry) ?? [];
    if (run.kind === "frame") {
      this.#frameEntry.set(run.frame.device, update.entry);
      this.frames = newestFrames(this.frames, run.frame);
      for (const f of followers) f.frame?.(run.run_id, run.frame);
      return;
    }
    if (run.kind === "ended") {
      this.frames = this.frames.filter((f) => this.#frameEntry.get(f.device) !== update.entry);
      this.#messages.delete(update.entry);
      this.#followers.delete(update.entry);
      for (const f of followers) deliverRunMessage(f, run);
      this.#onitemended();
      return;
    }
    const kept = this.#messages.get(update.entry) ?? [];
    kept.push(run);
    this.#messages.set(update.entry, kept);
    for (const f of followers) deliverRunMessage(f, run);
  }

  /** Follows entry `entry`'s run (it must be running): `sink` gets its messages so far,
   *  then each new one until it ends. The run's id, or null when none of its messages
   *  arrived yet (nothing to follow). */
  follow(entry: number, sink: RunSink): number | null {
    const kept = this.#messages.get(entry);
    if (this.#runId === null || kept === undefined) return null;
    for (const message of kept) deliverRunMessage(sink, message);
    this.#followers.set(entry, [...(this.#followers.get(entry) ?? []), sink]);
    return this.#runId;
  }

  /** Forgets an ended queue (its panel closes). */
  dismiss(): void {
    if (!this.running) this.view = null;
  }

  pause = () => void api.pauseQueue();
  resume = () => void api.resumeQueue();
  move = (id: number, toIndex: number) => void api.moveQueueEntry(id, toIndex);
  cancel = (id: number) => void api.cancelQueueEntry(id);
  cancelAll = () => void api.cancelQueue();
}
