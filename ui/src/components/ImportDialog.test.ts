import { fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { describe, expect, it, vi } from "vitest";
import ImportDialog from "./ImportDialog.svelte";
import { commandCalls, fail, fakeBackend } from "../test/ipc";

const summary = {
  session_id: "2026-12-03_093306_checkout-from-maestro",
  name: "checkout-from-maestro",
  session_dir: "/ws/sessions/2026-12-03_093306_checkout-from-maestro",
  format: "maestro",
  package: "com.example.shop",
  steps: 11,
  replayable: 9,
  skipped: [
    {
      step: 9,
      description: "Unsupported action “assert visible”",
      words: { kind: "unsupported", action_type: "assert visible" },
      reason: { code: "unsupported_action", action_type: "assert visible" },
    },
  ],
  notes: [{ kind: "launch_option", option: "clear_state", line: 3 }],
};

describe("ImportDialog", () => {
  it("imports the chosen file and opens the new session", async () => {
    const calls = fakeBackend({ import_flow: () => summary });
    const onimported = vi.fn();
    render(ImportDialog, { workspace: "/ws", onclose: () => {}, onimported });
    await fireEvent.input(screen.getByTestId("import-file"), { target: { value: "/flows/checkout.yaml" } });
    expect(screen.getByTestId("import-format")).toHaveValue("maestro");
    await fireEvent.input(screen.getByTestId("import-name"), { target: { value: "checkout" } });
    await fireEvent.click(screen.getByTestId("import-submit"));
    await waitFor(() => expect(screen.getByTestId("import-done")).toBeInTheDocument());
    expect(commandCalls(calls, "import_flow")).toEqual([
      {
        request: { workspace: "/ws", format: "maestro", file: "/flows/checkout.yaml", name: "checkout", package: null },
      },
    ]);
    // Named as the session list names it, with its folder.
    expect(screen.getByTestId("import-done")).toHaveTextContent(
      "Imported as “checkout-from-maestro” (folder 2026-12-03_093306_checkout-from-maestro): 9 of 11 steps will be replayed",
    );
    // The step and its reason, worded by the window from their typed record.
    expect(screen.getByTestId("import-done")).toHaveTextContent(
      "Step 9 (Unsupported action “assert visible”) is kept but not replayed: Whittle cannot replay “assert visible” actions",
    );
    expect(screen.getByTestId("import-done")).toHaveTextContent("The flow's launchApp (line 3) clears the app's data;");
    await fireEvent.click(screen.getByRole("button", { name: "Open the session" }));
    expect(onimported).toHaveBeenCalledWith(summary.session_id);
  });

  it("guesses a Robo script from .json and passes the package it needs", async () => {
    const calls = fakeBackend({ import_flow: () => ({ ...summary, format: "robo", skipped: [] }) });
    render(ImportDialog, { workspace: "/ws", onclose: () => {} });
    await fireEvent.input(screen.getByTestId("import-file"), { target: { value: "/flows/checkout.robo.json" } });
    expect(screen.getByTestId("import-format")).toHaveValue("robo");
    await fireEvent.input(screen.getByTestId("import-package"), { target: { value: "com.example.shop" } });
    await fireEvent.click(screen.getByTestId("import-submit"));
    await waitFor(() => expect(commandCalls(calls, "import_flow")).toHaveLength(1));
    expect(commandCalls(calls, "import_flow")[0]).toMatchObject({ request: { format: "robo", package: "com.example.shop" } });
  });

  it("shows a refused file with its line and field, and what to do", async () => {
    fakeBackend({
      import_flow: () =>
        fail("import_failed", "the flow was not imported: bad.yaml line 5, field commands[1].tapOn.idd: unknown selector key", {
          cause: { kind: "failed", detail: "bad.yaml line 5, field commands[1].tapOn.idd: unknown selector key" },
        }),
    });
    render(ImportDialog, { workspace: "/ws", onclose: () => {} });
    await fireEvent.input(screen.getByTestId("import-file"), { target: { value: "/flows/bad.yaml" } });
    await fireEvent.click(screen.getByTestId("import-submit"));
    await waitFor(() => expect(screen.getByText(/bad.yaml line 5, field commands\[1\].tapOn.idd/)).toBeInTheDocument());
    expect(screen.getByText(/The flow was not imported\./)).toBeInTheDocument();
    expect(screen.queryByTestId("import-done")).toBeNull();
  });

  it("blames the name field, not the file, for a bad session name, and marks it", async () => {
    fakeBackend({
      import_flow: () =>
        fail("import_failed", "the flow was not imported: session name …", {
          cause: { kind: "bad_name", name: "../escape" },
        }),
    });
    render(ImportDialog, { workspace: "/ws", onclose: () => {} });
    await fireEvent.input(screen.getByTestId("import-file"), { target: { value: "/flows/ok.yaml" } });
    await fireEvent.input(screen.getByTestId("import-name"), { target: { value: "../escape" } });
    await fireEvent.click(screen.getByTestId("import-submit"));
    await waitFor(() => expect(screen.getByText(/The session name “..\/escape” must be one name/)).toBeInTheDocument());
    expect(screen.getByText(/Change the session name, or leave it empty/)).toBeInTheDocument();
    expect(screen.queryByText(/Fix the file/)).toBeNull();
    expect(screen.getByTestId("import-name")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByTestId("import-package")).toHaveAttribute("aria-invalid", "false");
  });
});

describe("ImportDialog: variables and private values", () => {
  it("passes a Maestro flow's variables and the values never to store", async () => {
    const calls = fakeBackend({ import_flow: () => summary });
    render(ImportDialog, { workspace: "/ws", onclose: () => {} });
    await fireEvent.input(screen.getByTestId("import-file"), { target: { value: "/flows/login.yaml" } });
    await fireEvent.input(screen.getByTestId("import-variables"), {
      target: { value: "USER=test_user_1\n\nPASSWORD=a=b" },
    });
    const [first] = screen.getAllByTestId("import-private") as [HTMLElement];
    expect(first).toHaveAttribute("type", "password");
    await fireEvent.input(first, { target: { value: "hunter2" } });
    // A second field appears for the next value.
    expect(screen.getAllByTestId("import-private")).toHaveLength(2);
    await fireEvent.click(screen.getByTestId("import-submit"));
    await waitFor(() => expect(commandCalls(calls, "import_flow")).toHaveLength(1));
    expect(commandCalls(calls, "import_flow")[0]).toMatchObject({
      request: { variables: { USER: "test_user_1", PASSWORD: "a=b" }, private_values: ["hunter2"] },
    });
  });

  it("names a line that is not NAME=value and does not import", async () => {
    const calls = fakeBackend({ import_flow: () => summary });
    render(ImportDialog, { workspace: "/ws", onclose: () => {} });
    await fireEvent.input(screen.getByTestId("import-file"), { target: { value: "/flows/login.yaml" } });
    await fireEvent.input(screen.getByTestId("import-variables"), { target: { value: "USER=a\nPASSWORD" } });
    expect(screen.getByRole("alert")).toHaveTextContent("Line 2 is not NAME=value.");
    expect(screen.getByTestId("import-submit")).toBeDisabled();
    expect(commandCalls(calls, "import_flow")).toHaveLength(0);
  });

  it("offers no variables for a Robo script", async () => {
    fakeBackend({ import_flow: () => summary });
    render(ImportDialog, { workspace: "/ws", onclose: () => {} });
    await fireEvent.input(screen.getByTestId("import-file"), { target: { value: "/flows/a.robo.json" } });
    expect(screen.queryByTestId("import-variables")).toBeNull();
  });
});
