//! `whittle approve <evidence> [--crash ID]`: a finished run's result, checked from its
//! evidence as the app checks a reopened run (`whittle_service::api::approve_evidence`),
//! written into the original session's `crashes.minimized.json`.

use whittle_service::api::{approve_evidence, ApproveRequest, ApproveRunError};
use whittle_service::config::Config;

use crate::exit::Exit;
use crate::locale;

pub fn run(config: &Config, evidence_session: &str, crash: Option<String>, json: bool) -> Exit {
    let request = ApproveRequest {
        evidence_session: evidence_session.to_owned(),
        crash,
    };
    match approve_evidence(&config.workspace, &request) {
        Ok((path, approval)) => {
            if json {
                let written: serde_json::Value =
                    serde_json::from_str(&approval.written_text).unwrap_or_default();
                let (crash_id, entry) = written
                    .as_object()
                    .and_then(|map| map.iter().next())
                    .map(|(id, entry)| (id.clone(), entry.clone()))
                    .unwrap_or_default();
                println!(
                    "{}",
                    serde_json::json!({
                        "status": "approved",
                        "sidecar": path,
                        "crash_id": crash_id,
                        "entry": entry,
                    })
                );
            } else {
                println!("{}", approval.written_text);
                println!("{}{}", locale::words().written, path.display());
            }
            Exit::Live
        }
        Err(e) => {
            let exit = exit_of(&e);
            if json {
                println!(
                    "{}",
                    serde_json::json!({ "status": "refused", "error": e.to_string(), "exit": exit as u8 })
                );
            } else {
                eprintln!("{}{e}", locale::words().error);
            }
            exit
        }
    }
}

/// Naming the wrong run is a usage error; a run that has nothing approvable is "no
/// result"; a sidecar that cannot be written is infrastructure.
fn exit_of(error: &ApproveRunError) -> Exit {
    match error {
        ApproveRunError::Session(_) | ApproveRunError::OtherCrash { .. } => Exit::Usage,
        ApproveRunError::Unreadable(_)
        | ApproveRunError::NotARun { .. }
        | ApproveRunError::Running { .. }
        | ApproveRunError::NoResult { .. }
        | ApproveRunError::NotApprovable { .. } => Exit::NoResult,
        ApproveRunError::Write(_) => Exit::Infrastructure,
    }
}
