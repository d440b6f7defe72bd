//! `analyzer` role: crash signatures and grouping.
use super::{contract_type, lenient};
use crate::model::{Confidence, CrashKind};

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
    pub struct Signature {
        /// 12 lowercase hex digits, or null when no fingerprint could be built (strict:
        /// present, and of that format).
        #[serde(deserialize_with = "lenient::fingerprint")]
        pub fingerprint: Option<String>,
        pub label: String,
        pub kind: CrashKind,
        /// Part of the exact identity when the fingerprint is degraded (strict).
        pub top_frames: Vec<String>,
        /// True only when this analyzer normalizes this kind reliably; missing means false.
        #[serde(default)]
        pub stable: bool,
        /// The normalized text the fingerprint hashes; lets a reader see why two crashes match.
        #[serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "lenient::opt_text"
        )]
        pub canonical_key: Option<String>,
    }
}

contract_type! {
    pub struct SessionDirArgs {
        pub session_dir: String,
    }
}

contract_type! {
    pub struct CrashGroup {
        #[serde(deserialize_with = "lenient::fingerprint")]
        pub fingerprint: Option<String>,
        pub label: String,
        pub kind: CrashKind,
        pub process: String,
        pub crash_ids: Vec<String>,
        /// Shown to the user only; the run uses the session's own crash record.
        #[serde(default, deserialize_with = "lenient::count")]
        pub step_index: u32,
        pub repro_path: Vec<u32>,
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
