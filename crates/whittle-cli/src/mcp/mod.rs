//! `whittle mcp`: Whittle's use cases served as MCP tools over stdio, so a coding agent
//! calls Whittle (list, import and analyze sessions, minimize a crash or every crash
//! group, resume a run, read the evidence, its pictures and files as `whittle://`
//! resources, export and verify it, check the setup) instead of driving replays step by
//! step; approving a result stays the user's, and every answer ending in one says how.
//! A third front end beside the CLI and the app: it calls the same application layer,
//! through `service_calls` alone.
//!
//! stdout carries the protocol only; logs go to stderr as for every command.

pub(crate) mod answers;
mod args;
pub(crate) mod evidence_answers;
pub(crate) mod failure;
mod lookup;
mod progress;
mod resources;
mod run_answers;
mod run_refusal;
mod schema;
mod server;
pub(crate) mod service_calls;
pub(crate) mod setup_answers;

pub(crate) use failure::ToolFailure;
use rmcp::ServiceExt;

use crate::exit::Exit;
use crate::signals::StopSignals;
use server::WhittleMcp;
use service_calls::Config;

/// Serves until the client closes stdin (or SIGINT, SIGTERM or SIGHUP), then waits until
/// every run it started has finished its evidence. Closing the connection cancels the
/// runs: rmcp gives a running call 5 s to answer after stdin closed, then cancels its
/// token; a signal cancels them at once and exits as cancelled.
pub async fn serve(config: Config) -> Exit {
    // Installed before serving, so a signal that comes early still finishes the runs.
    let signals = StopSignals::install();
    let server = WhittleMcp::new(config);
    let runs = server.runs.clone();
    let running = match server.serve(rmcp::transport::stdio()).await {
        Ok(running) => running,
        Err(e) => {
            eprintln!("error: MCP handshake failed: {e}");
            return Exit::Infrastructure;
        }
    };
    let exit = tokio::select! {
        stopped = running.waiting() => match stopped {
            Ok(_) => Exit::Proven,
            Err(e) => {
                eprintln!("error: MCP server stopped: {e}");
                Exit::Infrastructure
            }
        },
        // Dropping the service ends its loop, which cancels every request's token.
        () = signals.recv() => Exit::Cancelled,
    };
    let _all_runs_ended = runs.write().await;
    exit
}
