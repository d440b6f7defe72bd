//! The setup an agent can do without the terminal: `import` a flow (and record it),
//! `verify` a bundle, `doctor` and `devices`, each through the application API the
//! terminal calls (`api::import`, `api::import_and_record`, `api::verify`,
//! `api::diagnose`, `api::list_devices`). A refusal names what to pass or call, and never
//! the workspace's folders (a server that did not start names the config file to fix,
//! as every front end does).

use std::path::Path;

use tokio_util::sync::CancellationToken;
use whittle_core::import::FlowFormat;
use whittle_service::api::VerifyError;
use whittle_service::api::{
    self, diagnose, DevicesError, DoctorOptions, ImportRecordRefusal, ImportRefusal, ImportRequest,
    RecordFailure, RunRefusal, VerifyFailure,
};
use whittle_service::api::{ImportFailure, RecordError};

use whittle_service::api::Config;

use crate::commands::import::record_exit;
use crate::exit::Exit;
use crate::mcp::args::{FlowKind, ImportArgs, VerifyArgs, MAX_VERIFY_RUNS};
use crate::mcp::failure::ToolFailure;
use crate::mcp::run_refusal::{recovery, servers_error};
use crate::mcp::setup_answers::{
    DevicesAnswer, DoctorAnswer, ImportAnswer, RecordAnswer, RecordFailedAnswer, VerifyAnswer,
};

/// `whittle import maestro|robo FILE [--record]`.
pub async fn import(
    config: &Config,
    args: ImportArgs,
    cancel: CancellationToken,
) -> Result<ImportAnswer, ToolFailure> {
    if args.variables.len() > 100 || args.private_values.len() > 100 {
        return Err(ToolFailure::new(
            Exit::Refused,
            "at most 100 `variables` and 100 `private_values`",
        ));
    }
    let file_name = Path::new(&args.file)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let request = ImportRequest {
        workspace: config.workspace.display().to_string(),
        format: match args.format {
            FlowKind::Maestro => FlowFormat::Maestro,
            FlowKind::Robo => FlowFormat::Robo,
        },
        file: args.file.clone(),
        name: args.name,
        package: args.package,
        variables: Some(args.variables),
        private_values: Some(args.private_values),
    };
    if !args.record {
        return api::import(&request)
            .map(ImportAnswer::of)
            .map_err(|e| import_failure(&e, &file_name));
    }
    match api::import_and_record(config, &request, args.device.as_deref(), &cancel).await {
        Ok(done) => {
            let mut answer = ImportAnswer::of(done.summary);
            match done.recorded {
                Ok(outcome) => answer.recorded = Some(RecordAnswer::of(outcome)),
                Err(e) => {
                    let failure = record_failure(config, &e);
                    answer.record_failed = Some(RecordFailedAnswer {
                        error: failure.error,
                        exit: failure.exit,
                    });
                }
            }
            Ok(answer)
        }
        Err(ImportRecordRefusal::Import(e)) => Err(import_failure(&e, &file_name)),
        Err(ImportRecordRefusal::Record(e)) => Err(record_failure(config, &e)),
    }
}

/// An import refused, worded without the workspace's folders or the file's.
fn import_failure(e: &ImportRefusal, file_name: &str) -> ToolFailure {
    let (exit, error) = match e {
        ImportRefusal::NotAbsolute(given) => (
            Exit::Refused,
            format!("`file` must be the flow file's absolute path (got {given:?})"),
        ),
        ImportRefusal::VariableName(_) => (Exit::Refused, format!("{e}: fix `variables`")),
        ImportRefusal::Import(failure) => match failure {
            ImportFailure::Read { source, .. } => (
                Exit::Refused,
                format!("cannot read the flow file {file_name:?}: {source}"),
            ),
            ImportFailure::Parse(_) => (Exit::Refused, e.to_string()),
            ImportFailure::BadName(_) => (Exit::Refused, format!("{e}: pass another `name`")),
            ImportFailure::NoPackage { .. } => (
                Exit::Refused,
                "the flow does not name the app (Robo scripts never do): pass its package as \
                 `package`"
                    .to_owned(),
            ),
            ImportFailure::ProcessNotPackage { process, package } => (
                Exit::Refused,
                format!("{process} is a process of {package}, not an app: pass {package:?} as `package`"),
            ),
            ImportFailure::PackageConflict { in_file, given, .. } => (
                Exit::Refused,
                format!("the flow is for {in_file}, but `package` says {given}"),
            ),
            ImportFailure::NoWorkspace(_) => (
                Exit::Refused,
                "the configured workspace has no sessions folder: call `doctor`, and check \
                 the config's `workspace`"
                    .to_owned(),
            ),
            ImportFailure::Write { source, .. } => (
                Exit::Infrastructure,
                format!("cannot write the session into the workspace: {source}"),
            ),
        },
    };
    ToolFailure::new(exit, error)
}

/// A recording refused or failed: typed as a run's refusal where it is one.
fn record_failure(config: &Config, e: &RecordFailure) -> ToolFailure {
    let exit = record_exit(e);
    match e {
        RecordFailure::Servers(hub) => {
            ToolFailure::refused(RunRefusal::of_servers(hub), servers_error(config, e, hub))
        }
        RecordFailure::Record(RecordError::Run(run)) => {
            let refusal = RunRefusal::of(run);
            let error = match recovery(&refusal) {
                Some(hint) => format!("{e}: {hint}"),
                None => e.to_string(),
            };
            ToolFailure::refused(refusal, error)
        }
        RecordFailure::Record(RecordError::Write { source, .. }) => {
            ToolFailure::new(exit, format!("cannot write the recording: {source}"))
        }
        RecordFailure::Record(RecordError::NotInstalled { .. }) => ToolFailure::new(
            exit,
            format!("{e}: install it, or pass another `device` (`devices` lists them)"),
        ),
        _ => ToolFailure::new(exit, e),
    }
}

/// `whittle verify BUNDLE --runs N [--device D]`, on a bundle an agent's export may
/// have written (under the allowed export folders only).
pub async fn verify(
    config: &Config,
    args: VerifyArgs,
    cancel: CancellationToken,
) -> Result<VerifyAnswer, ToolFailure> {
    let runs = args.runs.unwrap_or(3);
    if !(1..=MAX_VERIFY_RUNS).contains(&runs) {
        return Err(ToolFailure::new(
            Exit::Refused,
            format!("`runs` must be 1 to {MAX_VERIFY_RUNS} (got {runs})"),
        ));
    }
    let bundle = api::check_export_folder(config, Path::new(&args.bundle))
        .map_err(ToolFailure::folder_refused)?;
    let verified = api::verify(config, &bundle, runs, args.device.as_deref(), &cancel).await;
    verified.map(VerifyAnswer::of).map_err(|e| match &e {
        VerifyFailure::Servers(hub) => {
            ToolFailure::refused(RunRefusal::of_servers(hub), servers_error(config, &e, hub))
        }
        VerifyFailure::Verify(VerifyError::Run(run)) => {
            let refusal = RunRefusal::of(run);
            let error = match recovery(&refusal) {
                Some(hint) => format!("{e}: {hint}"),
                None => e.to_string(),
            };
            ToolFailure::refused(refusal, error)
        }
        VerifyFailure::Verify(VerifyError::Bundle(bad)) => ToolFailure::new(
            Exit::Refused,
            format!(
                "`bundle` is not a bundle `export` wrote ({}): call `export` and pass its \
                 `bundle_dir`",
                bad.to_string().replace(&args.bundle, "the folder")
            ),
        ),
        VerifyFailure::Verify(VerifyError::NoRuns | VerifyError::Refused(_)) => {
            ToolFailure::new(Exit::Refused, &e)
        }
        VerifyFailure::Verify(VerifyError::Replay { .. }) => {
            ToolFailure::new(Exit::Infrastructure, &e)
        }
        VerifyFailure::Verify(VerifyError::Cancelled { .. }) => {
            ToolFailure::new(Exit::Cancelled, &e)
        }
    })
}

/// `whittle doctor --json`: every check, failed ones included, is an answer.
pub async fn doctor(config: &Config, package: Option<String>) -> DoctorAnswer {
    let report = diagnose(config, &DoctorOptions { package }).await;
    let exit = Exit::of_doctor(&report);
    DoctorAnswer::of(report, exit as u8)
}

/// The devices the configured mobile server lists.
pub async fn devices(config: &Config) -> Result<DevicesAnswer, ToolFailure> {
    match api::list_devices(config).await {
        Ok(devices) => Ok(DevicesAnswer { devices }),
        Err(e) => Err(match &e {
            DevicesError::Servers(hub) => {
                ToolFailure::refused(RunRefusal::of_servers(hub), servers_error(config, &e, hub))
            }
            DevicesError::List(_) => ToolFailure::new(Exit::Infrastructure, &e),
        }),
    }
}
