// *Minimize all* as the window sees it: starts the backend's queue and folds what it
// sends (the queue's view on every change, and each running item's live frames) into
// state the queue panel and the live view show. The backend decides every state; this
// only keeps the newest.
import { api } from "./api";
import { shownError } from "./problem";
import { newestFrames, type ShownError } from "./runController.svelte";
import type { LiveFrame, QueueUpdate, QueueView } from "./watchTypes";

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

  constructor(onitemended: () => void = () => {}) {
    this.#onitemended = onitemended;
  }

  get running(): boolean {
    return this.view?.running ?? false;
  }

  async start(workspace: string, session: string | null): Promise<void> {
    if (this.running) return;
    this.error = null;
    this.frames = [];
    try {
      const view = await api.startQueue(workspace, session, (update) => this.receive(update));
      // A change may have arrived before the first view was returned.
      if (this.view === null) this.view = view;
    } catch (err) {
      this.error = shownError(err);
    }
  }

  receive(update: QueueUpdate): void {
    if (update.kind === "queue") {
      this.view = update.view;
      if (!update.view.running) this.frames = [];
      return;
    }
    const run = update.update;
    if (run.kind === "frame") {
      this.#frameEntry.set(run.frame.device, update.entry);
      this.frames = newestFrames(this.frames, run.frame);
    } else if (run.kind === "ended") {
      this.frames = this.frames.filter((f) => this.#frameEntry.get(f.device) !== update.entry);
      this.#onitemended();
    }
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
