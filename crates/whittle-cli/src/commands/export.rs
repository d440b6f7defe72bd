use std::path::Path;

use whittle_mcp::config::Config;
use whittle_mcp::evidence::{export_evidence, EvidenceExportError};

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
        Err(e) => {
            eprintln!("error: {e}");
            match e {
                EvidenceExportError::NoResult(_) => Exit::NoResult,
                _ => Exit::Usage,
            }
        }
    }
}

/// `whittle export --markdown`: the ticket text on stdout.
pub fn markdown(config: &Config, evidence_session: &str) -> Exit {
    match whittle_mcp::evidence::ticket_markdown(&config.workspace, evidence_session) {
        Ok(text) => {
            print!("{text}");
            Exit::Live
        }
        Err(e) => {
            eprintln!("error: {e}");
            match e {
                EvidenceExportError::NoResult(_) => Exit::NoResult,
                _ => Exit::Usage,
            }
        }
    }
}
