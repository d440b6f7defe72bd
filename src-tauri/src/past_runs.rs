//! The past minimize runs of a session live in the application layer, where
//! `whittle mcp` lists them too; named here where the app's views import them.

pub use whittle_service::run::{approved_runs, past_runs, PastRun, PastRunOutcome};
