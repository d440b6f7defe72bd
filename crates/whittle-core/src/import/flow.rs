//! A parsed flow, what `parse_flow` returns.

use super::action::ImportedStep;
use super::format::FlowFormat;

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
