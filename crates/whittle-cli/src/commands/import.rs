//! `whittle import maestro|robo FILE`: the flow becomes a session; with `--record` it is
//! replayed once and the crashes it caused are recorded, ready to minimize.

use serde_json::json;
use tokio_util::sync::CancellationToken;
use whittle_service::api::Config;
use whittle_service::api::MissReason;
use whittle_service::api::{
    self, ImportRecordRefusal, ImportRecorded, ImportRefusal, ImportRequest, RecordFailure,
    RunRefusal,
};
use whittle_service::api::{ImportFailure, ImportSummary, RecordEnd, RecordError, RecordOutcome};

use crate::cli::ImportCommand;
use crate::exit::Exit;
use crate::signals::CancelOnSignal;

pub async fn run(config: &Config, args: ImportCommand) -> Exit {
    let mut config = config.clone();
    if let Some(workspace) = &args.workspace {
        config.workspace = std::path::absolute(workspace).unwrap_or_else(|_| workspace.clone());
    }
    // The file as the user named it, relative to where they are.
    let file = std::path::absolute(&args.file).unwrap_or_else(|_| args.file.clone());
    let request = ImportRequest {
        workspace: config.workspace.display().to_string(),
        format: args.format,
        file: file.display().to_string(),
        name: args.name.clone(),
        package: args.package.clone(),
        variables: Some(args.variables.iter().cloned().collect()),
        private_values: Some(args.private_values.clone()),
    };
    let (summary, recorded) = if args.record {
        match record(&config, &request, args.device.as_deref()).await {
            Ok(done) => (done.summary, Some(done.recorded)),
            Err(ImportRecordRefusal::Import(e)) => return refuse(&e, args.json),
            Err(ImportRecordRefusal::Record(e)) => {
                return refuse_record(&config, &e, args.json);
            }
        }
    } else {
        match api::import(&request) {
            Ok(summary) => (summary, None),
            Err(e) => return refuse(&e, args.json),
        }
    };
    let exit = match &recorded {
        None => Exit::Proven,
        Some(Ok(outcome)) => match outcome.end {
            RecordEnd::Crashed => Exit::Proven,
            RecordEnd::RanToEnd => Exit::NotReproduced,
            RecordEnd::Stopped { .. } => Exit::Stopped,
        },
        Some(Err(e)) => record_exit(e),
    };
    if args.json {
        print_json(&summary, recorded.as_ref(), exit);
    } else {
        print_summary(&summary);
        match &recorded {
            Some(Ok(outcome)) => print_recorded(outcome),
            Some(Err(e)) => print_record_error(&config, e),
            None => println!(
                "Not replayed yet: run it once with `whittle import … --record`, or replay it \
                 in the app (Run once and record)."
            ),
        }
    }
    exit
}

pub(crate) fn record_exit(e: &RecordFailure) -> Exit {
    match e {
        RecordFailure::Servers(e) => Exit::of_refusal(&RunRefusal::of_servers(e)),
        RecordFailure::Record(RecordError::Run(e)) => Exit::of_error(e),
        RecordFailure::Record(
            RecordError::NoPackage(_)
            | RecordError::NotInstalled { .. }
            | RecordError::AlreadyRecorded(_),
        ) => Exit::Refused,
        RecordFailure::Record(RecordError::Cancelled) => Exit::Cancelled,
        RecordFailure::Record(
            RecordError::Capture(_)
            | RecordError::Replay(_)
            | RecordError::Write { .. }
            | RecordError::Result(_),
        ) => Exit::Infrastructure,
    }
}

fn print_record_error(config: &Config, e: &RecordFailure) {
    eprintln!("error: {e}");
    if let RecordFailure::Servers(servers) = e {
        for problem in &servers.problems {
            eprintln!("  fix: {}", problem.fix(&config.path));
        }
    }
}

/// `--record` refused before anything was written (the device, the servers, the app).
fn refuse_record(config: &Config, e: &RecordFailure, json: bool) -> Exit {
    let exit = record_exit(e);
    if json {
        println!(
            "{}",
            json!({ "status": "refused", "error": e.to_string(), "exit": exit.json() })
        );
    } else {
        print_record_error(config, e);
    }
    exit
}

async fn record(
    config: &Config,
    request: &ImportRequest,
    device: Option<&str>,
) -> Result<ImportRecorded, ImportRecordRefusal> {
    let cancel = CancellationToken::new();
    // SIGINT, SIGTERM and SIGHUP stop the replay; the servers are still shut down.
    let signals = CancelOnSignal::token(cancel.clone());
    let result = api::import_and_record(config, request, device, &cancel).await;
    drop(signals);
    result
}

fn refuse(e: &ImportRefusal, json: bool) -> Exit {
    let exit = match e {
        ImportRefusal::Import(ImportFailure::Write { .. }) => Exit::Infrastructure,
        _ => Exit::Refused,
    };
    if json {
        println!(
            "{}",
            json!({ "status": "refused", "error": e.to_string(), "exit": exit.json() })
        );
    } else {
        eprintln!("error: {e}");
    }
    exit
}

fn print_summary(s: &ImportSummary) {
    println!(
        "Imported a {} flow for {} as session {}",
        s.format.as_str(),
        s.package,
        s.session_id
    );
    let setup = (s.steps as usize).saturating_sub(s.replayable as usize + s.skipped.len());
    println!(
        "{} steps: {} launch, {} replayed, {} kept but not replayed",
        s.steps,
        setup,
        s.replayable,
        s.skipped.len()
    );
    for skipped in &s.skipped {
        println!(
            "  step {} ({}): {}",
            skipped.step, skipped.description, skipped.reason
        );
    }
    for note in &s.notes {
        println!("  note: {}", (crate::locale::words().import_note)(note));
    }
}

fn print_recorded(outcome: &RecordOutcome) {
    match outcome.end {
        RecordEnd::RanToEnd => {
            println!(
                "Replayed once on {}: the flow ran without a crash, so the session is saved \
                 as passed (nothing to minimize).",
                outcome.device
            );
            return;
        }
        RecordEnd::Stopped { step, reason } => {
            println!(
                "Replayed once on {}: the replay stopped{}: {}, without a crash. The flow \
                 did not run to its end, so it neither passed nor recorded a crash; the \
                 session is saved as failed (evidence: {}).",
                outcome.device,
                step.map(|s| format!(" at step {s}")).unwrap_or_default(),
                reason_words(reason),
                outcome.evidence_session
            );
            return;
        }
        RecordEnd::Crashed => {}
    }
    println!(
        "Replayed once on {}: {} crash(es) recorded (evidence: {})",
        outcome.device,
        outcome.crashes.len(),
        outcome.evidence_session
    );
    for crash in &outcome.crashes {
        println!(
            "  {} {} {} after step {} (path {:?})",
            crash.crash_id,
            crash.kind.as_str(),
            crash.label,
            crash.step_index,
            crash.repro_path
        );
    }
    println!("Next: whittle minimize {}", outcome.session_id);
}

fn print_json(
    summary: &ImportSummary,
    recorded: Option<&Result<RecordOutcome, RecordFailure>>,
    exit: Exit,
) {
    let mut value = serde_json::to_value(summary).unwrap_or_default();
    if let Some(map) = value.as_object_mut() {
        let (record, error) = match recorded {
            None => (serde_json::Value::Null, serde_json::Value::Null),
            Some(Ok(outcome)) => (
                serde_json::to_value(outcome).unwrap_or_default(),
                serde_json::Value::Null,
            ),
            Some(Err(e)) => (serde_json::Value::Null, json!(e.to_string())),
        };
        map.insert("recorded".into(), record);
        map.insert("record_error".into(), error);
        map.insert("exit".into(), exit.json());
    }
    println!("{value}");
}

fn reason_words(reason: MissReason) -> &'static str {
    match reason {
        MissReason::ElementNotFound => "element not found",
        MissReason::ActionFailed => "an action failed",
        MissReason::NoCrash => "no crash",
        MissReason::DifferentCrash => "a different crash",
    }
}
