use std::path::Path;

use whittle_service::config::Config;
use whittle_service::evidence::{export_evidence, EvidenceExportError};

use crate::exit::Exit;

pub fn run(config: &Config, evidence_session: &str, out: &Path, name: Option<&str>) -> Exit {
    match export_evidence(
        &config.workspace,
        evidence_session,
        out,
        name.unwrap_or(evidence_session),
    ) {
        Ok(dir) => {
            println!("{}", dir.display());
            Exit::Live
        }
        Err(e) => refused(&e),
    }
}

/// `whittle export --markdown`: the ticket text on stdout.
pub fn markdown(config: &Config, evidence_session: &str) -> Exit {
    match whittle_service::evidence::ticket_markdown(&config.workspace, evidence_session) {
        Ok(text) => {
            print!("{text}");
            Exit::Live
        }
        Err(e) => refused(&e),
    }
}

/// An export that did not happen: why on stderr, and the exit code of its cause.
fn refused(e: &EvidenceExportError) -> Exit {
    eprintln!("error: {e}");
    exit_of(e)
}

/// No result to export is exit 1, like a run without one; anything else is a usage
/// error.
pub fn exit_of(e: &EvidenceExportError) -> Exit {
    match e {
        EvidenceExportError::NoResult(_) => Exit::NoResult,
        _ => Exit::Usage,
    }
}
