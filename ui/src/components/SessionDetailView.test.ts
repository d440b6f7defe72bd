import { render, screen, within } from "@testing-library/svelte";
import { describe, expect, it } from "vitest";
import SessionDetailView from "./SessionDetailView.svelte";
import { checkoutDetail } from "../test/fixtures";
import type { SessionDetail } from "../lib/types";

describe("SessionDetailView", () => {
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
});
