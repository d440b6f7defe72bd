use whittle_core::signature::group_crashes;
use whittle_service::api::Config;
use whittle_service::api::RunRefusal;
use whittle_service::api::{read_sidecar, FingerprintNote};
use whittle_text::format_path;

use super::session_arg;
use crate::exit::Exit;
use crate::json_answer;
use crate::mcp::{service_calls, ToolFailure};

/// Groups the session's crashes by signature with the same code the bundled analyzer
/// server runs, without starting any server. With `--json`: the answer of `whittle mcp`'s
/// `analyze` tool; a session without a crash is refused (`no_crash`) either way.
pub fn run(config: &Config, session: &str, json: bool) -> Exit {
    let named = match session_arg::read_or_refuse(config, session, json) {
        Ok(named) => named,
        Err(exit) => return exit,
    };
    let session = named.session;
    if json {
        if session.crashes.is_empty() {
            let failure = ToolFailure::refused(RunRefusal::NoCrash, "no crash in this session");
            return json_answer::failure(&failure);
        }
        let answer = service_calls::analysis(&named.id, &session);
        return json_answer::answer(&answer, Exit::Proven);
    }
    let groups = group_crashes(&session.crashes);
    if groups.is_empty() {
        println!("no crash in this session");
        return Exit::Refused;
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
    print_minimized(&session.dir);
    Exit::Proven
}

/// The approved results already written next to the session, each with a note when its
/// fingerprint came from another analyzer version (a new run may not compare equal).
fn print_minimized(dir: &std::path::Path) {
    let read = match read_sidecar(dir) {
        Ok(Some(read)) => read,
        Ok(None) => return,
        Err(e) => {
            eprintln!("warning: {e}");
            return;
        }
    };
    if read.sidecar.crashes.is_empty() {
        return;
    }
    println!("minimized ({})", read.path.display());
    for (crash_id, entry) in &read.sidecar.crashes {
        println!(
            "  {}  path {}  {}  approved {}",
            one_line(crash_id),
            format_path(&entry.minimized_repro_path),
            entry.minimized_confidence.as_str(),
            one_line(&entry.approved_at)
        );
        if let Some(note) = FingerprintNote::of(crash_id, entry) {
            println!("    note: {}", one_line(&note.to_string()));
        }
    }
}

/// The sidecar is a file on disk like any session file: its text reaches the terminal
/// without control characters.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}
