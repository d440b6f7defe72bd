import { fireEvent, render, screen, within } from "@testing-library/svelte";
import { describe, expect, it, vi } from "vitest";
import SessionDetailView from "./SessionDetailView.svelte";
import { checkoutDetail } from "../test/fixtures";
import type { SessionDetail } from "../lib/types";
import type { PastRun } from "../lib/runTypes";

/** A past run of an unfinished minimize; a test names only the facts it is about. */
const pastRun = (facts: Partial<PastRun>): PastRun => ({
  evidence_session: "e1",
  created_at: "2026-05-20T10:15:00+00:00",
  outcome: "interrupted",
  original_steps: 12,
  minimal_steps: null,
  confidence: null,
  converged: false,
  attempts: 3,
  approved: false,
  resumable: false,
  ...facts,
});

/** The checkout session with its first crash alone, carrying these past runs. */
const withPastRuns = (past_runs: PastRun[]): SessionDetail => ({
  ...checkoutDetail,
  crashes: [{ ...checkoutDetail.crashes[0]!, past_runs }],
});

describe("SessionDetailView", () => {
  it("asks before queueing the session's crashes, and a no gives the focus back", async () => {
    const onminimizeall = vi.fn();
    const first = checkoutDetail.crashes[0]!;
    const two = { ...checkoutDetail, crashes: [first, { ...first, crash_id: "c2" }] };
    render(SessionDetailView, { detail: two, onminimizeall });
    const all = screen.getByTestId("minimize-all-session");
    await fireEvent.click(all);
    expect(screen.getByTestId("minimize-all-session-confirm")).toHaveTextContent("Minimize all 2 crashes of this session?");
    await fireEvent.click(screen.getByTestId("minimize-all-session-confirm-no"));
    expect(screen.queryByTestId("minimize-all-session-confirm")).toBeNull();
    await vi.waitFor(() => expect(document.activeElement).toBe(all));
    await fireEvent.click(all);
    await fireEvent.click(screen.getByTestId("minimize-all-session-confirm-yes"));
    expect(onminimizeall).toHaveBeenCalledTimes(1);
  });

  it("shows the crash and its step path as cards in order", () => {
    render(SessionDetailView, { detail: checkoutDetail });
    expect(screen.getByRole("heading", { level: 2 })).toHaveTextContent("checkout-npe");
    expect(screen.getByRole("heading", { level: 3 })).toHaveTextContent(
      "JAVA NullPointerException in CheckoutActivity.onCreate",
    );
    expect(screen.getByText(/2 of 3 actions can be replayed\./)).toBeInTheDocument();
    const cards = within(screen.getByRole("list", { name: "Step path" })).getAllByRole("listitem");
    expect(cards.map((c) => c.dataset.stepIndex)).toEqual(["1", "2", "3", "4"]);
    expect(cards[0]).toHaveTextContent("Launch app");
    expect(cards[0]).toHaveTextContent("Launch / setup");
    expect(cards[1]).toHaveTextContent("Replayable");
    expect(cards[2]).toHaveTextContent("Skipped");
    expect(cards[2]).toHaveTextContent("Whittle never replays or guesses it.");
    expect(cards[3]).toHaveTextContent("crash trigger");
    expect(cards[1]).not.toHaveTextContent("crash trigger");
  });

  it("warns when coverage is too low for a live run", () => {
    const crash = checkoutDetail.crashes[0]!;
    const low: SessionDetail = {
      ...checkoutDetail,
      crashes: [{ ...crash, plan: { ...crash.plan!, coverage: { non_launch: 3, replayable: 1 }, live_run_allowed: false } }],
    };
    render(SessionDetailView, { detail: low });
    expect(screen.getByText(/1 of 3 actions can be replayed/)).toHaveTextContent("too few for a live run");
  });

  it("shows a plan problem in place of the path", () => {
    const crash = checkoutDetail.crashes[0]!;
    const broken: SessionDetail = {
      ...checkoutDetail,
      crashes: [{ ...crash, plan: null, plan_problem: "step 9 of the crash path does not exist" }],
    };
    render(SessionDetailView, { detail: broken });
    expect(screen.getByRole("alert")).toHaveTextContent("step 9 of the crash path does not exist");
    expect(screen.queryByRole("list", { name: "Step path" })).toBeNull();
  });

  it("says there is nothing to minimize without a crash", () => {
    render(SessionDetailView, { detail: { ...checkoutDetail, crashes: [] } });
    expect(screen.getByText(/recorded no crash/)).toBeInTheDocument();
  });

  it("shows an imported flow's steps before it runs", () => {
    const flow = checkoutDetail.crashes[0]!.plan!;
    render(SessionDetailView, {
      detail: { ...checkoutDetail, crashes: [], not_run: true, flow: { ...flow, steps: flow.steps.map((st) => ({ ...st, is_trigger: false })) } },
    });
    expect(screen.getByText(/has not been run yet/)).toBeInTheDocument();
    const steps = screen.getByTestId("flow-steps");
    expect(within(steps).getByRole("heading", { name: "The flow's steps" })).toBeInTheDocument();
    expect(within(steps).getAllByRole("listitem")).toHaveLength(flow.steps.length);
  });
});

describe("SessionDetailView: choosing a crash to minimize", () => {
  const crash = checkoutDetail.crashes[0]!;
  const twoCrashes: SessionDetail = {
    ...checkoutDetail,
    crashes: [
      crash,
      { ...crash, crash_id: "c2", label: "ANR in CartActivity", kind: "anr", plan: null, plan_problem: "no steps" },
    ],
  };

  it("asks which crash when there are several and gives each its own button", async () => {
    const onminimize = vi.fn();
    render(SessionDetailView, { detail: twoCrashes, onminimize });
    expect(screen.getByText(/recorded 2 different crashes\. Choose which one to minimize/)).toBeInTheDocument();
    expect(screen.getByTestId("minimize-c1")).toBeEnabled();
    expect(screen.getByTestId("minimize-c2")).toBeDisabled();
    expect(screen.getByTestId("minimize-c2")).toHaveAccessibleDescription("Its replay plan could not be built.");
    await fireEvent.click(screen.getByTestId("minimize-c1"));
    expect(onminimize).toHaveBeenCalledWith(crash);
  });

  it("disables minimizing when too few steps are replayable, saying why", () => {
    const low: SessionDetail = {
      ...checkoutDetail,
      crashes: [{ ...crash, plan: { ...crash.plan!, live_run_allowed: false } }],
    };
    render(SessionDetailView, { detail: low, onminimize: () => {} });
    expect(screen.getByTestId("minimize-c1")).toBeDisabled();
    expect(screen.getByTestId("minimize-c1")).toHaveAccessibleDescription("Too few steps can be replayed for a live run.");
  });

  it("offers to show the open run, and blocks other crashes while one runs", () => {
    const both: SessionDetail = { ...twoCrashes, crashes: [crash, { ...crash, crash_id: "c2" }] };
    render(SessionDetailView, { detail: both, onminimize: () => {}, activeCrash: "c1", minimizeBlocked: "Another crash is being minimized." });
    expect(screen.getByTestId("minimize-c1")).toHaveTextContent("Show the run");
    expect(screen.getByTestId("minimize-c1")).toBeEnabled();
    expect(screen.getByTestId("minimize-c2")).toBeDisabled();
    expect(screen.getByTestId("minimize-c2")).toHaveAccessibleDescription("Another crash is being minimized.");
  });

  it("lists a Record once run as a recording, with no path to shorten", () => {
    render(SessionDetailView, { detail: withPastRuns([pastRun({ outcome: "recorded", attempts: 1 })]) });
    const badge = screen.getByTestId("past-run-badge");
    expect(badge).toHaveTextContent("recording of the whole flow");
    expect(badge.textContent).not.toMatch(/→/);
  });

  it("shows no minimize button when the view is read-only", () => {
    render(SessionDetailView, { detail: checkoutDetail });
    expect(screen.queryByTestId("minimize-c1")).toBeNull();
  });

  it("lists a crash's past runs with their badge and opens one; skipped steps are not warned twice", async () => {
    const detail = withPastRuns([
      pastRun({
        evidence_session: "2026-05-20_101500_minimize-checkout-npe",
        outcome: "minimized",
        minimal_steps: 4,
        confidence: "high",
        converged: true,
        attempts: 17,
        approved: true,
      }),
      pastRun({
        evidence_session: "2026-05-19_090000_minimize-checkout-npe",
        created_at: "2026-05-19T09:00:00+00:00",
        outcome: "cancelled",
        minimal_steps: 6,
        confidence: "medium",
        attempts: 5,
      }),
    ]);
    const onopenrun = vi.fn();
    render(SessionDetailView, { detail, onopenrun });
    const badges = screen.getAllByTestId("past-run-badge");
    expect(badges[0]).toHaveTextContent("12 → 4 · high · approved");
    expect(badges[1]).toHaveTextContent("12 → 6 · cancelled · medium");
    await fireEvent.click(screen.getAllByTestId("open-past-run")[1]!);
    expect(onopenrun).toHaveBeenCalledWith(detail.crashes[0], detail.crashes[0]!.past_runs[1]);
    // The skipped step says why on its card; the notices list only the rest.
    expect(screen.queryByText(/Step 3 is skipped/)).toBeNull();
    expect(screen.getByText(/1 step\(s\) carry no replay metadata/)).toBeInTheDocument();
  });

  it("offers Resume and Discard for an interrupted run, Resume for a failed one, Discard alone for an old one", async () => {
    const past = (evidence_session: string, outcome: PastRun["outcome"], resumable: boolean) =>
      pastRun({ evidence_session, outcome, resumable });
    const detail = withPastRuns([
      past("e-interrupted", "interrupted", true),
      past("e-failed", "runtime_failed", true),
      past("e-old", "interrupted", false),
      past("e-running", "running", false),
    ]);
    const onresumerun = vi.fn();
    const ondiscardrun = vi.fn();
    render(SessionDetailView, { detail, onresumerun, ondiscardrun });
    const rows = screen.getAllByTestId("past-run");
    const buttons = (row: HTMLElement) =>
      within(row)
        .queryAllByRole("button")
        .map((b) => b.textContent?.trim());
    expect(rows.map(buttons)).toEqual([["Resume", "Discard"], ["Resume"], ["Discard"], []]);
    expect(within(rows[0]!).getByTestId("past-run-badge")).toHaveTextContent("interrupted");
    expect(within(rows[3]!).getByTestId("past-run-badge")).toHaveTextContent("running");
    await fireEvent.click(within(rows[0]!).getByTestId("resume-past-run"));
    expect(onresumerun).toHaveBeenCalledWith(detail.crashes[0], detail.crashes[0]!.past_runs[0]);
    await fireEvent.click(within(rows[2]!).getByTestId("discard-past-run"));
    expect(ondiscardrun).toHaveBeenCalledWith(detail.crashes[0], detail.crashes[0]!.past_runs[2]);
  });

  it("does not offer Resume while another run is going on", () => {
    const detail = withPastRuns([pastRun({ resumable: true })]);
    render(SessionDetailView, { detail, onresumerun: () => {}, minimizeBlocked: "Another crash is being minimized." });
    expect(screen.getByTestId("resume-past-run")).toBeDisabled();
  });
});
