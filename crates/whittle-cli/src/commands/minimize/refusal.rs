//! `--json` prints one object whatever the outcome (docs/design.md §3): a run refused
//! or failed before its search — a bad budget, a configuration that does not load (a
//! missing `${VAR}`), servers that do not connect (one that will not start, a wrong
//! token) — still prints `{status, cause, error, exit}` with a typed cause, as a run
//! that ended prints its summary. Exit codes are unchanged. `whittle mcp`'s `minimize`
//! answers a refusal with the same fields (`mcp/failure.rs`).

use schemars::JsonSchema;
use serde::Serialize;

use crate::exit::Exit;

/// Why no run took place, as `--json` types it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum BeforeRun {
    /// `--max-replays` below 1.
    BadBudget { max_replays: i64 },
    /// `whittle.json` did not load (a missing `${VAR}`, a bad field).
    Config,
    /// The MCP servers did not connect (one did not start, or refused our token);
    /// `problems`: each role's fix, as the doctor names it.
    Servers { problems: Vec<String> },
    /// The run refused before its search (an unknown crash, no device, …).
    Run,
}

/// Prints the `--json` object of a run that never searched.
pub fn print_json(cause: BeforeRun, error: &str, exit: Exit) {
    let status = status(exit);
    println!(
        "{}",
        serde_json::json!({ "status": status, "cause": cause, "error": error, "exit": exit as u8 })
    );
}

/// Infrastructure that failed is a failure; everything else refused the run.
pub fn status(exit: Exit) -> &'static str {
    if exit == Exit::Infrastructure {
        "failed"
    } else {
        "refused"
    }
}
