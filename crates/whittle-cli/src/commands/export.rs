use std::path::Path;

use whittle_service::api::EvidenceExportError;
use whittle_service::api::{self, ExportRequest, ExportRunError};
use whittle_service::config::Config;

use crate::exit::Exit;

pub fn run(config: &Config, evidence_session: &str, out: &Path, name: Option<&str>) -> Exit {
    let request = ExportRequest {
        evidence_session: evidence_session.to_owned(),
        folder: std::path::absolute(out).unwrap_or_else(|_| out.to_path_buf()),
        // The terminal names its bundle: the evidence session's id unless told otherwise.
        name: Some(name.unwrap_or(evidence_session).to_owned()),
    };
    match api::export(&config.workspace, &request) {
        Ok(dir) => {
            println!("{}", dir.display());
            Exit::Proven
        }
        Err(ExportRunError::Export(e)) => refused(&e),
        Err(e) => {
            eprintln!("error: {e}");
            Exit::Refused
        }
    }
}

/// `whittle export --markdown`: the ticket text on stdout.
pub fn markdown(config: &Config, evidence_session: &str) -> Exit {
    match whittle_service::api::ticket_markdown(&config.workspace, evidence_session) {
        Ok(text) => {
            print!("{text}");
            Exit::Proven
        }
        Err(e) => refused(&e),
    }
}

/// An export that did not happen: why on stderr, and the exit code of its cause.
fn refused(e: &EvidenceExportError) -> Exit {
    eprintln!("error: {e}");
    exit_of(e)
}

/// An evidence session without a result to export, a bad name or folder, or a bundle
/// that cannot be read or written: refused, nothing was exported.
pub fn exit_of(e: &EvidenceExportError) -> Exit {
    match e {
        EvidenceExportError::Resolve(_)
        | EvidenceExportError::Result(_)
        | EvidenceExportError::NoResult(_)
        | EvidenceExportError::NoResultFile(_)
        | EvidenceExportError::Export(_) => Exit::Refused,
    }
}
