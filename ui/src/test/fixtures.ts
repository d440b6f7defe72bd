// Shapes the Rust side sends, as in the demo workspace.
import type { SessionDetail, SessionSummary } from "../lib/types";

export const checkoutNpe: SessionSummary = {
  session_id: "2026-05-14_160354_checkout-npe",
  name: "checkout-npe",
  created_at: "2026-05-14T16:03:54+02:00",
  status: "failed",
  platform: "android",
  package: "com.example.shop",
  step_count: 12,
  crash_count: 1,
  crash_groups: 1,
  problem: null,
  evidence_of: null,
  past_runs: 0,
  not_run: false,
};

export const brokenExport: SessionSummary = {
  session_id: "2026-05-16_120000_broken-export",
  name: "broken-export",
  created_at: "2026-05-16T12:00:00+02:00",
  status: "failed",
  platform: "android",
  package: "com.example.shop",
  step_count: 0,
  crash_count: 0,
  crash_groups: 0,
  problem: { file: "steps.jsonl", line: 4, problem: { code: "truncated" } },
  evidence_of: null,
  past_runs: 0,
  not_run: false,
};

export const browse: SessionSummary = {
  ...checkoutNpe,
  session_id: "2026-05-16_090000_browse-no-crash",
  name: "browse-no-crash",
  created_at: "2026-05-16T09:00:00+02:00",
  status: "passed",
  step_count: 6,
  crash_count: 0,
  crash_groups: 0,
};

export const sessions: SessionSummary[] = [brokenExport, browse, checkoutNpe];

export const checkoutDetail: SessionDetail = {
  session_id: checkoutNpe.session_id,
  name: "checkout-npe",
  created_at: checkoutNpe.created_at,
  status: "failed",
  not_run: false,
  platform: "android",
  package: "com.example.shop",
  device_id: "sim-1",
  app_version: { name: "2.3.0", code: 230 },
  step_count: 4,
  crashes: [
    {
      crash_id: "c1",
      kind: "java",
      label: "NullPointerException in CheckoutActivity.onCreate",
      process: "com.example.shop",
      step_index: 4,
      repro_path: [1, 2, 3, 4],
      plan_problem: null,
      past_runs: [],
      plan: {
        coverage: { non_launch: 3, replayable: 2 },
        live_run_allowed: true,
        notices: [
          { kind: "step_skipped", step: 3, reason: { code: "input_redacted" } },
          { kind: "legacy_steps", count: 1 },
        ],
        estimate: {
          fewer_pays_off: false,
          steps: 2,
          standard: { min: 8, max: 11 },
          fewer: { min: 8, max: 10 },
          lower_bound: 7,
        },
        steps: [
          {
            index: 1,
            description: "Launch app",
            words: { kind: "launch" },
            role: "setup",
            skip_reason: null,
            is_trigger: false,
            screenshot: null,
          },
          {
            index: 2,
            description: "Tap “btn_cart” (id)",
            words: { kind: "tap", target: { kind: "id", name: "btn_cart" } },
            role: "replayable",
            skip_reason: null,
            is_trigger: false,
            screenshot: null,
          },
          {
            index: 3,
            description: "Type into “password” (id)",
            words: { kind: "type_into", target: { kind: "id", name: "password" } },
            role: "skipped",
            skip_reason: { code: "input_redacted" },
            is_trigger: false,
            screenshot: null,
          },
          {
            index: 4,
            description: "Tap “btn_checkout” (id)",
            words: { kind: "tap", target: { kind: "id", name: "btn_checkout" } },
            role: "replayable",
            skip_reason: null,
            is_trigger: true,
            screenshot: "screenshots/step-4.png",
          },
        ],
      },
    },
  ],
  flow: null,
};
