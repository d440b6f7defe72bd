//! `log` role: crash records and the evidence capture.
use serde::{Deserialize, Serialize};

use super::contract_type;
use crate::model::CrashKind;

pub const CLEAR_LOGS: &str = "clear_logs";
pub const GET_RECENT_CRASHES: &str = "get_recent_crashes";
pub const START_CAPTURE: &str = "start_capture";
pub const LIST_CAPTURES: &str = "list_captures";
pub const STOP_CAPTURE: &str = "stop_capture";
pub const TOOLS: &[&str] = &[
    CLEAR_LOGS,
    GET_RECENT_CRASHES,
    START_CAPTURE,
    LIST_CAPTURES,
    STOP_CAPTURE,
];

contract_type! {
    pub struct GetRecentCrashesArgs {
        pub device: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub package: Option<String>,
    }
}

contract_type! {
    pub struct LogCrash {
        /// The log record's identity, stable across queries.
        pub record_id: String,
        #[serde(default)]
        pub ts: String,
        pub kind: CrashKind,
        #[serde(default)]
        pub process: String,
        #[serde(default)]
        pub stack: String,
    }
}

contract_type! {
    pub struct RecentCrashes {
        pub count: u32,
        pub crashes: Vec<LogCrash>,
    }
}

contract_type! {
    pub struct StartCaptureArgs {
        pub session_id: String,
        pub session_dir: String,
        pub device: String,
    }
}

contract_type! {
    pub struct StartCaptureResult {
        pub status: CaptureState,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum CaptureState {
    Running,
    Stopped,
    Failed,
}

contract_type! {
    pub struct Capture {
        pub session_id: String,
        pub status: CaptureState,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub reason: Option<String>,
    }
}

contract_type! {
    pub struct CaptureList {
        pub captures: Vec<Capture>,
    }
}

contract_type! {
    pub struct StopCaptureArgs {
        pub session_id: String,
    }
}

contract_type! {
    pub struct StopCaptureResult {
        pub stopped: bool,
        pub status: CaptureState,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub reason: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub error: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub log_path: Option<String>,
    }
}
