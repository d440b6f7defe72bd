import { fireEvent, render, screen } from "@testing-library/svelte";
import { tick } from "svelte";
import { describe, expect, it, vi } from "vitest";
import OutcomeBanner from "./OutcomeBanner.svelte";
import { result, summary } from "../test/runFixtures";
import { setLocale } from "../lib/i18n/index.svelte";

describe("OutcomeBanner", () => {
  it("says what happened and offers review and export after a minimal path", async () => {
    const onreview = vi.fn();
    render(OutcomeBanner, { summary, result, onreview, onexport: () => {}, onretry: () => {} });
    expect(screen.getByTestId("outcome-text")).toHaveTextContent("Minimal path found: 4 → 3 steps. Confidence: High.");
    await fireEvent.click(screen.getByTestId("banner-review"));
    expect(onreview).toHaveBeenCalled();
    expect(screen.getByTestId("banner-export")).toBeInTheDocument();
    expect(screen.queryByTestId("banner-retry")).toBeNull();
  });

  it("has skip links to Approve and Export right after the banner, and lists their keys", async () => {
    const onjump = vi.fn();
    render(OutcomeBanner, { summary, result, onreview: () => {}, jumps: ["approve", "export"], onjump });
    // The first stop after the banner, which has the focus when the run ends.
    const skips = screen.getAllByRole("button").slice(0, 2);
    expect(skips.map((b) => b.textContent)).toEqual(["Skip to Approve", "Skip to Export"]);
    await fireEvent.click(screen.getByTestId("skip-approve"));
    expect(onjump).toHaveBeenCalledWith("approve");
    await fireEvent.click(screen.getByTestId("skip-export"));
    expect(onjump).toHaveBeenLastCalledWith("export");
    expect(screen.getByTestId("banner-keys")).toHaveTextContent("Keyboard: Alt+A goes to Approve, Alt+E to Export.");
    setLocale("zh-CN", false);
    await tick();
    expect(screen.getByTestId("skip-approve")).toHaveTextContent("跳到“批准”");
    expect(screen.getByTestId("banner-keys")).toHaveTextContent("键盘：Alt+A 跳到“批准”，Alt+E 跳到“导出”。");
  });

  it("words a recording as what it recorded, never as a path found, and offers no approval", () => {
    const recording = { ...result, purpose: "record" as const, pending: null, sidecar_preview: null };
    const recorded = [
      { crash_id: "c1", label: "NullPointerException in CheckoutActivity", step_index: 6 },
      { crash_id: "c2", label: null, step_index: 9 },
    ];
    render(OutcomeBanner, {
      summary: { ...summary, status: "unproven", minimal_path: summary.original_path },
      result: recording,
      onreview: () => {},
      onexport: () => {},
      recorded,
      jumps: ["export"],
      onjump: () => {},
    });
    expect(screen.getByTestId("outcome-text")).toHaveTextContent("Recorded one replay of the whole flow: it caught 2 crashes.");
    expect(screen.getByTestId("outcome-banner")).not.toHaveTextContent(/Shortest|minimal path|→/);
    expect(screen.getByTestId("recorded-crashes")).toHaveTextContent("NullPointerException in CheckoutActivity, after step 6");
    expect(screen.getByTestId("recorded-crashes")).toHaveTextContent("Unlabelled crash, after step 9");
    expect(screen.queryByTestId("banner-review")).toBeNull();
    expect(screen.queryByTestId("skip-approve")).toBeNull();
    expect(screen.getByTestId("banner-export")).toBeInTheDocument();
    expect(screen.getByTestId("banner-keys")).toHaveTextContent("Keyboard: Alt+E goes to Export.");
  });

  it("takes the focus when it appears, so the keyboard lands on the outcome", () => {
    render(OutcomeBanner, { summary, result });
    expect(document.activeElement).toBe(screen.getByTestId("outcome-banner"));
  });

  it("says already minimal when nothing could be removed, never 3 → 3", () => {
    render(OutcomeBanner, { summary: { ...summary, minimal_path: summary.original_path }, result });
    expect(screen.getByTestId("outcome-text")).toHaveTextContent("Already minimal: no step of the 4-step path can be removed.");
    expect(screen.getByTestId("outcome-text")).not.toHaveTextContent("4 → 4");
  });

  it("offers a retry after a flaky baseline miss, with no path struck through", async () => {
    const onretry = vi.fn();
    const missed = { ...summary, status: "not_reproduced" as const, minimal_path: [], confidence: null };
    render(OutcomeBanner, { summary: missed, result: { ...result, summary: missed, pending: null, exportable: false }, onretry });
    expect(screen.getByTestId("outcome-text")).toHaveTextContent(/did not crash the same way this time/);
    await fireEvent.click(screen.getByTestId("banner-retry"));
    expect(onretry).toHaveBeenCalled();
    expect(screen.queryByTestId("banner-review")).toBeNull();
  });

  it("words the run's hint after a miss on the baseline's only try, in both languages", () => {
    const missed = { ...summary, status: "not_reproduced" as const, minimal_path: [], confidence: null };
    const hinted = { ...result, summary: missed, pending: null, exportable: false, hint: { kind: "more_baseline_tries" as const } };
    const { unmount } = render(OutcomeBanner, { summary: missed, result: hinted, onretry: () => {} });
    expect(screen.getByTestId("outcome-text")).toHaveTextContent(/did not crash the same way this time/);
    expect(screen.getByTestId("banner-next")).toHaveTextContent(
      "Next: the crash may be flaky, and the baseline had a single try: run it again with more baseline tries (3 or more).",
    );
    expect(screen.getByTestId("banner-retry")).toBeInTheDocument();
    unmount();
    setLocale("zh-CN", false);
    render(OutcomeBanner, { summary: missed, result: hinted });
    expect(screen.getByTestId("banner-next")).toHaveTextContent("请把基线重试设为 3 次或更多后再运行");
    setLocale("en", false);
  });

  it("gives no hint when the service gave none (a miss after several tries)", () => {
    const missed = { ...summary, status: "not_reproduced" as const, minimal_path: [], confidence: null };
    render(OutcomeBanner, { summary: missed, result: { ...result, summary: missed, pending: null, exportable: false, hint: null } });
    expect(screen.getByTestId("banner-next")).toHaveTextContent("Next: try again; if it keeps missing");
    expect(screen.getByTestId("banner-next")).not.toHaveTextContent(/baseline tries/);
  });

  it("calls a cancelled run's best path unproven and offers to export it", () => {
    const cancelled = { ...summary, status: "cancelled" as const, minimal_path: [1, 2, 4], complete: false };
    render(OutcomeBanner, {
      summary: cancelled,
      result: { ...result, summary: cancelled, pending: null, exportable: true, failure: null },
      onexport: () => {},
      onretry: () => {},
    });
    expect(screen.getByTestId("outcome-text")).toHaveTextContent("Cancelled. Best path so far: 4 → 3 steps — unproven.");
    expect(screen.getByTestId("banner-export")).toBeInTheDocument();
    // Cancelling is not a failure: no "replay infrastructure failed" detail.
    expect(screen.queryByText(/cancelled by user/)).toBeNull();
  });

  it("shows the run's warnings once, in the window's language", () => {
    setLocale("zh-CN", false);
    render(OutcomeBanner, {
      summary,
      result,
      warnings: [{ kind: "notice", notice: { kind: "screenshot_omitted", attempt: 2, why: { kind: "by_reviewer" } } }, { kind: "flaky" }],
    });
    expect(screen.getByTestId("outcome-text")).toHaveTextContent("已找到最小路径");
    const items = screen.getByRole("list", { name: "警告" }).querySelectorAll("li");
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent("第 2 次尝试：截图已省略（已被审阅者省略）。");
  });
});
