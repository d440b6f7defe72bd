//! `whittle approve <evidence> [--crash ID] [--replace]`: a finished run's result,
//! checked from its evidence as the app checks a reopened run — the journal's seal, and
//! `steps.jsonl` and `result.json` against it (`whittle_service::api::approve_evidence`)
//! — written into the original session's `crashes.minimized.json`. A newer approval of
//! the crash is never replaced without `--replace`: the refusal prints both entries.

use whittle_service::api::Config;
use whittle_service::api::{
    approve_evidence, ApproveError, ApproveRequest, ApproveRunError, NewerApproval, NextStep,
    Replace,
};

use crate::exit::Exit;
use crate::locale;

pub fn run(
    config: &Config,
    evidence_session: &str,
    crash: Option<String>,
    replace: bool,
    json: bool,
) -> Exit {
    let request = ApproveRequest {
        evidence_session: evidence_session.to_owned(),
        crash,
        replace: Replace::confirmed(replace),
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
                        "exit": Exit::Proven.json(),
                    })
                );
            } else {
                println!("{}", approval.written_text);
                println!("{}{}", locale::words().written, path.display());
            }
            Exit::Proven
        }
        Err(e) => {
            let exit = exit_of(&e);
            let newer = match &e {
                ApproveRunError::Write(ApproveError::Newer(newer)) => Some(newer.as_ref()),
                _ => None,
            };
            let next = match &e {
                ApproveRunError::NotApprovable { source, .. } => source.next(),
                _ => None,
            };
            if json {
                let mut answer = serde_json::json!({ "status": "refused", "code": e.code(), "error": e.to_string() });
                if let (Some(newer), Some(map)) = (newer, answer.as_object_mut()) {
                    add_newer_fields(map, newer);
                }
                if let Some(next) = next {
                    answer["next"] = serde_json::json!(next);
                }
                answer["exit"] = exit.json();
                println!("{answer}");
            } else {
                eprintln!("{}{e}", locale::words().error);
                if let Some(newer) = newer {
                    print_newer(newer);
                }
                if let Some(NextStep::Reprove { evidence_session }) = next {
                    eprintln!("{}", (locale::words().next_reprove)(evidence_session));
                }
            }
            exit
        }
    }
}

/// The `--json` fields of a refused replacement: the entry kept, and the one refused.
pub(crate) fn add_newer_fields(
    map: &mut serde_json::Map<String, serde_json::Value>,
    newer: &NewerApproval,
) {
    map.insert("held".into(), serde_json::json!(newer.held));
    map.insert("replacing".into(), serde_json::json!(newer.replacing));
}

/// What a refused replacement would have replaced, and with what.
pub(crate) fn print_newer(newer: &NewerApproval) {
    let words = locale::words();
    eprintln!("{}", words.newer_kept);
    eprintln!("{}", words.newer_held);
    eprintln!("{}", newer.keyed_text(&newer.held));
    eprintln!("{}", words.newer_replacing);
    eprintln!("{}", newer.keyed_text(&newer.replacing));
}

/// Naming the wrong run, a run that has nothing approvable, or one whose approval would
/// replace a newer one is refused; a sidecar that cannot be written is a failure.
fn exit_of(error: &ApproveRunError) -> Exit {
    match error {
        ApproveRunError::Session(_)
        | ApproveRunError::OtherCrash { .. }
        | ApproveRunError::Unreadable(_)
        | ApproveRunError::NotARun { .. }
        | ApproveRunError::Running { .. }
        | ApproveRunError::NoResult { .. }
        | ApproveRunError::NotApprovable { .. }
        | ApproveRunError::ChangedSinceShown { .. }
        | ApproveRunError::Write(ApproveError::Newer(_)) => Exit::Refused,
        ApproveRunError::Write(_) => Exit::Infrastructure,
    }
}
