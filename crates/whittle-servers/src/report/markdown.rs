//! `report.md`: a human-readable summary of a session written by `finalize`.
use whittle_core::model::{SessionMeta, Step, StepResult};

/// Renders the report. Every value comes from the client or from disk, so table cells are
/// escaped: a `|` or a newline in a note cannot break the table or inject markup lines.
pub fn render(meta: &SessionMeta, summary: &str, steps: &[Step]) -> String {
    let mut out = String::new();
    let title = if meta.name.is_empty() {
        &meta.session_id
    } else {
        &meta.name
    };
    out.push_str(&format!("# Session report: {}\n\n", inline(title)));
    out.push_str(&format!("- Session: `{}`\n", meta.session_id));
    out.push_str(&format!("- Status: **{}**\n", status_word(meta)));
    if !meta.created_at.is_empty() {
        out.push_str(&format!("- Started: {}\n", inline(&meta.created_at)));
    }
    if !meta.platform.is_empty() {
        out.push_str(&format!("- Platform: {}\n", inline(&meta.platform)));
    }
    out.push_str("\n## Summary\n\n");
    if summary.trim().is_empty() {
        out.push_str("_No summary given._\n");
    } else {
        out.push_str(summary.trim());
        out.push('\n');
    }
    out.push_str(&format!("\n## Steps ({})\n\n", steps.len()));
    if steps.is_empty() {
        out.push_str("_No steps recorded._\n");
        return out;
    }
    out.push_str("| # | Action | Result | Notes | Screenshot |\n|---|---|---|---|---|\n");
    for step in steps {
        let result = match step.result {
            StepResult::Ok => "ok",
            StepResult::Fail => "**fail**",
        };
        let shot = match &step.screenshot_src {
            Some(src) if !src.is_empty() => {
                let text = if step.screenshot_redacted {
                    "screenshot (redacted)"
                } else {
                    "screenshot"
                };
                format!("[{text}](<{}>)", link_target(src))
            }
            _ => String::new(),
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            step.index,
            cell(&step.action),
            result,
            cell(&step.notes),
            shot
        ));
    }
    out
}

fn status_word(meta: &SessionMeta) -> &'static str {
    match meta.status {
        whittle_core::model::SessionStatus::Running => "running",
        whittle_core::model::SessionStatus::Passed => "passed",
        whittle_core::model::SessionStatus::Failed => "failed",
    }
}

/// A table cell: one line, pipes and markup characters escaped.
fn cell(text: &str) -> String {
    let one_line = text.replace(['\r', '\n'], " ");
    escape(&one_line)
}

fn inline(text: &str) -> String {
    escape(&text.replace(['\r', '\n'], " "))
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(
            c,
            '|' | '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Inside `<...>` a link target may hold spaces but not `<`, `>` or newlines.
fn link_target(src: &str) -> String {
    src.chars()
        .filter(|c| !matches!(c, '<' | '>' | '\r' | '\n'))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use whittle_core::model::SessionStatus;

    fn meta() -> SessionMeta {
        serde_json::from_value(serde_json::json!({
            "session_id": "2025-01-01_000000_x", "name": "checkout", "status": "failed"
        }))
        .unwrap()
    }

    #[test]
    fn lists_steps_and_escapes_cells() {
        let steps = vec![Step {
            index: 1,
            ts: None,
            action: "tap".into(),
            result: StepResult::Fail,
            notes: "a | b\n| 9 | injected |".into(),
            screenshot_src: Some("shots/1.png".into()),
            screenshot_redacted: true,
        }];
        let md = render(&meta(), "It crashed.", &steps);
        assert!(md.starts_with("# Session report: checkout\n"));
        assert!(md.contains("- Status: **failed**"));
        assert!(md.contains("It crashed."));
        assert!(md.contains("| 1 | tap | **fail** | a \\| b \\| 9 \\| injected \\| | [screenshot (redacted)](<shots/1.png>) |"));
        assert_eq!(md.lines().filter(|l| l.starts_with("| ")).count(), 2);
        assert_eq!(meta().status, SessionStatus::Failed);
    }
}
