use whittle_core::workspace::list_sessions;
use whittle_service::config::Config;
use whittle_service::run::{listed_run_state, RunState};

use crate::exit::Exit;

pub fn run(config: &Config) -> Exit {
    let sessions = match list_sessions(&config.workspace) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return Exit::Usage;
        }
    };
    for s in &sessions {
        // A minimize run whose meta says running but whose lock nobody holds was
        // interrupted (killed, crashed, power lost): it can be resumed.
        let state = listed_run_state(&config.workspace, s);
        let status = match (state, s.status) {
            (Some(RunState::Interrupted), _) => "interrupted".to_owned(),
            (Some(RunState::Running), _) => "running".to_owned(),
            (_, Some(st)) => format!("{st:?}").to_lowercase(),
            (_, None) => "?".into(),
        };
        print!(
            "{}  {}  {} steps  {} crashes ({} distinct)  {}",
            s.session_id, status, s.step_count, s.crash_count, s.crash_groups, s.platform
        );
        match &s.problem {
            Some(problem) => println!("  ⚠ {problem}"),
            None if state == Some(RunState::Interrupted) => {
                println!("  (resume: whittle minimize --resume {})", s.session_id)
            }
            None => println!(),
        }
    }
    if sessions.is_empty() {
        println!("no sessions in {}", config.workspace.display());
    }
    Exit::Live
}
