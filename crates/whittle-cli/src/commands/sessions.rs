//! `whittle sessions`: the workspace's sessions as every front end lists them
//! (`api::listed_sessions`): a line per session, and under it a line per minimize run of
//! it, as `whittle runs` words one (how it ended, its path, attempts, approved, and how to
//! resume it when it can go on). With `--json`, the answer of `whittle mcp`'s `sessions`.

use whittle_service::api::{listed_sessions, Config, ListedSession};

use super::runs::run_line;
use crate::exit::Exit;
use crate::json_answer;
use crate::mcp::service_calls;

pub fn run(config: &Config, json: bool) -> Exit {
    if json {
        // The answer `whittle mcp`'s `sessions` tool gives: each session with its crashes.
        return match service_calls::sessions(config) {
            Ok(answer) => json_answer::answer(&answer, Exit::Proven),
            Err(failure) => json_answer::failure(&failure),
        };
    }
    let sessions = match listed_sessions(&config.workspace) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return Exit::Refused;
        }
    };
    for listed in &sessions {
        print_session(listed);
    }
    if sessions.is_empty() {
        println!("no sessions in {}", config.workspace.display());
    }
    Exit::Proven
}

fn print_session(listed: &ListedSession) {
    let s = &listed.summary;
    // A run's evidence is listed on its own only when the session it minimized is gone:
    // named by how its run stands (its meta alone would say failed for a cancelled one).
    let own_run = s.evidence_of.as_ref().and(listed.runs.first());
    let status = match (own_run, s.status) {
        (Some(run), _) => word(&run.outcome),
        // An imported flow's status is import's placeholder until a replay ran it.
        (None, Some(_)) if s.not_run => "not_run".into(),
        (None, Some(status)) => word(&status),
        (None, None) => "?".into(),
    };
    print!(
        "{}  {}  {} steps  {} crashes ({} distinct)  {}",
        s.session_id, status, s.step_count, s.crash_count, s.crash_groups, s.platform
    );
    if let Some(run) = own_run {
        print!("  {} attempts", run.attempts);
    }
    match &s.problem {
        Some(problem) => println!("  ⚠ {problem}"),
        None if own_run.is_some_and(|r| r.resumable) => {
            println!("  (resume: whittle minimize --resume {})", s.session_id)
        }
        None => println!(),
    }
    if own_run.is_none() {
        for run in &listed.runs {
            println!("  {}", run_line(run));
        }
    }
}

/// A status or outcome as its JSON names it (`failed`, `cancelled`, …).
fn word<T: serde::Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(word)) => word,
        _ => "?".into(),
    }
}
