// The UI's single door to the Rust side: unwraps tauri-specta's Result objects so views
// deal in values and one error shape.
import { Channel } from "@tauri-apps/api/core";
import {
  commands,
  type AppError_Serialize,
  type DeviceSetupReport_Serialize,
  type PrivacyLevel,
  type Filmstrip_Serialize,
  type FlowFormat,
  type ImportNote,
  type ImportSummary_Serialize,
  type NewerApprovalView,
  type RecordOutcome_Serialize,
  type SetupView_Serialize,
} from "../bindings";
import { locale, t } from "./i18n/index.svelte";
import type { ErrorPayload, SessionDetail, SessionSummary } from "./types";
import type { InspectedNode, LiveFrame, NearNode, QueueUpdate, QueueView } from "./watchTypes";
import type { QueueRunOptions } from "./queueOptions.svelte";
import type {
  Approval,
  Device,
  MaskPatchView,
  MaskPreviewRequest,
  MaskRequest,
  ReviewChecklist,
  RunChannelMessage,
  RunEnded,
  RunErrorPayload,
  InterruptedRun,
  ReopenedRun,
  ResumeRequest,
  RunUpdate,
  ScreenshotView,
  StartRunRequest,
  WorkspaceChange,
} from "./runTypes";

export type SetupView = SetupView_Serialize;
export type Filmstrip = Filmstrip_Serialize;
export type RecordOutcome = RecordOutcome_Serialize;
export type { FlowFormat, ImportNote };
export type ImportSummary = ImportSummary_Serialize;

/** What the Import dialog asks for. */
export type ImportRequest = {
  workspace: string;
  format: FlowFormat;
  file: string;
  name: string | null;
  package: string | null;
};
export type DeviceSetupReport = DeviceSetupReport_Serialize;

export class CommandError extends Error {
  /** A stable machine code (see src-tauri's ErrorCode); run commands add codes of their own. */
  readonly code: ErrorPayload["code"] | (string & {});
  /** With `newer_approval`: the approval the sidecar keeps and the one refused, to ask. */
  readonly newerApproval: NewerApprovalView | null;
  /** The typed error, which the window words from its catalogue (lib/errorWords.ts). */
  readonly payload: ErrorPayload;
  constructor(payload: ErrorPayload | RunErrorPayload) {
    super(payload.message);
    this.code = payload.code;
    this.newerApproval = payload.code === "newer_approval" ? payload.newer_approval : null;
    this.payload = payload;
  }
}

// The bindings type a command's error as `AppError` (its code and typed fields); what
// arrives also carries the English `message` (src-tauri's `impl Serialize for AppError`
// writes the `ErrorPayload` shape, pinned in tests/app/error_payload.rs).
type Outcome<T> = { status: "ok"; data: T } | { status: "error"; error: AppError_Serialize };

function unwrap<T>(outcome: Outcome<T>): T {
  if (outcome.status === "ok") return outcome.data;
  throw new CommandError(outcome.error as ErrorPayload);
}

/** Where a run's progress goes, whichever way the backend sends it. */
export type RunSink = {
  update: (update: RunUpdate) => void;
  ended: (ended: RunEnded) => void;
  /** A live look at a device (shown, never saved). */
  frame?: (runId: number, frame: LiveFrame) => void;
};

/** One message of a run to the view that shows it: from start_run's channel, or as the
 *  queue hands on a run it holds. */
export function deliverRunMessage(sink: RunSink, message: RunChannelMessage): void {
  if (message.kind === "ended") {
    sink.ended({ run_id: message.run_id, result: message.result ?? null, error: message.error ?? null });
  } else if (message.kind === "frame") {
    sink.frame?.(message.run_id, message.frame);
  } else {
    sink.update({ run_id: message.run_id, event: message.event });
  }
}

/** start_run's progress channel: every event of the run in order, then one `ended`. */
function progressChannel(sink: RunSink | undefined): Channel<RunChannelMessage> {
  return new Channel<RunChannelMessage>((message) => {
    if (sink) deliverRunMessage(sink, message);
  });
}

/** A message for any thrown value, worded for a tester (never a stack trace). */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === "string") return err;
  return t("error.noBackend");
}

/** The typed error of a failed command, when it is one. */
export function errorPayload(err: unknown): ErrorPayload | null {
  return err instanceof CommandError ? err.payload : null;
}

/** The stable code of a failed command, when it has one. */
export function errorCode(err: unknown): string | null {
  return err instanceof CommandError ? err.code : null;
}

export const api = {
  defaultWorkspace: (): Promise<string> => commands.defaultWorkspace(),
  listSessions: async (workspace: string): Promise<SessionSummary[]> =>
    unwrap(await commands.listSessions(workspace)),
  sessionDetail: async (workspace: string, sessionId: string): Promise<SessionDetail> =>
    unwrap(await commands.sessionDetail(workspace, sessionId)),
  openPastRun: async (workspace: string, sessionId: string, evidenceSession: string): Promise<ReopenedRun> =>
    unwrap(await commands.openPastRun(workspace, sessionId, evidenceSession)) as ReopenedRun,
  /** Follows the workspace folder; `onchange` gets the names of the sessions that changed. */
  watchWorkspace: async (workspace: string, onchange: (change: WorkspaceChange) => void): Promise<void> => {
    unwrap(await commands.watchWorkspace(workspace, new Channel<WorkspaceChange>(onchange)));
  },

  listDevices: async (workspace: string): Promise<Device[]> => unwrap(await commands.listDevices(workspace)),
  startRun: async (request: StartRunRequest, sink?: RunSink): Promise<number> =>
    // The channel carries what Rust serializes; the binding names its deserialize twin.
    unwrap(await commands.startRun(request, progressChannel(sink) as unknown as Parameters<typeof commands.startRun>[1])),
  /** Goes on with an interrupted run; its progress arrives as for `startRun`. */
  resumeRun: async (request: ResumeRequest, sink?: RunSink): Promise<number> =>
    unwrap(await commands.resumeRun(request, progressChannel(sink) as unknown as Parameters<typeof commands.resumeRun>[1])),
  /** Ends an interrupted run without resuming it (its evidence stays). */
  discardRun: async (workspace: string, evidenceSession: string): Promise<void> => {
    unwrap(await commands.discardRun(workspace, evidenceSession));
  },
  /** The workspace's interrupted runs; `own` marks those this app was closed during. */
  interruptedRuns: (workspace: string): Promise<InterruptedRun[]> => commands.interruptedRuns(workspace),
  cancelRun: async (runId: number): Promise<void> => {
    await commands.cancelRun(runId);
  },
  /** `replace` only once the tester confirmed replacing a newer approval. */
  approveRun: async (evidenceSession: string, replace = false): Promise<Approval> =>
    unwrap(await commands.approveRun(evidenceSession, replace)),
  exportRun: async (evidenceSession: string, folder: string): Promise<string> =>
    unwrap(await commands.exportRun(evidenceSession, folder)),
  appSetup: (): Promise<SetupView> => commands.appSetup(),
  revealLogs: async (): Promise<void> => {
    unwrap(await commands.revealLogs());
  },
  checkRealDevice: async (workspace: string): Promise<DeviceSetupReport> =>
    unwrap(await commands.checkRealDevice(workspace)),
  useRealDevice: async (real: boolean): Promise<SetupView> => unwrap(await commands.useRealDevice(real)),
  setPrivacyLevel: async (level: PrivacyLevel): Promise<SetupView> => unwrap(await commands.setPrivacyLevel(level)),
  revealPath: async (path: string): Promise<void> => {
    unwrap(await commands.revealPath(path));
  },
  screenshotImage: async (workspace: string, evidenceSession: string, name: string): Promise<ScreenshotView> =>
    unwrap(await commands.screenshotImage(workspace, evidenceSession, name)),
  inspectPoint: async (
    workspace: string,
    evidenceSession: string,
    name: string,
    x: number,
    y: number,
  ): Promise<InspectedNode[]> => unwrap(await commands.inspectPoint(workspace, evidenceSession, name, x, y)),
  nearestNodes: async (workspace: string, evidenceSession: string, name: string, step: number): Promise<NearNode[]> =>
    unwrap(await commands.nearestNodes(workspace, evidenceSession, name, step)),
  /** *Minimize all*: the crash groups of `session` (or of the whole workspace) not yet
   *  minimized (unless `options` include them), queued, each run with `options`; every
   *  change of the queue and its runs goes to `onUpdate`. */
  startQueue: async (
    workspace: string,
    session: string | null,
    options: QueueRunOptions,
    onUpdate: (update: QueueUpdate) => void,
  ): Promise<QueueView> =>
    unwrap(
      await commands.startQueue(
        workspace,
        session,
        options,
        // Each item's result is worded in the window's language, as a single run's.
        locale(),
        // The backend sends, the window receives: the channel carries the Serialize shape.
        new Channel<QueueUpdate>(onUpdate) as unknown as Parameters<typeof commands.startQueue>[4],
      ),
    ) as QueueView,
  pauseQueue: (): Promise<boolean> => commands.pauseQueue(),
  resumeQueue: (): Promise<boolean> => commands.resumeQueue(),
  moveQueueEntry: (id: number, toIndex: number): Promise<boolean> => commands.moveQueueEntry(id, toIndex),
  cancelQueueEntry: (id: number): Promise<boolean> => commands.cancelQueueEntry(id),
  cancelQueue: (): Promise<boolean> => commands.cancelQueue(),
  copyText: async (text: string): Promise<void> => {
    unwrap(await commands.copyText(text));
  },
  screenshotThumbnail: async (workspace: string, evidenceSession: string, name: string): Promise<string> =>
    unwrap(await commands.screenshotThumbnail(workspace, evidenceSession, name)),
  stepThumbnail: async (workspace: string, sessionId: string, src: string): Promise<string> =>
    unwrap(await commands.stepThumbnail(workspace, sessionId, src)),
  applyMasks: async (request: MaskRequest): Promise<number> => unwrap(await commands.applyMasks(request)),
  omitScreenshot: async (workspace: string, evidenceSession: string, name: string): Promise<void> => {
    unwrap(await commands.omitScreenshot(workspace, evidenceSession, name));
  },
  previewMasks: async (request: MaskPreviewRequest): Promise<MaskPatchView[]> =>
    unwrap(await commands.previewMasks(request)),
  reviewChecklist: async (workspace: string, evidenceSession: string): Promise<ReviewChecklist> =>
    unwrap(await commands.reviewChecklist(workspace, evidenceSession)),
  markReviewed: async (
    workspace: string,
    evidenceSession: string,
    name: string,
    reviewed: boolean,
  ): Promise<ReviewChecklist> => unwrap(await commands.markReviewed(workspace, evidenceSession, name, reviewed)),
  importFlow: async (request: ImportRequest): Promise<ImportSummary> => unwrap(await commands.importFlow(request)),
  recordFlow: async (workspace: string, sessionId: string, device: string | null): Promise<RecordOutcome> =>
    unwrap(await commands.recordFlow(workspace, sessionId, device)),
  ticketMarkdown: async (workspace: string, evidenceSession: string): Promise<string> =>
    unwrap(await commands.ticketMarkdown(workspace, evidenceSession)),
  copyTicketMarkdown: async (workspace: string, evidenceSession: string): Promise<null> =>
    unwrap(await commands.copyTicketMarkdown(workspace, evidenceSession)),
  filmstrip: async (workspace: string, evidenceSession: string): Promise<Filmstrip | null> =>
    unwrap(await commands.filmstrip(workspace, evidenceSession)),
};
