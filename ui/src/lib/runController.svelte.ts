// One crash's minimize run as the window sees it: starts and cancels it, and folds the
// backend's events (from start_run's channel) into RunScreenState. They are checked against
// the run id; the ones that arrive before `start_run` has returned that id are held and
// replayed once it is known.
import type { AppError_Serialize as AppError } from "../bindings";
import { api, type RunSink } from "./api";
import { t } from "./i18n/index.svelte";
import { shownError } from "./problem";
import type { LiveFrame } from "./watchTypes";
import { initialRunScreenState, reduce, replayAll, type RunScreenState } from "./runScreenState";
import type {
  ReopenedRun,
  ResumeRequest,
  RunEnded,
  RunErrorPayload,
  RunResultView,
  RunUpdate,
  StartRunRequest,
} from "./runTypes";

export type RunLifecycle = "idle" | "starting" | "running" | "ended";

/** A failed command's typed error (`error`, worded by the window), or for anything else
 *  thrown the thrown value's own message. */
export type ShownError = { message: string; code: string | null; error?: AppError | null };

type Incoming =
  | { kind: "update"; update: RunUpdate }
  | { kind: "ended"; ended: RunEnded }
  | { kind: "frame"; runId: number; frame: LiveFrame };

export class RunController {
  lifecycle = $state<RunLifecycle>("idle");
  runId = $state<number | null>(null);
  state = $state.raw<RunScreenState>(initialRunScreenState());
  result = $state.raw<RunResultView | null>(null);
  /** Why `start_run` refused; the run never began. */
  startError = $state<ShownError | null>(null);
  /** Why a started run ended without a result. */
  endError = $state.raw<RunErrorPayload | null>(null);
  cancelRequested = $state(false);
  cancelError = $state<ShownError | null>(null);
  /** The request of the last start, for "Try again". */
  lastRequest = $state.raw<StartRunRequest | null>(null);
  /** Shown from the evidence on disk (a past run), not watched live. */
  reopened = $state(false);
  /** The newest live frame of each device while the run goes on; gone when it ends. */
  frames = $state.raw<LiveFrame[]>([]);

  #held: Incoming[] = [];
  #disposed = false;
  /** How a followed run is cancelled (`follow`); otherwise by its run id. */
  #cancel: (() => Promise<unknown>) | null = null;
  readonly #clock: () => number;

  constructor(clock: () => number = Date.now) {
    this.#clock = clock;
  }

  get busy(): boolean {
    return this.lifecycle === "starting" || this.lifecycle === "running";
  }

  async start(request: StartRunRequest): Promise<void> {
    if (!this.busy) this.#cancel = null;
    await this.#launch(request, (sink) => api.startRun(request, sink));
  }

  /** Goes on with an interrupted run from its journal (nothing recorded is replayed). */
  async resume(request: ResumeRequest): Promise<void> {
    if (!this.busy) this.#cancel = null;
    await this.#launch(null, (sink) => api.resumeRun(request, sink));
  }

  async #launch(
    request: StartRunRequest | null,
    begin: (sink: RunSink) => Promise<number>,
  ): Promise<void> {
    if (this.busy || this.#disposed) return;
    this.state = initialRunScreenState();
    this.result = null;
    this.startError = null;
    this.endError = null;
    this.cancelRequested = false;
    this.cancelError = null;
    this.runId = null;
    this.#held = [];
    this.lastRequest = request;
    this.reopened = false;
    this.frames = [];
    this.lifecycle = "starting";
    try {
      const id = await begin({
        update: (update) => this.#receive({ kind: "update", update }),
        ended: (ended) => this.#receive({ kind: "ended", ended }),
        frame: (runId, frame) => this.#receive({ kind: "frame", runId, frame }),
      });
      this.runId = id;
      this.lifecycle = "running";
      const held = this.#held;
      this.#held = [];
      for (const item of held) this.#deliver(item);
    } catch (err) {
      this.lifecycle = "idle";
      this.startError = shownError(err);
    }
  }

  /** Shows a run another part of the window started and watches (a queue item's):
   *  `subscribe` hands its messages so far, then each new one, to the sink and returns the
   *  run's id (null: nothing to follow). Cancel asks `cancel` (that item alone). */
  async follow(subscribe: (sink: RunSink) => number | null, cancel: () => Promise<unknown>): Promise<void> {
    if (!this.busy) this.#cancel = cancel;
    await this.#launch(null, async (sink) => {
      const id = subscribe(sink);
      if (id === null) throw new Error(t("queue.nothingToFollow"));
      return id;
    });
  }

  async cancel(): Promise<void> {
    if (this.lifecycle !== "running" || this.runId === null || this.cancelRequested) return;
    this.cancelRequested = true;
    this.cancelError = null;
    try {
      if (this.#cancel) await this.#cancel();
      else await api.cancelRun(this.runId);
    } catch (err) {
      this.cancelRequested = false;
      this.cancelError = shownError(err);
    }
  }

  /** Shows a past run as it was recorded: its events folded, its result, ended. */
  load(run: ReopenedRun): void {
    if (this.busy) return;
    this.state = replayAll(run.events, this.#clock());
    this.result = run.result;
    this.startError = null;
    this.endError = null;
    this.reopened = true;
    this.lifecycle = "ended";
  }

  /** The backend wrote this run's entry (Approve): the result now says so, as a
   *  reopened approved run does, so the banner stops asking to approve it. */
  approved(): void {
    if (this.result) this.result = { ...this.result, approved: true };
  }

  /** Stops delivering; the backend run (if any) goes on and keeps its evidence. */
  dispose(): void {
    this.#disposed = true;
  }

  #receive(item: Incoming) {
    if (this.#disposed) return;
    if (this.lifecycle === "starting" && this.runId === null) {
      this.#held.push(item);
      return;
    }
    this.#deliver(item);
  }

  #deliver(item: Incoming) {
    const id = item.kind === "update" ? item.update.run_id : item.kind === "ended" ? item.ended.run_id : item.runId;
    if (id !== this.runId || this.lifecycle !== "running") return;
    if (item.kind === "frame") {
      this.frames = newestFrames(this.frames, item.frame);
      return;
    }
    if (item.kind === "update") {
      this.state = reduce(this.state, item.update.event, this.#clock());
      return;
    }
    this.result = item.ended.result;
    this.endError = item.ended.error;
    this.frames = [];
    if (this.state.endedAt === null) this.state = { ...this.state, endedAt: this.#clock() };
    this.lifecycle = "ended";
  }
}

/** `frames` with `frame` as its device's newest: a later attempt, or a later look at the
 * same one (frames may arrive out of order). One entry per device, in arrival order. */
export function newestFrames(frames: LiveFrame[], frame: LiveFrame): LiveFrame[] {
  const at = frames.findIndex((f) => f.device === frame.device);
  const old = frames[at];
  if (old === undefined) return [...frames, frame];
  const newer = frame.attempt > old.attempt || (frame.attempt === old.attempt && frame.seq > old.seq);
  if (!newer) return frames;
  return frames.map((f, i) => (i === at ? frame : f));
}
