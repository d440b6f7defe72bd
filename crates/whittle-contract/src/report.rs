//! `report` role: the session store.
use crate::{contract_type, lenient};
use whittle_core::model::SessionStatus;

pub const LIST_SESSIONS: &str = "list_sessions";
pub const GET_SESSION_PATH: &str = "get_session_path";
pub const START_SESSION: &str = "start_session";
pub const RECORD_STEP: &str = "record_step";
pub const FINALIZE: &str = "finalize";
pub const TOOLS: &[&str] = &[
    LIST_SESSIONS,
    GET_SESSION_PATH,
    START_SESSION,
    RECORD_STEP,
    FINALIZE,
];

contract_type! {
    pub struct SessionListing {
        pub session_id: String,
        #[serde(default, deserialize_with = "lenient::text")]
        pub name: String,
        #[serde(default, deserialize_with = "lenient::text")]
        pub created_at: String,
        pub status: SessionStatus,
        pub session_dir: String,
    }
}

contract_type! {
    pub struct ListSessionsResult {
        pub sessions: Vec<SessionListing>,
    }
}

contract_type! {
    pub struct SessionIdArgs {
        pub session_id: String,
    }
}

contract_type! {
    /// Result of `get_session_path` and `start_session`.
    pub struct SessionPath {
        pub session_id: String,
        pub session_dir: String,
    }
}

contract_type! {
    pub struct StartSessionArgs {
        pub name: String,
        #[serde(default)]
        pub extra: serde_json::Map<String, serde_json::Value>,
    }
}

contract_type! {
    pub struct RecordStepArgs {
        pub session_id: String,
        pub action: String,
        /// "ok" or "fail".
        pub result: String,
        #[serde(default)]
        pub notes: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub screenshot_src: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub screenshot_redacted: Option<bool>,
    }
}

contract_type! {
    pub struct RecordStepResult {
        /// Decides nothing: the evidence step's number is not used by the run.
        #[serde(default, deserialize_with = "lenient::count")]
        pub index: u32,
    }
}

contract_type! {
    pub struct FinalizeArgs {
        pub session_id: String,
        pub status: SessionStatus,
        #[serde(default)]
        pub summary: String,
    }
}

contract_type! {
    pub struct FinalizeResult {
        pub report_path: String,
    }
}
