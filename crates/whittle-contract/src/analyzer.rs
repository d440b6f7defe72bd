//! `analyzer` role: crash signatures and grouping.
use whittle_core::model::{Confidence, CrashKind};

use crate::{contract_type, lenient};

/// The answers of `compute_signature` and the groups of `analyze_session` are the
/// core's own signature values, so a foreign analyzer is read by the rules the core's
/// signature code answers by.
pub use whittle_core::signature::{CrashGroup, Signature};

pub const COMPUTE_SIGNATURE: &str = "compute_signature";
pub const ANALYZE_SESSION: &str = "analyze_session";
pub const SUGGEST_MINIMAL_PATH: &str = "suggest_minimal_path";
pub const TOOLS: &[&str] = &[COMPUTE_SIGNATURE, ANALYZE_SESSION, SUGGEST_MINIMAL_PATH];

contract_type! {
    pub struct ComputeSignatureArgs {
        pub stack: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub kind: Option<CrashKind>,
    }
}

contract_type! {
    pub struct SessionDirArgs {
        pub session_dir: String,
    }
}

contract_type! {
    pub struct SessionAnalysis {
        /// Decides nothing: the client counts `groups` itself.
        #[serde(default, deserialize_with = "lenient::count")]
        pub unique: u32,
        pub groups: Vec<CrashGroup>,
    }
}

contract_type! {
    pub struct SuggestMinimalPathArgs {
        pub session_dir: String,
        pub crash_id: String,
    }
}

contract_type! {
    pub struct StaticSuggestion {
        pub path: Vec<u32>,
        pub confidence: Confidence,
        #[serde(default, deserialize_with = "lenient::text")]
        pub rationale: String,
    }
}
