//! IPC commands: one-line delegates into library code, each in a tracing span that
//! records its error. Paths come from the window (the user's folder choice).

mod evidence;
mod formats;
mod queue;
mod run;
mod sessions;
mod setup;

pub use evidence::*;
pub use formats::*;
pub use queue::*;
pub use run::*;
pub use sessions::*;
pub use setup::*;
