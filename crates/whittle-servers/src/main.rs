//! `whittle-servers <subcommand>`: one MCP server over stdio per subcommand.
//! Logs go to stderr only; stdout carries the MCP protocol.
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use whittle_servers::report::ReportError;
use whittle_servers::report_analyzer::ReportAnalyzerServer;

#[derive(Parser)]
#[command(
    name = "whittle-servers",
    version,
    about = "The MCP servers Whittle ships"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
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

#[tokio::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .init();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Sim(args) => whittle_servers::sim::serve_stdio(args)
            .await
            .map_err(|e| e.to_string()),
        Command::Report(args) => {
            serve_report_analyzer(ReportAnalyzerServer::report(&args.workspace)).await
        }
        Command::Analyzer => ReportAnalyzerServer::analyzer().serve_stdio().await,
        Command::All(args) => {
            serve_report_analyzer(ReportAnalyzerServer::all(&args.workspace)).await
        }
        Command::Adb(args) => whittle_servers::adb::serve_stdio(args)
            .await
            .map_err(|e| e.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("whittle-servers: {message}");
            ExitCode::from(2)
        }
    }
}

async fn serve_report_analyzer(
    server: Result<ReportAnalyzerServer, ReportError>,
) -> Result<(), String> {
    server.map_err(|e| e.to_string())?.serve_stdio().await
}
