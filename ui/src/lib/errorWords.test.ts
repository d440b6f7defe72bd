import { afterEach, describe, expect, it } from "vitest";
import type { AppError_Serialize as AppError } from "../bindings";
import { errorCauseWords, errorDetail } from "./errorWords";
import { setLocale } from "./i18n/index.svelte";

// One error of each code with a typed cause, as the backend sends it (the JSON pinned in
// src-tauri/tests/app/error_payload.rs).
const errors: AppError[] = [
  { code: "workspace_unreadable", path: "/w", cause: { kind: "no_sessions_folder" } },
  { code: "invalid_session_id", id: "a/b", problem: { kind: "invalid_char", found: "/", position: 2 } },
  { code: "session_unreadable", id: "e1", cause: { kind: "not_a_run_of", session: "s1" } },
  { code: "plan_unavailable", crash_id: "c1", detail: "d" },
  { code: "config_unavailable", cause: { kind: "bad_field", file: "/w/whittle.json", field: "workspace", detail: "d" } },
  { code: "servers_unavailable", cause: { kind: "failed", detail: "timeout" } },
  { code: "no_result", evidence_session: "e1" },
  { code: "approve_failed", cause: { kind: "other_crash", evidence: "e1", crash_id: "c1", asked: "c2" } },
  {
    code: "newer_approval",
    newer_approval: {
      crash_id: "c1",
      held_text: "h",
      held_evidence_session: "e0",
      held_approved_at: "2026-05-16T12:00:00Z",
      replacing_text: "r",
    },
  },
  { code: "export_failed", cause: { kind: "no_result_file", evidence: "e1" } },
  { code: "reveal_failed", path: "/etc", cause: { kind: "not_allowed" } },
  { code: "discard_failed", evidence_session: "e1", detail: "d" },
  { code: "import_failed", cause: { kind: "variable_name", name: "1x" } },
];

describe("a command's typed error in words", () => {
  afterEach(() => setLocale("en", false));

  it("words each code's cause from its fields, in English and 简体中文", () => {
    const english = errors.map(errorCauseWords);
    setLocale("zh-CN", false);
    const chinese = errors.map(errorCauseWords);
    for (const [i, error] of errors.entries()) {
      expect(english[i], error.code).toBeTruthy();
      expect(chinese[i], error.code).toBeTruthy();
      expect(chinese[i], error.code).not.toBe(english[i]);
      // Never a key left unworded.
      expect(english[i], error.code).not.toMatch(/cause\./);
      expect(chinese[i], error.code).not.toMatch(/cause\./);
    }
  });

  it("puts the typed data into the sentence", () => {
    expect(errorCauseWords(errors[0]!)).toBe("/w has no sessions folder, so it is not a Whittle workspace.");
    expect(errorCauseWords(errors[1]!)).toBe(
      "“a/b” has “/” at position 2; a session name uses only letters, digits, “.”, “_” and “-”.",
    );
    expect(errorCauseWords(errors[7]!)).toBe("The run of e1 minimized crash c1, not c2.");
    setLocale("zh-CN", false);
    expect(errorCauseWords(errors[2]!)).toBe("e1 不是会话 s1 的精简运行。");
  });

  it("shows only text from outside the product as it came", () => {
    expect(errorDetail(errors[5]!)).toBe("timeout");
    expect(errorDetail({ code: "clipboard_refused", detail: "no display" })).toBe("no display");
    expect(errorDetail(errors[0]!)).toBeNull();
    expect(errorDetail({ code: "run_refused", refusal: { kind: "server_failed", detail: "502" } })).toBe("502");
    expect(errorDetail({ code: "run_refused", refusal: { kind: "no_device" } })).toBeNull();
  });
});
