// The options every item of a *Minimize all* queue runs with, chosen in the question
// before it starts (the workspace's and a session's ask the same): kept while the window
// is open, so the next queue starts from the last choice. The defaults are a single
// run's.
import type { SearchStrategy } from "../bindings";
import { replaysError } from "./replayBudget";

/** What `start_queue` is sent (the backend checks the counts again). */
export type QueueRunOptions = {
  max_replays: number;
  strategy: SearchStrategy;
  baseline_tries: number;
  include_minimized: boolean;
};

export class QueueOptions {
  maxReplaysText = $state("30");
  strategy = $state<SearchStrategy>("seed");
  baselineTries = $state(1);
  /** Queue the crash groups already minimized too (approved, or not changed since). */
  includeMinimized = $state(false);

  /** Why the budget cannot be sent, or null. */
  get replaysError(): string | null {
    return replaysError(this.maxReplaysText);
  }

  /** The options to send; null while the budget is not a count. */
  get request(): QueueRunOptions | null {
    if (this.replaysError !== null) return null;
    return {
      max_replays: Number(this.maxReplaysText.trim()),
      strategy: this.strategy,
      baseline_tries: this.baselineTries,
      include_minimized: this.includeMinimized,
    };
  }
}

/** The window's one set of queue options. */
export const queueOptions = new QueueOptions();
