use std::path::Path;

use serde::Serialize;
use whittle_service::api::Config;
use whittle_service::api::EvidenceExportError;
use whittle_service::api::{self, ExportRequest, ExportRunError};

use crate::exit::Exit;
use crate::json_answer;
use crate::mcp::answers::ExportAnswer;
use crate::mcp::ToolFailure;

pub fn run(
    config: &Config,
    evidence_session: &str,
    out: &Path,
    name: Option<&str>,
    json: bool,
) -> Exit {
    let request = ExportRequest {
        evidence_session: evidence_session.to_owned(),
        folder: std::path::absolute(out).unwrap_or_else(|_| out.to_path_buf()),
        // The terminal names its bundle: the evidence session's id unless told otherwise.
        name: Some(name.unwrap_or(evidence_session).to_owned()),
    };
    match api::export(&config.workspace, &request) {
        Ok(dir) if json => json_answer::answer(
            &ExportAnswer {
                bundle_dir: dir.display().to_string(),
            },
            Exit::Proven,
        ),
        Ok(dir) => {
            println!("{}", dir.display());
            Exit::Proven
        }
        Err(ExportRunError::Export(e)) => refused(exit_of(&e), &e, json),
        // A folder that is not a full path or cannot be created: refused, as a bad
        // argument.
        Err(e) => refused(Exit::Refused, &e, json),
    }
}

/// `whittle export --markdown --json`: the ticket text inside one object.
#[derive(Serialize)]
struct MarkdownAnswer<'a> {
    evidence_session: &'a str,
    markdown: String,
}

/// `whittle export --markdown`: the ticket text on stdout.
pub fn markdown(config: &Config, evidence_session: &str, json: bool) -> Exit {
    match whittle_service::api::ticket_markdown(&config.workspace, evidence_session) {
        Ok(markdown) if json => json_answer::answer(
            &MarkdownAnswer {
                evidence_session,
                markdown,
            },
            Exit::Proven,
        ),
        Ok(text) => {
            print!("{text}");
            Exit::Proven
        }
        Err(e) => refused(exit_of(&e), &e, json),
    }
}

/// An export that did not happen: why (on stderr, or as the `--json` object), and the
/// exit code of its cause.
fn refused(exit: Exit, e: &dyn std::fmt::Display, json: bool) -> Exit {
    if json {
        return json_answer::failure(&ToolFailure::new(exit, e));
    }
    eprintln!("error: {e}");
    exit
}

/// An evidence session without a result to export, a bad name or folder, or a bundle
/// that cannot be read or written: refused, nothing was exported.
pub fn exit_of(e: &EvidenceExportError) -> Exit {
    match e {
        EvidenceExportError::Resolve(_)
        | EvidenceExportError::Result(_)
        | EvidenceExportError::NoResult(_)
        | EvidenceExportError::NoResultFile(_)
        // Files changed since they were sealed: nothing of them is exported.
        | EvidenceExportError::Changed { .. }
        | EvidenceExportError::Export(_) => Exit::Refused,
    }
}
