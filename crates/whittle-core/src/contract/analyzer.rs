//! `analyzer` role: crash signatures and grouping.
use super::contract_type;
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
        /// 12 lowercase hex digits, or null when no fingerprint could be built.
        pub fingerprint: Option<String>,
        pub label: String,
        pub kind: CrashKind,
        #[serde(default)]
        pub top_frames: Vec<String>,
        /// True only when this analyzer normalizes this kind reliably; missing means false.
        #[serde(default)]
        pub stable: bool,
        /// The normalized text the fingerprint hashes; lets a reader see why two crashes match.
        #[serde(default, skip_serializing_if = "Option::is_none")]
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
        pub fingerprint: Option<String>,
        pub label: String,
        pub kind: CrashKind,
        pub process: String,
        pub crash_ids: Vec<String>,
        pub step_index: u32,
        pub repro_path: Vec<u32>,
    }
}

contract_type! {
    pub struct SessionAnalysis {
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
        pub rationale: String,
    }
}
