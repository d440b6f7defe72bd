//! A parsed flow, what `parse_flow` returns.

use super::action::{ImportedAction, ImportedStep};
use super::format::FlowFormat;
use super::note::ImportNote;
use super::privacy::holds_private_value;

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
    /// `onFlowStart`).
    pub notes: Vec<ImportNote>,
}

impl ImportedFlow {
    /// Marks private every typed value that holds one of `private_values` (values the
    /// user names private), so that it is never written whatever its field.
    pub fn mark_private(&mut self, private_values: &[String]) {
        for step in &mut self.steps {
            if let ImportedAction::InputText {
                value: Some(value),
                private,
                ..
            } = &mut step.action
            {
                *private |= holds_private_value(value, private_values);
            }
        }
    }
}
