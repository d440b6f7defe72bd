//! `whittle minimize --all --list`: the crash groups `--all` would take, run none — for a
//! CI job matrix that spreads them over parallel jobs (docs/ci.md), each job then running
//! `whittle minimize SESSION --crash CRASH`. The list is the queue's own plan
//! (`api::plan_queue`), so a matrix and `--all` never disagree about what is minimized.

use serde::Serialize;
use whittle_service::api::{QueuePlan, QueueSkipReason, UnreadableSession};

use crate::exit::Exit;
use crate::json_answer;
use crate::locale::CliWords;

/// One crash group as `--list` shows it.
#[derive(Debug, Serialize)]
struct ListedGroup<'a> {
    session: &'a str,
    crash_id: &'a str,
    label: Option<&'a str>,
    package: Option<&'a str>,
    /// Why `--all` would not run it; absent for a group it runs.
    skip: Option<&'a QueueSkipReason>,
    /// The group's unfinished run that `--all` (with the same options) goes on with.
    resume: Option<&'a str>,
}

#[derive(Debug, Serialize)]
struct ListAnswer<'a> {
    groups: Vec<ListedGroup<'a>>,
    /// Sessions of the workspace that could not be read, with why.
    unreadable: &'a [UnreadableSession],
}

/// Prints the plan (one object with `--json`, else a line per group) and exits proven:
/// listing an empty workspace is listing too.
pub fn print(words: &CliWords, plan: &QueuePlan, json: bool) -> Exit {
    let groups: Vec<ListedGroup> = plan
        .items
        .iter()
        .map(|item| ListedGroup {
            session: &item.session,
            crash_id: &item.crash_id,
            label: item.label.as_deref(),
            package: item.package.as_deref(),
            skip: item.skip.as_ref(),
            resume: item.resume.as_ref().map(|r| r.evidence_session.as_str()),
        })
        .collect();
    if json {
        let answer = ListAnswer {
            groups,
            unreadable: &plan.unreadable,
        };
        return json_answer::answer(&answer, Exit::Proven);
    }
    for group in &groups {
        let mut line = format!("{}  {}", group.session, group.crash_id);
        if let Some(label) = group.label {
            line.push_str(&format!("  {label}"));
        }
        if let Some(reason) = group.skip {
            line.push_str(&format!(
                "  ({})",
                super::skip_words::skipped(words, reason)
            ));
        }
        // Labels are recorded data: no control character reaches the terminal.
        let line: String = line
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        println!("{line}");
    }
    // Sessions no crash group could be read from: listed as the queue lists them.
    for session in &plan.unreadable {
        let reason = super::skip_words::skipped(words, &session.skip_reason());
        let line = format!("{}  –  ({reason})", session.session);
        println!("{}", line.replace(char::is_control, " "));
    }
    Exit::Proven
}
