//! `whittle-servers <subcommand>`: one MCP server per subcommand, over stdio (stdout
//! carries the protocol) or, with `--listen HOST:PORT`, over streamable HTTP at `/mcp`
//! (stdout then carries only the `listening on URL` line). Logs go to stderr only.
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use rmcp::ServerHandler;
use std::sync::Arc;
use whittle_servers::adb::AdbServeError;

use whittle_servers::device::{AllowedFolders, DeviceBackend, DeviceServer, DEFAULT_LEASE_IDLE};
use whittle_servers::listen::{HoldsNothing, Listen, ListenArgs, ListenError, SessionHolds};
use whittle_servers::report::ReportError;
use whittle_servers::report_analyzer::{ReportAnalyzerServeError, ReportAnalyzerServer};
use whittle_servers::sim::SimError;

#[derive(Parser)]
#[command(
    name = "whittle-servers",
    version,
    about = "The MCP servers Whittle ships"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    listen: ListenArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Simulated Android device (mobile + ui + log roles).
    Sim(whittle_servers::sim::SimArgs),
    /// Session store (report role) over a workspace folder.
    Report(WorkspaceArgs),
    /// Crash signatures and grouping (analyzer role).
    Analyzer,
    /// The report and analyzer roles in one server.
    All(WorkspaceArgs),
    /// A real Android device over adb (mobile + ui + log roles).
    Adb(whittle_servers::adb::AdbArgs),
}

#[derive(clap::Args)]
struct WorkspaceArgs {
    /// Workspace folder; sessions live in its `sessions/` subfolder (created if missing).
    #[arg(long)]
    workspace: std::path::PathBuf,
}

fn main() -> ExitCode {
    use tracing_subscriber::filter::{LevelFilter, Targets};
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;

    // Whatever `RUST_LOG` says, every target but Whittle's own stops at warn: below that
    // rmcp logs each call whole, a replay's typed text included, and a client reads this
    // stderr into its own log (docs/SECURITY.md §3). A filter of its own, beside
    // `RUST_LOG`'s, so no directive of the user's can lift it.
    let ceiling = whittle_core::log_ceiling::LOG_CEILING
        .parse::<Targets>()
        .unwrap_or_else(|_| Targets::new().with_default(LevelFilter::WARN));
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                // rmcp notes every session it opens and closes at info: under a flood of
                // sessions that alone would flood stderr (docs/SECURITY.md §10a).
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,rmcp=warn")),
        )
        .finish()
        .with(ceiling)
        .init();
    let cli = Cli::parse();
    // Every refusal (a network address without a token, unreadable TLS files) comes
    // before the server is built and before any port opens.
    let listen = match cli.listen.prepare() {
        Ok(listen) => listen,
        Err(e) => return fail(e),
    };
    // A lab host (`--listen`) runs on one thread. Its calls are small and spend their
    // time waiting on the device; on a multi-thread runtime the tasks of one HTTP call
    // (the connection, the session, the answer stream) wake one another across threads,
    // which made a replay over HTTP cost up to 1.4× one over stdio where one thread each
    // side brings it to 1.1× (docs/performance.md, "Device labs: HTTP against stdio").
    // Stdio keeps tokio's default.
    let runtime = if listen.is_some() {
        tokio::runtime::Builder::new_current_thread()
    } else {
        tokio::runtime::Builder::new_multi_thread()
    }
    .enable_all()
    .build();
    let runtime = match runtime {
        Ok(runtime) => runtime,
        Err(e) => return fail(format!("cannot start its runtime: {e}")),
    };
    match runtime.block_on(serve(cli.command, listen)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => fail(failure),
    }
}

/// Serves `command` over stdio, or over HTTP when `listen` says where.
async fn serve(command: Command, listen: Option<Listen>) -> Result<(), ServeFailure> {
    match (command, listen) {
        (Command::Sim(args), None) => whittle_servers::sim::serve_stdio(args)
            .await
            .map_err(ServeFailure::Sim),
        (Command::Sim(args), Some(listen)) => match whittle_servers::sim::build(&args) {
            Ok(server) => {
                let seed = server.seed();
                tracing::info!(
                    model = %args.model.display(),
                    devices = args.devices,
                    seed,
                    "simulator ready; `--seed {seed}` repeats its flaky-crash draws"
                );
                serve_device_http(server, listen).await
            }
            Err(e) => Err(ServeFailure::Sim(e)),
        },
        (Command::Report(args), listen) => {
            report_analyzer(ReportAnalyzerServer::report(&args.workspace), listen).await
        }
        (Command::Analyzer, listen) => {
            report_analyzer(Ok(ReportAnalyzerServer::analyzer()), listen).await
        }
        (Command::All(args), listen) => {
            report_analyzer(ReportAnalyzerServer::all(&args.workspace), listen).await
        }
        (Command::Adb(args), None) => whittle_servers::adb::serve_stdio(args)
            .await
            .map_err(ServeFailure::Adb),
        (Command::Adb(args), Some(listen)) => match whittle_servers::adb::build(&args) {
            Ok(server) => serve_device_http(server, listen).await,
            Err(e) => Err(ServeFailure::Adb(e)),
        },
    }
}

/// Why a server did not start or stopped with an error; each part words its own message.
#[derive(Debug, thiserror::Error)]
enum ServeFailure {
    #[error(transparent)]
    Listen(#[from] ListenError),
    #[error(transparent)]
    Sim(SimError),
    #[error(transparent)]
    Adb(AdbServeError),
    #[error(transparent)]
    Report(#[from] ReportError),
    #[error(transparent)]
    ReportAnalyzerStdio(#[from] ReportAnalyzerServeError),
}

fn fail(failure: impl std::fmt::Display) -> ExitCode {
    eprintln!("whittle-servers: {failure}");
    ExitCode::from(2)
}

async fn serve_http<S: ServerHandler + Clone + Send + Sync + 'static>(
    server: S,
    listen: Listen,
) -> Result<(), ServeFailure> {
    whittle_servers::listen::serve(move || server.clone(), Arc::new(HoldsNothing), listen).await?;
    Ok(())
}

/// A device server reached by several clients lends each device to one MCP session at
/// a time and writes files only inside `--files-under`: every session gets its own
/// server value holding its leases and captures.
async fn serve_device_http<B: DeviceBackend>(
    server: DeviceServer<B>,
    listen: Listen,
) -> Result<(), ServeFailure> {
    let lease_idle = listen.lease_idle.unwrap_or(DEFAULT_LEASE_IDLE);
    let files = AllowedFolders::under(listen.files_under.clone());
    tracing::info!(
        folders = ?listen.files_under,
        lease_idle_secs = lease_idle.as_secs(),
        "files are written only inside these folders; a device idle this long is free"
    );
    let server = server.leasing(lease_idle, files);
    let holds: Arc<dyn SessionHolds> = match server.holds() {
        Some(holds) => Arc::new(holds),
        None => Arc::new(HoldsNothing),
    };
    whittle_servers::listen::serve(move || server.for_session(), holds, listen).await?;
    Ok(())
}

async fn report_analyzer(
    server: Result<ReportAnalyzerServer, ReportError>,
    listen: Option<Listen>,
) -> Result<(), ServeFailure> {
    let server = server?;
    match listen {
        None => Ok(server.serve_stdio().await?),
        Some(listen) => serve_http(server, listen).await,
    }
}
