// The window in Simplified Chinese: components render the zh-CN catalogue, a language
// switch in Settings re-renders what is already on screen, and the choice is kept.
import { fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { describe, expect, it } from "vitest";
import ResultView from "./ResultView.svelte";
import WorkspaceHeader from "./WorkspaceHeader.svelte";
import { fakeBackend } from "../test/ipc";
import { planSteps, result, summary } from "../test/runFixtures";
import { locale, setLocale, STORAGE_KEY } from "../lib/i18n/index.svelte";
import type { RunResultView } from "../lib/runTypes";

describe("localization", () => {
  it("renders a finished run in Simplified Chinese with the seed's result words", () => {
    setLocale("zh-CN", false);
    fakeBackend({});
    render(ResultView, { result, steps: planSteps });
    expect(screen.getByRole("heading", { level: 3 })).toHaveTextContent("已找到最小路径，已收敛：4 → 3 步");
    expect(screen.getByTestId("result-confidence")).toHaveTextContent("置信度： 高");
    expect(screen.getByText("最终确认：3/3 复现")).toBeInTheDocument();
    expect(screen.getAllByTestId("proof-row")[0]).toHaveTextContent("删除第 2 步：0/3 复现");
    expect(screen.getByRole("button", { name: "批准" })).toBeInTheDocument();
  });

  it("never calls an unproven path minimal in Chinese either", () => {
    setLocale("zh-CN", false);
    fakeBackend({});
    const unproven: RunResultView = { ...result, summary: { ...summary, status: "unproven", fixed_point_reached: false } };
    render(ResultView, { result: unproven, steps: planSteps });
    const heading = screen.getByRole("heading", { level: 3 });
    expect(heading).toHaveTextContent("当前已复现的最短候选");
    expect(heading).toHaveTextContent("未完成最小性证明");
    expect(heading).not.toHaveTextContent("已收敛");
  });

  it("switches the language from Settings, re-rendering at once, and keeps the choice", async () => {
    render(WorkspaceHeader, { workspace: "/ws", recent: [], onchoose: () => {} });
    expect(screen.getByRole("button", { name: "Choose folder…" })).toBeInTheDocument();

    const settings = screen.getByRole("button", { name: "Settings" });
    expect(settings).toHaveAttribute("aria-expanded", "false");
    await fireEvent.click(settings);
    const select = screen.getByRole("combobox", { name: "Language" });
    await waitFor(() => expect(document.activeElement).toBe(select));
    await fireEvent.change(select, { target: { value: "zh-CN" } });

    expect(locale()).toBe("zh-CN");
    expect(screen.getByRole("button", { name: "选择文件夹…" })).toBeInTheDocument();
    expect(screen.getByText("工作区")).toBeInTheDocument();
    expect(screen.getByRole("combobox", { name: "语言" })).toHaveValue("zh-CN");
    expect(localStorage.getItem(STORAGE_KEY)).toBe("zh-CN");
    expect(document.documentElement.lang).toBe("zh-CN");

    await fireEvent.change(screen.getByRole("combobox", { name: "语言" }), { target: { value: "en" } });
    expect(screen.getByRole("button", { name: "Choose folder…" })).toBeInTheDocument();
    expect(localStorage.getItem(STORAGE_KEY)).toBe("en");
  });

  it("closes Settings on Escape and gives focus back to its button", async () => {
    render(WorkspaceHeader, { workspace: "/ws", recent: [], onchoose: () => {} });
    const settings = screen.getByRole("button", { name: "Settings" });
    await fireEvent.click(settings);
    await fireEvent.keyDown(screen.getByRole("combobox", { name: "Language" }), { key: "Escape" });
    expect(screen.queryByRole("combobox", { name: "Language" })).toBeNull();
    expect(document.activeElement).toBe(settings);
  });
});
