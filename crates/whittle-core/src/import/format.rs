//! Which tool a flow was written for, as the command line and the app name it.

use serde::{Deserialize, Serialize};

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
