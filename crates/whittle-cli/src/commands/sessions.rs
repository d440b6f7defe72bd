use whittle_core::workspace::list_sessions;
use whittle_service::api::Config;
use whittle_service::api::{listed_run, listed_run_state, PastRunOutcome, RunState};

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
    let sessions = match list_sessions(&config.workspace) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return Exit::Refused;
        }
    };
    for s in &sessions {
        // A minimize run whose meta says running but whose lock nobody holds was
        // interrupted (killed, crashed, power lost). One that ended is named by how, as
        // the window's past runs name it, where its meta alone would only say failed: it
        // was cancelled, or the tester discarded it.
        let state = listed_run_state(&config.workspace, s);
        let run = listed_run(&config.workspace, s);
        let status = match (state, run.as_ref().map(|r| r.outcome), s.status) {
            (Some(RunState::Interrupted), _, _) => "interrupted".to_owned(),
            (Some(RunState::Running), _, _) => "running".to_owned(),
            (_, Some(PastRunOutcome::Cancelled), _) => "cancelled".to_owned(),
            (_, Some(PastRunOutcome::Discarded), _) => "discarded".to_owned(),
            (_, _, Some(st)) => format!("{st:?}").to_lowercase(),
            (_, _, None) => "?".into(),
        };
        print!(
            "{}  {}  {} steps  {} crashes ({} distinct)  {}",
            s.session_id, status, s.step_count, s.crash_count, s.crash_groups, s.platform
        );
        // A run's attempts, as `whittle runs` counts them (a killed run's from its
        // journal).
        if let Some(run) = &run {
            print!("  {} attempts", run.attempts);
        }
        match &s.problem {
            Some(problem) => println!("  ⚠ {problem}"),
            // Only a run that can go on (not superseded by a newer approval, not held).
            None if run.as_ref().is_some_and(|r| r.resumable) => {
                println!("  (resume: whittle minimize --resume {})", s.session_id)
            }
            None => println!(),
        }
    }
    if sessions.is_empty() {
        println!("no sessions in {}", config.workspace.display());
    }
    Exit::Proven
}
