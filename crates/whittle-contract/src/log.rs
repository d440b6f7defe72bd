//! `log` role: crash records and the evidence capture.
use serde::{Deserialize, Serialize};
use whittle_core::model::CrashKind;

use crate::{contract_type, lenient};

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
        /// The log record's identity, stable across queries (strict; an integer is
        /// read as its decimal text).
        #[serde(deserialize_with = "lenient::identity")]
        pub record_id: String,
        /// When the crash was logged; decides nothing (string, number or absent).
        #[serde(default, deserialize_with = "lenient::text")]
        pub ts: String,
        pub kind: CrashKind,
        /// The crashing process; compared with the target's (strict).
        pub process: String,
        /// What the fingerprint is computed from (strict).
        pub stack: String,
    }
}

contract_type! {
    pub struct RecentCrashes {
        /// Decides nothing: the client counts `crashes` itself.
        #[serde(default, deserialize_with = "lenient::count")]
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
        #[opt_text]
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
        #[opt_text]
        pub reason: Option<String>,
        #[opt_text]
        pub error: Option<String>,
        #[opt_text]
        pub log_path: Option<String>,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Issue 15, failure #1: a log server that sends `ts` as epoch seconds ended every run.
    #[test]
    fn a_crash_record_with_a_numeric_ts_decodes() {
        let answer = json!({"count": 1, "crashes": [{"record_id": "r1", "ts": 1715766000,
            "kind": "java", "process": "com.x", "stack": "java.lang.IllegalStateException"}]});
        let crashes: RecentCrashes = serde_json::from_value(answer).unwrap();
        assert_eq!(crashes.crashes[0].ts, "1715766000");
        assert_eq!(crashes.crashes[0].stack, "java.lang.IllegalStateException");
    }
}
