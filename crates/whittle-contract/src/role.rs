use std::fmt;

use serde::{Deserialize, Serialize};

/// The five roles a minimize run needs; each is served by a user-configured MCP server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Role {
    Report,
    Analyzer,
    Mobile,
    Ui,
    Log,
}

impl Role {
    pub const ALL: [Role; 5] = [
        Role::Report,
        Role::Analyzer,
        Role::Mobile,
        Role::Ui,
        Role::Log,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Report => "report",
            Role::Analyzer => "analyzer",
            Role::Mobile => "mobile",
            Role::Ui => "ui",
            Role::Log => "log",
        }
    }

    /// Tools a server must list for this role before a run may start.
    pub fn required_tools(self) -> &'static [&'static str] {
        match self {
            Role::Report => crate::report::TOOLS,
            Role::Analyzer => crate::analyzer::TOOLS,
            Role::Mobile => crate::mobile::TOOLS,
            Role::Ui => crate::ui::TOOLS,
            Role::Log => crate::log::TOOLS,
        }
    }

    /// Tools a server may list for this role: needed only by a plan with a step that
    /// uses one (`ui::tool_for_action`), never to start a run.
    pub fn optional_tools(self) -> &'static [&'static str] {
        match self {
            Role::Ui => crate::ui::OPTIONAL_TOOLS,
            Role::Report | Role::Analyzer | Role::Mobile | Role::Log => &[],
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
