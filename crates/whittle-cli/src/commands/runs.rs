//! `whittle runs <session>`: the session's past minimize runs per crash, newest first,
//! as the app's session view shows them (`whittle_service::api::past_runs`): how each
//! ended, its path length before and after, confidence, attempts, and whether it is
//! approved or can be resumed.

use whittle_service::api::Config;
use whittle_service::api::{past_runs, PastRun};

use super::session_arg;
use crate::exit::Exit;

pub fn run(config: &Config, session: &str, json: bool) -> Exit {
    let named = match session_arg::read_or_refuse(config, session, json) {
        Ok(named) => named,
        Err(exit) => return exit,
    };
    let (session_id, session) = (named.id, named.session);
    let mut runs = past_runs(&config.workspace, &session_id, &session.crashes);
    let per_crash: Vec<(String, Vec<PastRun>)> = session
        .crashes
        .iter()
        .map(|c| {
            // Newest first, as `past_runs` orders them for every front end.
            (
                c.crash_id.clone(),
                runs.remove(&c.crash_id).unwrap_or_default(),
            )
        })
        .collect();
    if json {
        let crashes: Vec<serde_json::Value> = per_crash
            .iter()
            .map(|(crash_id, runs)| serde_json::json!({ "crash_id": crash_id, "runs": runs }))
            .collect();
        println!(
            "{}",
            serde_json::json!({
                "session": session_id,
                "crashes": crashes,
                "exit": Exit::Proven.json(),
            })
        );
    } else {
        print_text(&per_crash);
    }
    Exit::Proven
}

fn print_text(per_crash: &[(String, Vec<PastRun>)]) {
    for (crash_id, runs) in per_crash {
        println!("{crash_id}: {} past run(s)", runs.len());
        for run in runs {
            println!("  {}", run_line(run));
        }
    }
}

/// `<evidence>  <created>  <outcome>  12 → 4  high  minimal  20 attempts  approved`.
pub(crate) fn run_line(run: &PastRun) -> String {
    let outcome = serde_json::to_value(run.outcome)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    let mut parts = vec![
        run.evidence_session.clone(),
        run.created_at.clone(),
        outcome,
    ];
    parts.push(match run.minimal_steps {
        Some(minimal) => format!("{} → {minimal}", run.original_steps),
        None => format!("{} steps", run.original_steps),
    });
    if let Some(confidence) = run.confidence {
        parts.push(confidence.as_str().to_owned());
    }
    if run.converged {
        parts.push("minimal".to_owned());
    }
    parts.push(format!("{} attempts", run.attempts));
    if run.approved {
        parts.push("approved".to_owned());
    }
    if run.resumable {
        parts.push(format!(
            "(resume: whittle minimize --resume {})",
            run.evidence_session
        ));
    }
    parts
        .into_iter()
        .map(|p| {
            p.chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("  ")
}
