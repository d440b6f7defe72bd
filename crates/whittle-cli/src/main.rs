//! `whittle`: the minimize engine, headless (docs/design.md §8). Report text goes to stdout
//! (or one JSON object with `--json`), progress and diagnostics to stderr.

mod cli;
mod commands;
mod exit;
mod json_answer;
mod locale;
mod mcp;
mod progress;
mod signals;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};
use cli::{Cli, Command};
use exit::Exit;
use whittle_service::api::{find_config, Config, ConfigSearch, LOG_CEILING};

fn main() -> ExitCode {
    let cli = match parse_args() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                    ExitCode::SUCCESS
                }
                // `--json` asked for one object whatever the outcome: this refusal too.
                _ => commands::refusal::argument(&e, json_asked()).code(),
            };
        }
    };
    init_tracing();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return Exit::Infrastructure.code();
        }
    };
    let exit = runtime.block_on(run(cli));
    // Whatever is still blocked on the blocking pool (a read of `whittle mcp`'s stdin a
    // signal interrupted) must not hold the exit; what the command did is done.
    runtime.shutdown_timeout(std::time::Duration::from_secs(1));
    exit.code()
}

async fn run(cli: Cli) -> Exit {
    // The benchmark needs no configuration, server or device.
    if let Command::Bench(args) = &cli.command {
        return commands::bench::run(args);
    }
    let path = find_config(ConfigSearch {
        explicit: cli.config.as_deref(),
        first_start: false,
    })
    .path_or_expected();
    let config = match Config::load(&path) {
        Ok(config) => config,
        // `--json` prints one object whatever the outcome, this refusal too.
        Err(e) => return commands::refusal::config(&e, json_of(&cli.command)),
    };
    match cli.command {
        Command::Minimize(args) => commands::minimize::run(&config, args).await,
        Command::Sessions { json } => commands::sessions::run(&config, json),
        Command::Analyze { session, json } => commands::analyze::run(&config, &session, json),
        Command::Doctor { package, json } => {
            commands::doctor::run(&config, package.as_deref(), json).await
        }
        Command::Export {
            evidence_session,
            out,
            markdown,
            name,
            json,
        } => match (markdown, out) {
            (true, _) => commands::export::markdown(&config, &evidence_session, json),
            (false, Some(out)) => {
                commands::export::run(&config, &evidence_session, &out, name.as_deref(), json)
            }
            // clap requires --out without --markdown.
            (false, None) => Exit::Refused,
        },
        Command::Import(args) => commands::import::run(&config, args).await,
        Command::Verify {
            bundle,
            runs,
            device,
            json,
        } => commands::verify::run(&config, &bundle, runs, device.as_deref(), json).await,
        Command::Bench(args) => commands::bench::run(&args),
        Command::Mcp => mcp::serve(config).await,
        Command::Approve {
            evidence_session,
            crash,
            replace,
            json,
        } => commands::approve::run(&config, &evidence_session, crash, replace, json),
        Command::Runs { session, json } => commands::runs::run(&config, &session, json),
    }
}

/// Whether the command asked for `--json` (`bench --json FILE` writes a file instead).
fn json_of(command: &Command) -> bool {
    match command {
        Command::Minimize(args) => args.json,
        Command::Import(args) => args.json,
        Command::Sessions { json }
        | Command::Analyze { json, .. }
        | Command::Doctor { json, .. }
        | Command::Export { json, .. }
        | Command::Verify { json, .. }
        | Command::Approve { json, .. }
        | Command::Runs { json, .. } => *json,
        Command::Bench(_) | Command::Mcp => false,
    }
}

/// Whether the command line that clap refused asked for `--json`: the flag among the
/// arguments before a `--`, on any command but `bench` (whose `--json` names a file).
fn json_asked() -> bool {
    let args: Vec<String> = std::env::args().skip(1).take_while(|a| a != "--").collect();
    let bench = args
        .iter()
        .find(|a| !a.starts_with('-'))
        .is_some_and(|a| a == "bench");
    !bench && args.iter().any(|a| a == "--json")
}

/// The arguments, with clap's help and errors uncoloured when `NO_COLOR` asks (clap
/// itself colours only a terminal).
fn parse_args() -> Result<Cli, clap::Error> {
    let colour = if whittle_text::no_colour_asked() {
        clap::ColorChoice::Never
    } else {
        clap::ColorChoice::Auto
    };
    let matches = command().color(colour).try_get_matches()?;
    Cli::from_arg_matches(&matches)
}

/// The command line, every help (`whittle --help` and each subcommand's) ending with the
/// exit-code table generated from `exit.rs`, in the language of `LANG`.
fn command() -> clap::Command {
    let table = Exit::table(&locale::words().exit_codes);
    Cli::command()
        .after_help(table.clone())
        .mut_subcommands(move |sub| sub.after_help(table.clone()))
}

/// Logs go to stderr, quiet by default (`RUST_LOG` raises them); never input values:
/// whatever `RUST_LOG` says, every target but Whittle's own stops at warn
/// ([`LOG_CEILING`], a filter of its own beside `RUST_LOG`'s: rmcp writes whole
/// messages below that). Coloured only on a terminal and without `NO_COLOR`.
fn init_tracing() {
    use tracing_subscriber::filter::{LevelFilter, Targets};
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;

    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    // The constant parses (`tests/cli/mcp_untrusted_input_cli.rs` sees Whittle's own
    // debug lines through it); were it ever not to, every target would stop at warn,
    // Whittle's own included: quieter, never louder.
    let ceiling = LOG_CEILING
        .parse::<Targets>()
        .unwrap_or_else(|_| Targets::new().with_default(LevelFilter::WARN));
    let _ = tracing_subscriber::registry()
        .with(ceiling)
        .with(filter)
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_ansi(whittle_text::stderr_colour_allowed()),
        )
        .try_init();
}
