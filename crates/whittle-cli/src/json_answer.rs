//! `--json` on every command: exactly one JSON object on stdout whatever the outcome,
//! each with its `exit` (the one table of `exit.rs`). An answer has the shape
//! `whittle mcp` gives an agent for the same call (`mcp/answers.rs`,
//! `mcp/setup_answers.rs`), and a refusal or failure is the same `ToolFailure`
//! (`{status, cause?, error, exit}`) — so a CI script and an agent read one record
//! (docs/cli.md, "JSON output").

use serde::Serialize;

use crate::exit::Exit;
use crate::mcp::ToolFailure;

/// Prints `answer` with `exit` added, and returns `exit`.
pub fn answer<T: Serialize>(answer: &T, exit: Exit) -> Exit {
    let mut value = serde_json::to_value(answer).unwrap_or_default();
    match value.as_object_mut() {
        Some(map) => {
            map.insert("exit".into(), exit.json());
        }
        // Every answer is an object; anything else is wrapped so `exit` still has a place.
        None => value = serde_json::json!({ "answer": value, "exit": exit.json() }),
    }
    println!("{value}");
    exit
}

/// Prints a refusal or failure and returns its exit code.
pub fn failure(failure: &ToolFailure) -> Exit {
    println!("{}", serde_json::to_value(failure).unwrap_or_default());
    Exit::of_number(failure.exit)
}
