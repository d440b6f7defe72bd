pub(crate) mod all;
mod filmstrip;
mod hint;
mod list;
mod pool;
mod rates;
mod skip_words;

use std::io::{BufRead, IsTerminal, Write};
use std::sync::atomic::AtomicU32;

use tokio_util::sync::CancellationToken;
use whittle_service::api::Config;
use whittle_service::api::{
    self, approve, parse_count, Approvable, ApproveError, AskedRun, CountField, InvalidCount,
    Replace, ResumeOptions, RunJob, RunSpec,
};
use whittle_service::api::{RunEvent, RunOutcome};

use crate::cli::MinimizeCommand;
use crate::exit::Exit;
use crate::locale;
use crate::progress::Progress;
use crate::signals::CancelOnSignal;

pub async fn run(config: &Config, args: MinimizeCommand) -> Exit {
    // Refused before any side effect: each count is parsed once, here.
    let job = match job(&args) {
        Ok(job) => job,
        Err(e) => return super::refusal::count(&e, args.json),
    };
    if args.all {
        if let RunJob::New(template) = job {
            return all::run(config, &args, template).await;
        }
    }
    let job = match (&args.reprove, job) {
        (Some(evidence), RunJob::New(asked)) => {
            match api::reproof_spec(&config.workspace, evidence, asked) {
                Ok(spec) => RunJob::New(spec),
                Err(e) => return super::refusal::reproof(&e, args.json),
            }
        }
        (_, job) => job,
    };
    let cancel = CancellationToken::new();
    // SIGINT, SIGTERM and SIGHUP stop the run after the current step; it still
    // finalizes its evidence and prints its report.
    let signals = CancelOnSignal::token(cancel.clone());
    let progress = Progress::new(args.json);
    let budget = AtomicU32::new(0);
    let on_event = |event: RunEvent| progress.on_event(&event, &budget);
    let result = api::run(config, job, on_event, cancel.clone()).await;
    drop(signals);
    match result {
        Ok(outcome) => report(&outcome, &args, cancel.is_cancelled()),
        Err(e) => super::refusal::failure(&e, config, args.json),
    }
}

/// The run the arguments ask for: a new one, or `--resume`.
fn job(args: &MinimizeCommand) -> Result<RunJob, InvalidCount> {
    let count = |field, given: &Option<String>| {
        given
            .as_deref()
            .map(|text| parse_count(field, text))
            .transpose()
    };
    let max_replays = count(CountField::MaxReplays, &args.max_replays)?;
    let devices = count(CountField::Devices, &args.devices)?;
    let baseline_tries = count(CountField::BaselineTries, &args.baseline_tries)?;
    Ok(match &args.resume {
        Some(evidence) => RunJob::Resume(ResumeOptions {
            evidence_session: evidence.clone(),
            device: args.device.clone(),
            devices,
            strategy: args.strategy,
            max_replays,
            wait_device: args.wait_device,
        }),
        None => RunJob::New(RunSpec::asked(
            args.session.clone().unwrap_or_default(),
            AskedRun {
                crash: args.crash.clone(),
                max_replays,
                device: args.device.clone(),
                package: args.package.clone(),
                strategy: args.strategy,
                devices,
                baseline_tries,
                wait_device: args.wait_device,
            },
        )),
    })
}

fn report(outcome: &RunOutcome, args: &MinimizeCommand, cancelled: bool) -> Exit {
    let mut sidecar = None;
    let approvable = Approvable::of_outcome(outcome).filter(|_| !cancelled);
    if let Some(approvable) = approvable {
        if args.approve || (!args.json && ask_to_write_back()) {
            match approve(&approvable, Replace::confirmed(args.replace)) {
                Ok((path, _)) => sidecar = Some(path),
                // Another run's approval made since this run started stays unless
                // --replace: both are shown, as `whittle approve` shows them.
                Err(ApproveError::Newer(newer)) => {
                    if args.json {
                        print_outcome_with(outcome, None, Exit::Refused, |map| {
                            super::approve::add_newer_fields(map, &newer);
                        });
                    } else {
                        print_outcome(outcome, false, None, Exit::Refused);
                        eprintln!(
                            "{}{}",
                            locale::words().error,
                            ApproveError::Newer(newer.clone())
                        );
                        super::approve::print_newer(&newer);
                    }
                    return Exit::Refused;
                }
                Err(e) => {
                    let words = locale::words();
                    eprintln!("{}{}{e}", words.error, words.not_written_back);
                    print_outcome(outcome, args.json, None, Exit::Infrastructure);
                    return Exit::Infrastructure;
                }
            }
        }
    }
    let exit = Exit::of_end(&outcome.summary.end);
    print_outcome(outcome, args.json, sidecar.as_deref(), exit);
    exit
}

fn print_outcome(outcome: &RunOutcome, json: bool, sidecar: Option<&std::path::Path>, exit: Exit) {
    if json {
        print_outcome_with(outcome, sidecar, exit, |_| {});
    } else {
        // Human text follows LC_ALL / LC_MESSAGES / LANG; the JSON above never does.
        print!(
            "{}",
            whittle_service::api::localized_report(outcome, locale::current())
        );
        pool::print_line(outcome);
        filmstrip::print_line(outcome);
        if let Some(path) = sidecar {
            println!("{}{}", locale::words().written, path.display());
        }
        hint::print_line(locale::words(), outcome);
    }
}

/// The `--json` object of `outcome`, with what `more` adds to it.
fn print_outcome_with(
    outcome: &RunOutcome,
    sidecar: Option<&std::path::Path>,
    exit: Exit,
    more: impl FnOnce(&mut serde_json::Map<String, serde_json::Value>),
) {
    let mut value = serde_json::to_value(&outcome.summary).unwrap_or_default();
    if let Some(map) = value.as_object_mut() {
        map.insert(
            "sidecar".into(),
            sidecar.map(|p| p.to_string_lossy().to_string()).into(),
        );
        pool::add_json_fields(outcome, map);
        rates::add_json_fields(outcome, map);
        if !outcome.resumed.is_empty() {
            map.insert(
                "resumed".into(),
                serde_json::to_value(&outcome.resumed).unwrap_or_default(),
            );
        }
        filmstrip::add_json_fields(outcome, map);
        hint::add_json_fields(outcome, map);
        more(map);
        map.insert("exit".into(), exit.json());
    }
    println!("{value}");
}

/// Asks only on an interactive terminal; anything but y/yes is no.
fn ask_to_write_back() -> bool {
    if !std::io::stdin().is_terminal() {
        return false;
    }
    eprint!("{}", locale::words().ask_write_back);
    let _ = std::io::stderr().flush();
    let mut line = String::new();
    if std::io::stdin().lock().read_line(&mut line).is_err() {
        return false;
    }
    matches!(line.trim().to_ascii_lowercase().as_str(), "y" | "yes")
}
