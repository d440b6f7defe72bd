import { fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { describe, expect, it, vi } from "vitest";
import ResultView from "./ResultView.svelte";
import { commandCalls, fail, fakeBackend } from "../test/ipc";
import { planSteps, result, summary } from "../test/runFixtures";
import type { RunResultView } from "../lib/runTypes";

const evidence = summary.evidence_session!;

describe("ResultView", () => {
  it("states the confidence with its reasons and both paths side by side", () => {
    fakeBackend({});
    render(ResultView, { result, steps: planSteps });
    expect(screen.getByRole("heading", { level: 3 })).toHaveTextContent("Minimal path found: 4 → 3 steps");
    expect(screen.getByTestId("result-confidence")).toHaveTextContent("Confidence: High");
    // The confidence in words only, never the raw code "(high)".
    expect(screen.getByTestId("result-confidence")).not.toHaveTextContent("(high)");
    expect(screen.getByText("Final confirmation: 3/3 reproduced")).toBeInTheDocument();
    expect(screen.getByText("Fixed point reached: removing any single step no longer crashes")).toBeInTheDocument();
    const original = screen.getByRole("heading", { name: "Original · 4 steps" }).nextElementSibling!;
    const minimal = screen.getByRole("heading", { name: "Minimal · 3 steps" }).nextElementSibling!;
    expect(original.querySelectorAll("li.removed")).toHaveLength(1);
    expect(original.querySelector("li.removed")).toHaveTextContent("Type into “password” (id)");
    expect(minimal).toHaveTextContent("Tap “Checkout”");
    expect(screen.getAllByTestId("proof-row")[0]).toHaveTextContent("Without step 2: 0/3 reproduced");
    expect(screen.getByText(/"minimized_repro_path": \[1, 2, 4\]/)).toBeInTheDocument();
  });

  it("asks before approving while screenshots are unchecked, and approves only when told to", async () => {
    const calls = fakeBackend({ approve_run: () => ({ sidecar_path: "/ws/s/crashes.minimized.json" }) });
    const onreviewnext = vi.fn();
    const review = { total: 12, reviewed: 1, omitted: 0, not_reviewed: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], not_reviewed_frames: [] };
    render(ResultView, { result, steps: planSteps, review, onreviewnext });
    await fireEvent.click(screen.getByTestId("approve"));
    expect(screen.getByTestId("approve-unchecked")).toHaveTextContent("Only 1 of 12 screenshots have been checked");
    expect(commandCalls(calls, "approve_run")).toHaveLength(0);
    await fireEvent.click(screen.getByTestId("approve-check-first"));
    expect(onreviewnext).toHaveBeenCalledOnce();
    expect(screen.queryByTestId("approve-unchecked")).toBeNull();
    await fireEvent.click(screen.getByTestId("approve"));
    await fireEvent.click(screen.getByTestId("approve-anyway"));
    await waitFor(() => expect(commandCalls(calls, "approve_run")).toHaveLength(1));
  });

  it("counts unchecked filmstrip frames before approving, as the screenshots", async () => {
    const calls = fakeBackend({ approve_run: () => ({ sidecar_path: "/ws/s/crashes.minimized.json" }) });
    const frames = [1, 2].map((frame) => ({ attempt: 16, frame }));
    const review = { total: 6, reviewed: 4, omitted: 0, not_reviewed: [], not_reviewed_frames: frames };
    render(ResultView, { result, steps: planSteps, review, onreviewnext: vi.fn() });
    await fireEvent.click(screen.getByTestId("approve"));
    expect(screen.getByTestId("approve-unchecked")).toHaveTextContent("Only 4 of 6 screenshots have been checked");
    expect(commandCalls(calls, "approve_run")).toHaveLength(0);
  });

    it("disables Approve and Export with the reason when there is nothing to write back", () => {
    fakeBackend({});
    const cancelled: RunResultView = {
      ...result,
      summary: { ...summary, status: "cancelled", confidence: null, minimal_path: [] },
      pending: null,
      sidecar_preview: null,
      exportable: false,
    };
    render(ResultView, { result: cancelled, steps: planSteps });
    expect(screen.getByTestId("approve")).toBeDisabled();
    expect(screen.getByTestId("approve")).toHaveAccessibleDescription(
      "Nothing to approve: the run was cancelled before it produced a result.",
    );
    expect(screen.getByTestId("export")).toBeDisabled();
    expect(screen.queryByTestId("result-confidence")).toBeNull();
  });

  it("offers a cancelled run's best path so far for export, as unproven, and never says it finished", () => {
    fakeBackend({});
    const cancelled: RunResultView = {
      ...result,
      summary: { ...summary, status: "cancelled", confidence: "medium", fixed_point_reached: false, final_confirmed: false, complete: false },
      pending: null,
      sidecar_preview: null,
      exportable: true,
    };
    render(ResultView, { result: cancelled, steps: planSteps });
    expect(screen.getByRole("heading", { level: 3 })).toHaveTextContent("Best path so far (unproven)");
    expect(screen.getByTestId("approve")).toBeDisabled();
    expect(screen.getByTestId("export")).toBeEnabled();
    expect(screen.getByText("The bundle says the path is unproven.")).toBeInTheDocument();
    expect(screen.queryByText("Finished within the replay budget")).toBeNull();
    expect(screen.getByText("Cancelled before the search ended")).toBeInTheDocument();
  });

  it("says a reopened run was approved earlier, or why its evidence cannot be approved", () => {
    fakeBackend({});
    const { unmount } = render(ResultView, { result: { ...result, reopened: true, approved: true }, steps: planSteps });
    expect(screen.getByTestId("approve")).toBeDisabled();
    expect(screen.getByTestId("approve")).toHaveAccessibleDescription(/Already approved/);
    unmount();
    render(ResultView, {
      result: {
        ...result,
        reopened: true,
        pending: null,
        sidecar_preview: null,
        approve_blocked: { code: "inconsistent", detail: "the minimal path is not part of the original path" },
      },
      steps: planSteps,
    });
    expect(screen.getByTestId("approve")).toHaveAccessibleDescription(/does not hold together/);
  });

  it("offers to re-prove a run made elsewhere instead of approving it, and says so of the run that re-proved one", async () => {
    fakeBackend({});
    const onreprove = vi.fn();
    const foreign: RunResultView = {
      ...result,
      reopened: true,
      pending: null,
      sidecar_preview: null,
      approve_blocked: {
        code: "not_proven_here",
        why: "sealed_elsewhere",
        next: { action: "reprove", evidence_session: "ci-run-7" },
      },
    };
    const { unmount } = render(ResultView, { result: foreign, steps: planSteps, onreprove });
    expect(screen.getByTestId("approve")).toBeDisabled();
    expect(screen.getByTestId("approve")).toHaveAccessibleDescription(/made by another Whittle installation/);
    await fireEvent.click(screen.getByTestId("reprove"));
    expect(onreprove).toHaveBeenCalledWith("ci-run-7");
    unmount();
    // A run of this installation is never offered a re-proof; the one that re-proved says so.
    render(ResultView, { result: { ...result, summary: { ...summary, reproves: "ci-run-7" } }, steps: planSteps, onreprove });
    expect(screen.queryByTestId("reprove")).toBeNull();
    expect(screen.getByTestId("reproves-note")).toHaveTextContent("starting from the minimal path of ci-run-7");
  });

  it("shows a recording as what it recorded, with no path compared and nothing to approve", () => {
    render(ResultView, {
      result: { ...result, purpose: "record", pending: null, sidecar_preview: null, summary: { ...result.summary, status: "unproven", minimal_path: result.summary.original_path } },
      steps: planSteps,
    });
    expect(screen.getByRole("heading", { level: 3 })).toHaveTextContent("Recording of the whole flow");
    expect(screen.getByTestId("recording-note")).toHaveTextContent("One replay of all 4 steps, recorded as it ran");
    expect(screen.queryByTestId("approve")).toBeNull();
    expect(screen.queryByTestId("result-confidence")).toBeNull();
    expect(screen.getByTestId("export")).toBeEnabled();
  });

  it("approves and shows the written sidecar's path", async () => {
    const calls = fakeBackend({
      approve_run: () => ({ sidecar_path: "/ws/sessions/s/crashes.minimized.json", written_text: "{}" }),
    });
    render(ResultView, { result, steps: planSteps });
    await fireEvent.click(screen.getByTestId("approve"));
    expect(await screen.findByTestId("approved-path")).toHaveTextContent("/ws/sessions/s/crashes.minimized.json");
    expect(commandCalls(calls, "approve_run")).toEqual([{ evidenceSession: evidence, replace: false }]);
    expect(screen.getByTestId("approve")).toBeDisabled();
  });

  it("never replaces a newer approval without asking, showing both entries", async () => {
    const newer_approval = {
      crash_id: "c1",
      held_text: '{\n  "c1": {\n    "evidence_session": "2026-06-02_100000_minimize-checkout-npe"\n  }\n}',
      held_evidence_session: "2026-06-02_100000_minimize-checkout-npe",
      held_approved_at: "2026-06-02T10:05:00Z",
      replacing_text: `{\n  "c1": {\n    "evidence_session": "${evidence}"\n  }\n}`,
    };
    const calls = fakeBackend({
      approve_run: (a) => {
        if (!a.replace) throw { code: "newer_approval", message: "the result was not written: newer", newer_approval };
        return { sidecar_path: "/ws/sessions/s/crashes.minimized.json", written_text: "{}" };
      },
    });
    render(ResultView, { result, steps: planSteps });
    await fireEvent.click(screen.getByTestId("approve"));
    const ask = await screen.findByTestId("approve-newer");
    expect(ask).toHaveTextContent("already holds a newer approval of this crash (run 2026-06-02_100000_minimize-checkout-npe, approved 2026-06-02T10:05:00Z)");
    expect(screen.getByTestId("approve-newer-held")).toHaveTextContent("2026-06-02_100000_minimize-checkout-npe");
    expect(screen.getByTestId("approve-newer-replacing")).toHaveTextContent(evidence);
    expect(screen.queryByTestId("approved-path")).toBeNull();
    // Keeping the newer one writes nothing more.
    await fireEvent.click(screen.getByTestId("approve-keep-newer"));
    expect(screen.queryByTestId("approve-newer")).toBeNull();
    expect(commandCalls(calls, "approve_run")).toEqual([{ evidenceSession: evidence, replace: false }]);
    // Asked again, the tester confirms: only then is `replace` sent.
    await fireEvent.click(screen.getByTestId("approve"));
    await fireEvent.click(await screen.findByTestId("approve-replace"));
    expect(await screen.findByTestId("approved-path")).toHaveTextContent("/ws/sessions/s/crashes.minimized.json");
    expect(commandCalls(calls, "approve_run")).toEqual([
      { evidenceSession: evidence, replace: false },
      { evidenceSession: evidence, replace: false },
      { evidenceSession: evidence, replace: true },
    ]);
  });

  it("shows an approval failure in place with a next step", async () => {
    fakeBackend({
      approve_run: () =>
        fail("approve_failed", "the result was not written: read-only folder", {
          cause: { kind: "sidecar_unwritable", detail: "Read-only file system (os error 30)" },
        }),
    });
    render(ResultView, { result, steps: planSteps });
    await fireEvent.click(screen.getByTestId("approve"));
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("The session's crashes.minimized.json could not be written.");
    expect(alert).toHaveTextContent("Read-only file system (os error 30)");
    expect(alert).toHaveTextContent("Check that the session folder is writable");
    expect(screen.getByTestId("approve")).toBeEnabled();
  });

  it("exports into the prefilled folder, or one the user typed, and reveals the bundle", async () => {
    const calls = fakeBackend({ export_run: (a) => `${a.folder}/checkout-npe-c1`, reveal_path: () => null });
    render(ResultView, { result, steps: planSteps });
    const folder = screen.getByTestId("export-folder") as HTMLInputElement;
    expect(folder.value).toBe("/home/tester/whittle-exports");
    await fireEvent.input(folder, { target: { value: "/tmp/tickets" } });
    await fireEvent.click(screen.getByTestId("export"));
    expect(await screen.findByTestId("exported-path")).toHaveTextContent("/tmp/tickets/checkout-npe-c1");
    expect(commandCalls(calls, "export_run")).toEqual([{ evidenceSession: evidence, folder: "/tmp/tickets" }]);
    await fireEvent.click(screen.getByRole("button", { name: "Show in folder" }));
    expect(commandCalls(calls, "reveal_path")).toEqual([{ path: "/tmp/tickets/checkout-npe-c1" }]);
  });

  it("fills the folder from the native picker", async () => {
    fakeBackend({ "plugin:dialog|open": () => "/picked/folder" });
    render(ResultView, { result, steps: planSteps });
    await fireEvent.click(screen.getByRole("button", { name: "Choose…" }));
    await waitFor(() => expect((screen.getByTestId("export-folder") as HTMLInputElement).value).toBe("/picked/folder"));
  });
});

describe("ResultView: Copy as Markdown", () => {
  it("has the backend put the ticket text on the clipboard", async () => {
    const calls = fakeBackend({ copy_ticket_markdown: () => null, filmstrip: () => null });
    render(ResultView, { result, steps: planSteps, workspace: "/ws" });
    await fireEvent.click(screen.getByTestId("copy-markdown"));
    await waitFor(() => expect(screen.getByTestId("copied")).toBeInTheDocument());
    expect(commandCalls(calls, "copy_ticket_markdown")).toEqual([{ workspace: "/ws", evidenceSession: evidence }]);
  });

  it("shows the text to copy by hand when the clipboard refuses it", async () => {
    fakeBackend({
      copy_ticket_markdown: () => fail("clipboard_refused", "the clipboard refused the text: no display", { detail: "no display" }),
      ticket_markdown: () => "### Crash: NPE",
      filmstrip: () => null,
    });
    render(ResultView, { result, steps: planSteps, workspace: "/ws" });
    await fireEvent.click(screen.getByTestId("copy-markdown"));
    await waitFor(() => expect(screen.getByTestId("markdown-text")).toHaveTextContent("### Crash: NPE"));
  });
});
