//! The report of a static suggestion: a path the analyzer proposed without any replay
//! (no device, or the crash cannot be replayed). It is always low confidence and never
//! written back, and it says so in every language.

use std::fmt::Write as _;

use crate::catalogue::catalogue;
use crate::report::flat;
use crate::step_path::format_path;
use crate::Locale;

/// What the static report shows. `reason` and `rationale` come from the analyzer (an
/// MCP server) and are untrusted: each is printed on one line, at the analyzer's length.
#[derive(Debug, Clone, Copy)]
pub struct StaticInput<'a> {
    pub session: &'a str,
    pub crash_id: &'a str,
    /// Why no live run was possible, when known.
    pub reason: Option<&'a str>,
    pub original_path: &'a [u32],
    pub suggested_path: &'a [u32],
    pub rationale: &'a str,
}

/// The static suggestion's report in `locale`.
pub fn render_static_suggestion(locale: Locale, input: &StaticInput<'_>) -> String {
    let w = &catalogue(locale).static_suggestion;
    let mut out = String::new();
    let _ = writeln!(out, "{} ({} {})", w.heading, input.session, input.crash_id);
    if let Some(reason) = input.reason {
        let _ = writeln!(out, "  {}{}", w.no_live_run, flat(reason));
    }
    let _ = writeln!(out, "  {}{}", w.original, format_path(input.original_path));
    let _ = writeln!(
        out,
        "  {}{}{}",
        w.suggested,
        format_path(input.suggested_path),
        w.not_replayed
    );
    let _ = writeln!(out, "  {}{}", w.rationale, flat(input.rationale.trim()));
    let _ = writeln!(out, "  {}", w.nothing_replayed);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input() -> StaticInput<'static> {
        StaticInput {
            session: "2026-05-14_qa-sdk805",
            crash_id: "c1",
            reason: Some("no device is connected"),
            original_path: &[1, 2, 3, 7],
            suggested_path: &[1, 7],
            rationale: "  step 7 opens the screen that crashes ",
        }
    }

    #[test]
    fn english_reads_as_the_static_report_did_before_the_catalogue() {
        assert_eq!(
            render_static_suggestion(Locale::En, &input()),
            "\
ⓘ Static suggestion only, low confidence (2026-05-14_qa-sdk805 c1)
  No live run: no device is connected
  Original:  [1,2,3,7]
  Suggested: [1,7]  (not replayed)
  Rationale: step 7 opens the screen that crashes
  Nothing was replayed and nothing will be written back.
"
        );
    }

    #[test]
    fn chinese_states_the_same_facts() {
        let text = render_static_suggestion(Locale::ZhCn, &input());
        assert_eq!(
            text,
            "\
ⓘ 仅静态建议，置信度低 (2026-05-14_qa-sdk805 c1)
  无现场回放：no device is connected
  原始:     [1,2,3,7]
  建议:     [1,7]  (未回放)
  依据:     step 7 opens the screen that crashes
  未回放任何步骤，也不会写回任何内容。
"
        );
    }

    #[test]
    fn an_unknown_reason_is_left_out_not_invented() {
        let text = render_static_suggestion(
            Locale::En,
            &StaticInput {
                reason: None,
                ..input()
            },
        );
        assert!(!text.contains("No live run"), "{text}");
        assert_eq!(text.lines().count(), 5);
    }

    #[test]
    fn server_text_stays_on_one_line_in_every_language() {
        for locale in [Locale::En, Locale::ZhCn] {
            let text = render_static_suggestion(
                locale,
                &StaticInput {
                    reason: Some("no device\r\nFAKE: line"),
                    rationale: "opens\nthe screen\u{1b}[2J",
                    ..input()
                },
            );
            assert_eq!(text.lines().count(), 6, "{text}");
            assert!(text.contains("no device  FAKE: line"), "{text}");
            assert!(text.contains("opens the screen [2J"), "{text}");
        }
    }
}
