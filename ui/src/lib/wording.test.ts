import { describe, expect, it } from "vitest";
import {
  confidenceReasons,
  deviceStateWords,
  nextStepFor,
  noResultReason,
  noticeText,
  phaseWords,
  planNoticeText,
  proofLine,
  reasonWords,
  resultWarningText,
  removedText,
  skipText,
  statusHeadline,
  stepText,
  sessionProblemWords,
  verdictKind,
} from "./wording";
import { setLocale } from "./i18n/index.svelte";
import { summary } from "../test/runFixtures";
import type { AttemptVerdict, MissReason, ResultWarning } from "./runTypes";

describe("wording", () => {
  it("words a result's typed warnings in the window's language, and an older result's sentence as it is", () => {
    setLocale("en", false);
    expect(resultWarningText("an older sentence")).toBe("an older sentence");
    const flaky: ResultWarning = { source: "assessment", warning: { kind: "flaky", reproduced: 2, total: 3 } };
    expect(resultWarningText(flaky)).toBe("Flaky: 2 of 3 replays reproduced the crash.");
    const statistical: ResultWarning = {
      source: "assessment",
      warning: { kind: "statistical", confidence_percent: 95, cap: 12, unseparated: [4, 7] },
    };
    expect(resultWarningText(statistical)).toMatch(/95 % interval .* \(cap 12\)\. Not separated: steps 4, 7\.$/);
    expect(resultWarningText({ source: "plan", notice: { kind: "legacy_steps", count: 2 } })).toBe(
      planNoticeText({ kind: "legacy_steps", count: 2 }),
    );
    const decode: ResultWarning = {
      source: "decode",
      warning: { server: "lab", role: "log", tool: "get_recent_crashes", tolerated: [], more: 0 },
    };
    expect(resultWarningText(decode)).toMatch(/^The lab server \(role log\) answered get_recent_crashes outside/);
    setLocale("zh-CN", false);
    expect(resultWarningText(flaky)).toBe("偶发：3 次回放中 2 次复现了崩溃。");
    expect(resultWarningText(decode)).toMatch(/^lab 服务器（角色 log）对 get_recent_crashes/);
    expect(resultWarningText("an older sentence")).toBe("an older sentence");
    setLocale("en", false);
  });

  it("words every phase", () => {
    expect(Object.keys(phaseWords).sort()).toEqual(["audit", "baseline", "bisect", "confirm", "one_by_one"]);
    expect(phaseWords.one_by_one).toBe("Removing one step at a time");
  });

  it("classifies verdicts by their kind, running until an attempt finished", () => {
    expect(verdictKind(null)).toBe("running");
    expect(verdictKind({ kind: "reproduced", signature: null, label: null })).toBe("reproduced");
    expect(verdictKind({ kind: "cancelled" })).toBe("cancelled");
  });

  it("turns typed reasons and failure causes into words, with the step where the actions stopped", () => {
    const miss = (reason: MissReason, step: number | null = null): AttemptVerdict => ({ kind: "not_reproduced", reason, step });
    expect(reasonWords(miss("no_crash"))).toBe("No crash");
    expect(reasonWords(miss("different_crash"))).toBe("A different crash");
    expect(reasonWords(miss("element_not_found", 7))).toBe("A step's element was not on screen (step 7)");
    expect(reasonWords({ kind: "failed", cause: { kind: "recorded", detail: "adb gone" } })).toBe(
      "Device or server error: adb gone",
    );
    expect(reasonWords({ kind: "failed", cause: { kind: "tool", step: 3, detail: "timeout" } })).toBe(
      "Device or server error: step 3: timeout",
    );
    expect(reasonWords({ kind: "failed", cause: { kind: "capture", device: "sim-1", detail: "logcat stopped" } })).toBe(
      "Device or server error: logcat stopped (device sim-1)",
    );
    expect(reasonWords({ kind: "reproduced", signature: "s", label: null })).toBe("");
    expect(reasonWords(null)).toBe("");
    setLocale("zh-CN", false);
    expect(reasonWords({ kind: "cancelled" })).toBe("因取消而停止（不是错误）");
    expect(reasonWords({ kind: "failed", cause: { kind: "unknown_step", step: 9 } })).toBe("设备或服务器错误：第 9 步不在回放计划中");
  });

  it("words the backend's step descriptions, skip reasons and notices in either language", () => {
    const tap = { kind: "tap", target: { kind: "id", name: "btn_cart" } } as const;
    expect(stepText(tap)).toBe("Tap “btn_cart” (id)");
    expect(skipText({ code: "unstable_key", key_kind: "its class" })).toMatch(/only by its class/);
    // Issue 44: the real cause, not "only taps can be replayed".
    expect(skipText({ code: "list_position", element: "id/title", position: 8, list: "id/list" })).toBe(
      "The script finds “id/title” only by its position in a list (item 8 of id/list), which Whittle cannot replay yet: a tap on it alone could land on another item.",
    );
    expect(skipText({ code: "unknown_input", variable: "" })).toMatch(/JavaScript/);
    expect(skipText({ code: "input_withheld" })).toMatch(/nothing about its field says/);
    expect(planNoticeText({ kind: "low_coverage", replayable: 1, non_launch: 4 })).toMatch(/Only 1 of 4 actions/);
    const resumed = { kind: "resumed", at: "2026-05-20T10:15:00Z", after_attempts: 4 } as const;
    expect(noticeText(resumed)).toMatch(/^Resumed at May 20, 2026, \d\d:15: the 4 attempts recorded before/);
    setLocale("zh-CN", false);
    expect(noticeText(resumed)).toMatch(/中断前记录的 4 次尝试不会重新回放/);
    expect(stepText(tap)).toBe("点击“btn_cart”（id）");
    expect(stepText({ kind: "launch" })).toBe("启动应用");
    expect(skipText({ code: "sensitive" })).toMatch(/隐私数据/);
    expect(skipText({ code: "unstable_key", key_kind: "its screen position" })).toMatch(/屏幕位置/);
    expect(skipText({ code: "unknown_input", variable: "PASSWORD" })).toMatch(/-e PASSWORD=/);
    expect(
      skipText({ code: "ancestors_needed", element: "id/container", ancestors: "cv_cast in rv_cast" }),
    ).toMatch(/祖先元素（cv_cast in rv_cast）/);
    expect(skipText({ code: "list_position", element: "id/title", position: 8, list: "id/list" })).toMatch(
      /id\/list 的第 8 项/,
    );
    expect(deviceStateWords("online")).toBe("在线");
    expect(deviceStateWords("weird")).toBe("weird");
    expect(noticeText({ kind: "screenshot_omitted", attempt: 3, why: { kind: "empty_hierarchy" } })).toBe(
      "第 3 次尝试：截图已省略（UI 层级为空（例如应用刚刚崩溃））。",
    );
    expect(
      noticeText({ kind: "screenshot_omitted", attempt: 4, why: { kind: "capture_failed", detail: "adb gone" } }),
    ).toBe("第 4 次尝试：截图已省略（无法截图：adb gone）。");
    expect(sessionProblemWords({ file: "crashes.jsonl", line: 3, problem: { code: "invalid_record", what: "crash", detail: "x" } })).toBe(
      "crashes.jsonl 第 3 行：不是有效的崩溃记录（x）",
    );
    expect(sessionProblemWords({ file: "meta.json", line: null, problem: { code: "missing" } })).toBe(
      "meta.json：缺失（此文件夹不是 Whittle 会话）",
    );
  });

  it("says what a candidate removed in ranges", () => {
    expect(removedText([1, 6, 7, 8, 10], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])).toBe("removed: 2–5, 9");
    expect(removedText([1, 2], [1, 2])).toBe("all steps");
    expect(removedText([], [1, 2])).toBe("launch only");
  });

  it("says minimal only for a minimized end, whatever the flags", () => {
    expect(statusHeadline(summary)).toBe("Minimal path found: 4 → 3 steps");
    expect(statusHeadline({ ...summary, status: "unproven" })).toMatch(/minimality not proven/);
    // The end is decided in the core: converged flags never make an unproven end minimal.
    expect(statusHeadline({ ...summary, status: "unproven", fixed_point_reached: true, final_confirmed: true })).toMatch(
      /^Shortest reproducing path so far/,
    );
    expect(statusHeadline({ ...summary, status: "cancelled" })).toBe("The run was cancelled.");
    // Nothing removed: "already minimal", never "Minimal path found: 4 → 4".
    expect(statusHeadline({ ...summary, minimal_path: summary.original_path })).toBe(
      "Already minimal: no step of the 4-step path can be removed.",
    );
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

  it("says the final confirmation did not run when the result holds none of its verdicts", () => {
    const cut = { ...summary, final_confirmed: false };
    expect(confidenceReasons({ ...cut, final_outcomes: [] })[1]!.text).toBe("Final confirmation did not run");
    // Cancelled: the confirmation never completed, whatever the result holds of it.
    expect(confidenceReasons(cut, "cancelled")[1]!.text).toBe("Cancelled before the final confirmation completed");
    expect(confidenceReasons({ ...cut, final_outcomes: [true, false] })[1]!.text).toBe(
      "Final confirmation did not pass 3/3",
    );
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
