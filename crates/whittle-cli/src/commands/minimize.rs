mod filmstrip;
mod pool;
mod rates;
pub mod refusal;

use refusal::BeforeRun;
use std::io::{BufRead, IsTerminal, Write};
use std::sync::atomic::AtomicU32;

use tokio_util::sync::CancellationToken;
use whittle_service::config::Config;
use whittle_service::run::{
    approve, minimize, resume, MinimizeOptions, ResumeOptions, RunError, RunEvent, RunOutcome,
};

use crate::cli::MinimizeArgs;
use crate::exit::Exit;
use crate::locale;
use crate::progress::Progress;

pub async fn run(config: &Config, args: MinimizeArgs) -> Exit {
    // Refused like a bad budget, before any side effect: negative or huge values map
    // to 0, which `pool_size` refuses.
    let devices = args.devices.map(|d| u32::try_from(d).unwrap_or(0));
    // Likewise: out-of-range tries map to 0, which `search_options` refuses.
    let baseline_tries = u32::try_from(args.baseline_tries).unwrap_or(0);
    let opts = MinimizeOptions {
        session: args.session.clone().unwrap_or_default(),
        crash: args.crash.clone(),
        max_replays: args.budget(),
        device: args.device.clone(),
        package: args.package.clone(),
        strategy: args.strategy.unwrap_or_default(),
        devices: devices.unwrap_or(1),
        baseline_tries,
    };
    let checked = opts
        .budget()
        .and_then(|_| opts.pool_size())
        .and_then(|_| opts.search_options());
    if let Err(e) = checked {
        return refuse(&e, args.json);
    }
    let hub = match whittle_service::client::Hub::connect(config).await {
        Ok(hub) => hub,
        Err(e) => {
            let exit = super::connect_exit(&e);
            if args.json {
                let problems = e.problems.iter().map(|p| p.fix(&config.path)).collect();
                refusal::print_json(BeforeRun::Servers { problems }, &e.to_string(), exit);
            } else {
                super::report_connect_error(config, &e);
            }
            return exit;
        }
    };
    let cancel = CancellationToken::new();
    let on_ctrl_c = cancel.clone();
    let ctrl_c = tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            eprintln!("\n{}", locale::words().cancelling);
            on_ctrl_c.cancel();
        }
    });
    let progress = Progress::new(args.json);
    let budget = AtomicU32::new(0);
    let on_event = |event: RunEvent| progress.on_event(&event, &budget);
    let result = match &args.resume {
        Some(evidence) => {
            let again = ResumeOptions {
                evidence_session: evidence.clone(),
                device: args.device.clone(),
                devices,
                strategy: args.strategy,
                max_replays: args.max_replays,
            };
            resume(&hub, config, again, on_event, cancel.clone()).await
        }
        None => minimize(&hub, config, opts, on_event, cancel.clone()).await,
    };
    ctrl_c.abort();
    let exit = match result {
        Ok(outcome) => report(&outcome, &args, cancel.is_cancelled()),
        Err(e) => refuse(&e, args.json),
    };
    hub.shutdown().await;
    exit
}

fn report(outcome: &RunOutcome, args: &MinimizeArgs, cancelled: bool) -> Exit {
    let mut sidecar = None;
    if let Some(pending) = outcome.pending.as_ref().filter(|_| !cancelled) {
        if args.approve || (!args.json && ask_to_write_back()) {
            match approve(pending) {
                Ok(path) => sidecar = Some(path),
                Err(e) => {
                    let words = locale::words();
                    eprintln!("{}{}{e}", words.error, words.not_written_back);
                    print_outcome(outcome, args.json, None);
                    return Exit::Infrastructure;
                }
            }
        }
    }
    print_outcome(outcome, args.json, sidecar.as_deref());
    Exit::of_end(&outcome.summary.end)
}

fn print_outcome(outcome: &RunOutcome, json: bool, sidecar: Option<&std::path::Path>) {
    if json {
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
        }
        println!("{value}");
    } else {
        // Human text follows LC_ALL / LC_MESSAGES / LANG; the JSON above never does.
        print!(
            "{}",
            whittle_service::run::localized_report(outcome, locale::current())
        );
        pool::print_line(outcome);
        filmstrip::print_line(outcome);
        if let Some(path) = sidecar {
            println!("{}{}", locale::words().written, path.display());
        }
    }
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

fn refuse(error: &RunError, json: bool) -> Exit {
    let exit = Exit::of_error(error);
    if json {
        refusal::print_json(BeforeRun::Run, &error.to_string(), exit);
    } else {
        eprintln!("{}{error}", locale::words().error);
    }
    exit
}
