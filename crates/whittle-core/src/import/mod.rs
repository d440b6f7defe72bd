//! Flows written for other tools, read into Whittle's session steps: Maestro flows
//! (YAML, see `maestro`) and Firebase Test Lab Robo scripts (JSON, see `robo`).
//!
//! Both parsers are pure: text in, [`ImportedFlow`] out, with errors that name the file,
//! the line and the field. A command Whittle cannot replay is kept as a step whose
//! `notes.replay.action_type` names it, so the plan skips it with a reason exactly as
//! it skips an unsupported recorded step. Nothing in a flow is ever run: a Robo
//! `ADB_SHELL_COMMAND` or a Maestro `runScript` is a skipped step, never a command.

mod action;
mod error;
pub mod maestro;
pub mod robo;

use serde::{Deserialize, Serialize};

pub use action::{ElementKey, ImportedAction};
pub use error::{ImportError, ImportProblem};

/// A flow file larger than this is refused before it is parsed: real flows and recorded
/// Robo scripts are kilobytes to a few hundred kilobytes.
pub const MAX_FLOW_BYTES: usize = 2 * 1024 * 1024;
/// More steps than this is not a flow a person wrote or recorded.
pub const MAX_FLOW_STEPS: usize = 10_000;

/// Which tool a flow was written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum FlowFormat {
    Maestro,
    Robo,
}

impl FlowFormat {
    pub fn as_str(self) -> &'static str {
        match self {
            FlowFormat::Maestro => "maestro",
            FlowFormat::Robo => "robo",
        }
    }
}

impl std::str::FromStr for FlowFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "maestro" => Ok(FlowFormat::Maestro),
            "robo" => Ok(FlowFormat::Robo),
            other => Err(format!(
                "unknown flow format {other:?} (expected maestro or robo)"
            )),
        }
    }
}

/// A parsed flow: the app it drives (when the file says) and its commands in order.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedFlow {
    pub format: FlowFormat,
    /// Maestro's `appId`; Robo scripts do not name their app.
    pub package: Option<String>,
    /// Maestro's `name`, when the flow has one.
    pub name: Option<String>,
    pub steps: Vec<ImportedStep>,
    /// What was read but not imported as a step (a Robo execution header, Maestro's
    /// `onFlowStart`), one sentence each.
    pub notes: Vec<String>,
}

/// One command of the flow as a Whittle step.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedStep {
    /// The 1-based line of the command in the file, when known.
    pub line: Option<usize>,
    /// The command as the file names it (`tapOn`, `VIEW_CLICKED`).
    pub command: String,
    pub action: ImportedAction,
}

/// Parses `bytes` as a flow of `format`; `file` names it in errors.
pub fn parse_flow(
    format: FlowFormat,
    file: &str,
    bytes: &[u8],
) -> Result<ImportedFlow, ImportError> {
    match format {
        FlowFormat::Maestro => maestro::parse(file, bytes),
        FlowFormat::Robo => robo::parse(file, bytes),
    }
}

/// The size and encoding checks both parsers start with.
pub(crate) fn checked_text<'a>(file: &str, bytes: &'a [u8]) -> Result<&'a str, ImportError> {
    if bytes.len() > MAX_FLOW_BYTES {
        return Err(ImportError::file(
            file,
            ImportProblem::TooLarge {
                limit_bytes: MAX_FLOW_BYTES,
            },
        ));
    }
    std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        ImportError::at(file, Some(line), None, ImportProblem::NotUtf8)
    })
}
