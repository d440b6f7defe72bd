use whittle_core::workspace::list_sessions;
use whittle_mcp::config::Config;

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
        let status = s
            .status
            .map(|st| format!("{st:?}").to_lowercase())
            .unwrap_or_else(|| "?".into());
        print!(
            "{}  {}  {} steps  {} crashes ({} distinct)  {}",
            s.session_id, status, s.step_count, s.crash_count, s.crash_groups, s.platform
        );
        match &s.problem {
            Some(problem) => println!("  ⚠ {problem}"),
            None => println!(),
        }
    }
    if sessions.is_empty() {
        println!("no sessions in {}", config.workspace.display());
    }
    Exit::Live
}
