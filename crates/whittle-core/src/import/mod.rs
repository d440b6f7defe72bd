//! Flows written for other tools, read into Whittle's session steps: Maestro flows
//! (YAML, see `maestro`) and Firebase Test Lab Robo scripts (JSON, see `robo`).
//!
//! Both parsers are pure: text in, [`ImportedFlow`] out, with errors that name the file,
//! the line and the field. A command Whittle cannot replay is kept as a step whose
//! `notes.replay.action_type` names it, so the plan skips it with a reason exactly as
//! it skips an unsupported recorded step. Nothing in a flow is ever run: a Robo
//! `ADB_SHELL_COMMAND` or a Maestro `runScript` is a skipped step, never a command.

use std::collections::BTreeMap;

mod action;
mod error;
mod flow;
mod format;
mod limits;
pub mod maestro;
mod note;
mod privacy;
pub mod robo;

pub use action::{ElementKey, ImportedAction, ImportedStep};
pub use error::{ImportError, ImportProblem};
pub use flow::ImportedFlow;
pub use format::FlowFormat;
pub(crate) use limits::checked_text;
pub use limits::{MAX_FLOW_BYTES, MAX_FLOW_STEPS};
pub(crate) use note::line_number;
pub use note::{ImportNote, LaunchOption};
pub use privacy::FieldFacts;

/// Parses `bytes` as a flow of `format`; `file` names it in errors.
pub fn parse_flow(
    format: FlowFormat,
    file: &str,
    bytes: &[u8],
) -> Result<ImportedFlow, ImportError> {
    parse_flow_with(format, file, bytes, &BTreeMap::new())
}

/// [`parse_flow`] with the variables given on the command line (Maestro's `-e
/// NAME=value`; a Robo script has none).
pub fn parse_flow_with(
    format: FlowFormat,
    file: &str,
    bytes: &[u8],
    variables: &BTreeMap<String, String>,
) -> Result<ImportedFlow, ImportError> {
    match format {
        FlowFormat::Maestro => maestro::parse_with(file, bytes, variables),
        FlowFormat::Robo => robo::parse(file, bytes),
    }
}
