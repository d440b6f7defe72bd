import { describe, expect, it } from "vitest";
import {
  confidenceReasons,
  nextStepFor,
  noResultReason,
  phaseWords,
  proofLine,
  reasonWords,
  statusHeadline,
  verdictOf,
} from "./wording";
import { summary } from "../test/runFixtures";

describe("wording", () => {
  it("words every phase", () => {
    expect(Object.keys(phaseWords).sort()).toEqual(["audit", "baseline", "bisect", "confirm", "one_by_one"]);
    expect(phaseWords.one_by_one).toBe("Removing one step at a time");
  });

  it("classifies verdicts: reproduced, plain negative, device error", () => {
    expect(verdictOf(true, null)).toBe("reproduced");
    expect(verdictOf(false, "no_crash")).toBe("not_reproduced");
    expect(verdictOf(false, "element_not_found")).toBe("not_reproduced");
    expect(verdictOf(false, "runtime_error: adb gone")).toBe("error");
  });

  it("turns reason codes into words and keeps unknown text readable", () => {
    expect(reasonWords("no_crash")).toBe("No crash");
    expect(reasonWords("different_crash")).toBe("A different crash");
    expect(reasonWords("runtime_error: adb gone")).toBe("Device or server error: adb gone");
    expect(reasonWords("something_new")).toBe("something new");
    expect(reasonWords(null)).toBe("");
  });

  it("says minimal only when fixed point and final confirmation both hold", () => {
    expect(statusHeadline(summary)).toBe("Minimal path found: 4 → 3 steps");
    expect(statusHeadline({ ...summary, final_confirmed: false })).toMatch(/minimality not proven/);
    expect(statusHeadline({ ...summary, status: "cancelled" })).toBe("The run was cancelled.");
  });

  it("explains the confidence with every flag", () => {
    const reasons = confidenceReasons({ ...summary, flaky_observed: true, complete: false });
    expect(reasons.map((r) => r.text)).toEqual([
      "Fixed point reached: removing any single step no longer crashes",
      "Final confirmation: 3/3 reproduced",
      "Flaky: the same candidate both crashed and did not",
      "Finished within the replay budget",
      "Search incomplete",
    ]);
    expect(reasons.map((r) => r.ok)).toEqual([true, true, false, true, false]);
  });

  it("words a proof row", () => {
    expect(proofLine({ removed_step: 7, candidate: [1, 10], outcomes: [false, false, false] })).toBe(
      "Without step 7: 0/3 reproduced",
    );
    expect(proofLine({ removed_step: 2, candidate: [], outcomes: [true, false, false] })).toBe(
      "Without step 2: 1/3 reproduced",
    );
  });

  it("gives a next step for every failure, known code or not", () => {
    expect(nextStepFor("run_in_progress")).toMatch(/cancel it/);
    expect(nextStepFor("servers_unavailable")).toMatch(/whittle doctor/);
    expect(nextStepFor("brand_new_code")).toBe("Check the message, then try again.");
    expect(nextStepFor(null)).toBe("Check the message, then try again.");
  });

  it("says why there is nothing to approve or export", () => {
    expect(noResultReason("cancelled")).toBe("Nothing to approve: the run was cancelled before it produced a result.");
    expect(noResultReason("not_reproduced", "export")).toMatch(/^Nothing to export: the recorded path/);
  });
});
