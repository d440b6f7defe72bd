import { render, screen, within } from "@testing-library/svelte";
import { describe, expect, it } from "vitest";
import StepPath from "./StepPath.svelte";
import { checkoutDetail } from "../test/fixtures";
import type { PlanView } from "../lib/types";
import { sessionScope } from "../lib/thumbnails";

const plan = checkoutDetail.crashes[0]!.plan!;
const marks = () =>
  within(screen.getByRole("list", { name: "Step path" }))
    .getAllByRole("listitem")
    .map((li) => li.dataset.mark ?? null);

describe("StepPath", () => {
  it("shows the plain path when nothing is running", () => {
    render(StepPath, { plan });
    expect(marks()).toEqual([null, null, null, null]);
  });

  it("highlights the steps of the attempt being replayed (launch always runs)", () => {
    render(StepPath, { plan, candidate: [4] });
    expect(marks()).toEqual(["in-attempt", "out-attempt", "out-attempt", "in-attempt"]);
    expect(screen.getAllByText("in this attempt")).toHaveLength(2);
  });

  it("makes the minimal path stand out and fades removed steps once the run is over", () => {
    render(StepPath, { plan, candidate: [2], minimal: [1, 2, 4], proven: true });
    expect(marks()).toEqual(["kept", "kept", "removed", "kept"]);
    expect(screen.getAllByText("in the minimal path")).toHaveLength(3);
    expect(screen.getByText("removed")).toBeInTheDocument();
  });

  it("never calls an unproven result's steps minimal", () => {
    render(StepPath, { plan, minimal: [1, 2, 4] });
    expect(marks()).toEqual(["kept-so-far", "kept-so-far", "removed", "kept-so-far"]);
    expect(screen.queryByText("in the minimal path")).toBeNull();
    expect(screen.getAllByText("in the shortest path so far")).toHaveLength(3);
  });

  it("names the devices on each step being replayed when several replay", () => {
    const { rerender } = render(StepPath, { plan, replaying: [{ step: 2, device: "sim-1" }] });
    expect(screen.getByTestId("replaying-now")).toHaveTextContent("replaying now");
    rerender({
      plan,
      replaying: [
        { step: 2, device: "sim-1" },
        { step: 4, device: "sim-2" },
      ],
    });
    const now = screen.getAllByTestId("replaying-now").map((e) => e.textContent);
    expect(now).toEqual(["replaying now on sim-1", "replaying now on sim-2"]);
  });

  it("marks a 1000-step path in one flat list", () => {
    const big: PlanView = {
      ...plan,
      steps: Array.from({ length: 1000 }, (_, i) => ({
        index: i + 1,
        description: `Tap item ${i + 1}`,
        words: { kind: "tap", target: { kind: "text", text: `item ${i + 1}` } },
        role: i === 0 ? "setup" : "replayable",
        skip_reason: null,
        is_trigger: i === 999,
        screenshot: null,
      })),
    };
    const { container } = render(StepPath, { plan: big, candidate: Array.from({ length: 500 }, (_, i) => i * 2 + 2) });
    expect(container.querySelectorAll("ol > li")).toHaveLength(1000);
    expect(marks().filter((m) => m === "in-attempt")).toHaveLength(501);
  });

  it("shows a step's recorded screenshot as a preview when a loader is given", async () => {
    const loads: string[] = [];
    const steps = plan.steps.map((st) => (st.index === 2 ? { ...st, screenshot: "shots/step-2.png" } : st));
    render(StepPath, {
      plan: { ...plan, steps },
      thumbnails: {
        scope: sessionScope("/ws", "2026-05-14_160354_checkout-npe"),
        load: async (src: string) => {
          loads.push(src);
          return "data:image/png;base64,iVBORw0KGgo=";
        },
      },
    });
    const img = await screen.findByAltText("Recorded screen of step 2");
    expect(img).toHaveAttribute("src", "data:image/png;base64,iVBORw0KGgo=");
    expect(loads).toEqual(["shots/step-2.png", "screenshots/step-4.png"]);
  });

  it("shows no preview without a loader", () => {
    const steps = plan.steps.map((st) => ({ ...st, screenshot: "shots/x.png" }));
    render(StepPath, { plan: { ...plan, steps } });
    expect(screen.queryAllByTestId("thumbnail")).toHaveLength(0);
  });
});
