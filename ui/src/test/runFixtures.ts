// A realistic run of the demo's checkout crash, as the backend would emit it.
import type { PlannedStep_Serialize } from "../bindings";
import type {
  AttemptVerdict,
  MaskRect,
  PendingResult,
  PlannedStep,
  RunEvent,
  RunResultView,
  RunSummary,
  ScreenshotView,
} from "../lib/runTypes";

export const planSteps: PlannedStep[] = [
  { index: 1, description: "Launch app", words: { kind: "launch" }, disposition: { kind: "setup" } },
  {
    index: 2,
    description: "Tap “Cart”",
    words: { kind: "tap", target: { kind: "text", text: "Cart" } },
    disposition: { kind: "replayable" },
  },
  {
    index: 3,
    description: "Type into “password” (id)",
    words: { kind: "type_into", target: { kind: "id", name: "password" } },
    disposition: { kind: "skipped", reason: { code: "input_redacted" } },
  },
  {
    index: 4,
    description: "Tap “Checkout”",
    words: { kind: "tap", target: { kind: "text", text: "Checkout" } },
    disposition: { kind: "replayable" },
  },
];

export const shot = (attempt: number) => `screenshots/attempt-${String(attempt).padStart(3, "0")}.png`;
/** A filmstrip frame's picture name: frame `n` of the strip attempt `attempt` took. */
export const frame = (attempt: number, n: number) =>
  `filmstrip/attempt-${String(attempt).padStart(3, "0")}/step-${String(n).padStart(2, "0")}.png`;

const CHECKOUT_NPE = "NullPointerException in CheckoutActivity.onCreate";

/** A reproducing attempt's verdict, as the backend sends it. */
export const hit: AttemptVerdict = { kind: "reproduced", signature: "51defb0ee406", label: CHECKOUT_NPE };

export function finished(
  attempt: number,
  phase: "baseline" | "one_by_one" | "audit" | "confirm",
  candidate: number[],
  verdict: AttemptVerdict,
  duration_ms: number,
): RunEvent {
  const reproduced = verdict.kind === "reproduced";
  return {
    type: "attempt_finished",
    attempt,
    phase,
    candidate,
    verdict,
    observed: reproduced
      ? [
          {
            fingerprint: "51defb0ee406",
            label: CHECKOUT_NPE,
            kind: "java",
            process: "com.example.shop",
            is_target: true,
            stack: ["java.lang.NullPointerException", " at com.example.shop.CheckoutActivity.onCreate(CheckoutActivity.kt:42)"],
          },
        ]
      : [],
    duration_ms,
    screenshot: shot(attempt),
    screenshot_redacted: false,
    // The app is gone after a crash: a reproducing attempt shows the screen before its last action.
    screenshot_before_step: reproduced ? (candidate.at(-1) ?? null) : null,
    device: "sim-1",
    speculative: false,
  };
}

export const summary: RunSummary = {
  status: "minimized",
  session: "2026-05-14_160354_checkout-npe",
  crash_id: "c1",
  original_path: [1, 2, 3, 4],
  minimal_path: [1, 2, 4],
  attempts: 4,
  confidence: "high",
  complete: true,
  fixed_point_reached: true,
  final_confirmed: true,
  flaky_observed: false,
  budget_exhausted: false,
  target_fingerprint: "51defb0ee406",
  evidence_session: "2026-05-20_101500_minimize-checkout-npe",
  warnings: [],
};

export const events: RunEvent[] = [
  { type: "notice", notice: { kind: "plan", notice: { kind: "step_skipped", step: 3, reason: { code: "input_redacted" } } } },
  {
    type: "started",
    evidence_session: summary.evidence_session!,
    plan_steps: planSteps as PlannedStep_Serialize[],
    candidates: [2, 4],
    max_replays: 30,
    device: "sim-1",
    devices: ["sim-1"],
  },
  { type: "attempt_started", attempt: 1, phase: "baseline", candidate: [2, 4] },
  finished(1, "baseline", [2, 4], hit, 1200),
  {
    type: "snapshot",
    phase: "one_by_one",
    current: [2, 4],
    candidate: [4],
    attempts: 1,
    max_replays: 30,
    flaky_observed: false,
    budget_exhausted: false,
    outcome_history: [{ candidate: [2, 4], outcomes: [true] }],
  },
  { type: "attempt_started", attempt: 2, phase: "one_by_one", candidate: [4] },
  finished(2, "one_by_one", [4], { kind: "not_reproduced", reason: "no_crash", step: null }, 800),
  { type: "attempt_started", attempt: 3, phase: "audit", candidate: [2] },
  finished(
    3,
    "audit",
    [2],
    { kind: "failed", cause: { kind: "tool", step: null, detail: "device sim-1 stopped answering" } },
    1000,
  ),
  { type: "attempt_started", attempt: 4, phase: "confirm", candidate: [2, 4] },
  finished(4, "confirm", [2, 4], hit, 1000),
  {
    type: "snapshot",
    phase: "confirm",
    current: [2, 4],
    candidate: null,
    attempts: 4,
    max_replays: 30,
    flaky_observed: true,
    budget_exhausted: false,
    outcome_history: [],
  },
  { type: "finished", ...summary },
];

export const pending: PendingResult = {
  status: "minimized",
  original_session: summary.session,
  original_session_dir: "/ws/sessions/" + summary.session,
  crash_id: summary.crash_id,
  evidence_session: summary.evidence_session!,
  target: { kind: "fingerprint", fingerprint: "a1b2c3d4e5f6" },
  target_fingerprint: "a1b2c3d4e5f6",
  app_version: "2.3.1",
  original_path: summary.original_path,
  minimal_path: summary.minimal_path,
  attempts: 4,
  max_replays: 30,
  confidence: "high",
  complete: true,
  converged: true,
  fixed_point_reached: true,
  final_confirmed: true,
  flaky_observed: false,
  budget_exhausted: false,
  write_back_allowed: true,
  warnings: [],
  proof: [
    { removed_step: 2, candidate: [4], outcomes: [false, false, false] },
    { removed_step: 4, candidate: [2], outcomes: [false, true, false] },
  ],
  proof_lines: [],
  target_label: "NullPointerException in CheckoutActivity.onCreate",
  package: "com.example.shop",
  device: "sim-1",
  minimal_plan: [],
  screenshots: [shot(1), shot(2), shot(3), shot(4)],
};

export const result: RunResultView = {
  summary,
  purpose: "minimize",
  report: "Minimal path found",
  pending,
  sidecar_preview: '{\n  "minimized_repro_path": [1, 2, 4]\n}',
  evidence_dir: "/ws/sessions/2026-05-20_101500_minimize-checkout-npe",
  default_export_folder: "/home/tester/whittle-exports",
  exportable: true,
  approve_blocked: null,
  approved: false,
  failure: null,
  reopened: false,
  hint: null,
};

export const autoMask: MaskRect = { x: 40, y: 400, w: 1000, h: 120, reason: "password field" };

export function screenshotView(name: string, masks: MaskRect[] = [autoMask]): ScreenshotView {
  return {
    evidence_session: "2026-05-20_101500_minimize-checkout-npe",
    name,
    data_url: "data:image/png;base64,iVBORw0KGgo=",
    width: 1080,
    height: 1920,
    masks,
    style: "solid",
  };
}
