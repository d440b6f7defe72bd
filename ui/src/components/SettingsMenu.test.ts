import { fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { describe, expect, it } from "vitest";
import SettingsMenu from "./SettingsMenu.svelte";
import { commandCalls, fakeBackend } from "../test/ipc";

const setup = (privacy_level: "standard" | "strict" | null) => ({
  config_path: privacy_level ? "/home/t/.config/whittle/whittle.json" : null,
  first_run_demo: null,
  problem: null,
  log_dir: null,
  simulator: true,
  privacy_level,
});

describe("SettingsMenu privacy level", () => {
  it("shows the level runs use and writes the chosen one to the config", async () => {
    const calls = fakeBackend({
      app_setup: () => setup("standard"),
      set_privacy_level: (a) => setup(a.level as "strict"),
    });
    render(SettingsMenu, {});
    await fireEvent.click(screen.getByRole("button", { name: "Settings" }));
    const select = await screen.findByTestId("privacy-select");
    expect(select).toHaveValue("standard");
    expect(screen.getByTestId("privacy-help")).toHaveTextContent("text that looks private");
    await fireEvent.change(select, { target: { value: "strict" } });
    await waitFor(() => expect(screen.getByTestId("privacy-help")).toHaveTextContent("all text and every image"));
    expect(commandCalls(calls, "set_privacy_level")).toEqual([{ level: "strict" }]);
  });

  it("offers no level when there is no config to change", async () => {
    fakeBackend({ app_setup: () => setup(null) });
    render(SettingsMenu, {});
    await fireEvent.click(screen.getByRole("button", { name: "Settings" }));
    await waitFor(() => expect(screen.getByTestId("reveal-logs")).toBeInTheDocument());
    expect(screen.queryByTestId("privacy-select")).toBeNull();
  });

  it("says why a change was refused and keeps the old level", async () => {
    fakeBackend({
      app_setup: () => setup("standard"),
      set_privacy_level: () => {
        throw {
          code: "config_unavailable",
          cause: { kind: "not_written", file: "/w/whittle.json", detail: "Permission denied (os error 13)" },
          message: "Whittle's configuration cannot be used: cannot write /w/whittle.json: Permission denied (os error 13)",
        };
      },
    });
    render(SettingsMenu, {});
    await fireEvent.click(screen.getByRole("button", { name: "Settings" }));
    const select = await screen.findByTestId("privacy-select");
    await fireEvent.change(select, { target: { value: "strict" } });
    await waitFor(() => expect(screen.getByRole("alert")).toBeInTheDocument());
    // The cause in words, the OS's own text as it came.
    expect(screen.getByRole("alert")).toHaveTextContent("/w/whittle.json could not be written.");
    expect(screen.getByRole("alert")).toHaveTextContent("Permission denied (os error 13)");
    expect(screen.getByTestId("privacy-help")).toHaveTextContent("text that looks private");
  });
});
