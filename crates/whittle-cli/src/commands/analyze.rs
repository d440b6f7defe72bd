use whittle_core::report_text::format_path;
use whittle_core::session::{load_session, resolve_session_dir};
use whittle_core::signature::group_crashes;
use whittle_mcp::config::Config;

use crate::exit::Exit;

/// Groups the session's crashes by signature with the same code the bundled analyzer
/// server runs, without starting any server.
pub fn run(config: &Config, session: &str) -> Exit {
    let loaded = resolve_session_dir(&config.workspace, session)
        .map_err(|e| e.to_string())
        .and_then(|dir| load_session(&dir).map_err(|e| e.to_string()));
    let session = match loaded {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return Exit::Usage;
        }
    };
    let groups = group_crashes(&session.crashes);
    if groups.is_empty() {
        println!("no crash in this session");
        return Exit::NoResult;
    }
    println!("{} distinct crash(es)", groups.len());
    for g in &groups {
        println!(
            "  {}  {}  {}  {}  crashes {}  trigger step {}  path {}",
            g.fingerprint.as_deref().unwrap_or("(no fingerprint)"),
            g.kind.as_str(),
            g.process,
            g.label,
            g.crash_ids.join(","),
            g.step_index,
            format_path(&g.repro_path)
        );
    }
    Exit::Live
}
