//! Crash signatures (the analyzer role's `compute_signature`): a fingerprint of a crash
//! that survives what changes between two runs or two builds of the same bug — line
//! numbers, compiler-made lambda/accessor/synthetic names, addresses, pids/tids,
//! timestamps, messages — so a replay can tell "the same crash" from another.
//! Pure: no I/O.
mod anr;
mod extracted;
mod frames;
mod group;
mod java;
mod logcat;
mod native;
mod synthetic;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::lenient;
use crate::model::CrashKind;

pub use group::{group_crashes, CrashGroup};
pub use logcat::strip_prefix as strip_logcat_prefix;

// A crash's signature: what `compute_signature` finds, and what an analyzer server
// answers to `compute_signature` (the tool result is this type, so a foreign analyzer is
// read by the same rules). A plain comment, not a doc comment: doc text would enter the
// tool's published output schema.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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

/// Length of a fingerprint in hex digits.
pub const FINGERPRINT_LEN: usize = 12;

/// Versions the canonical key so a change of normalization cannot silently match (or
/// silently miss) fingerprints computed by an older analyzer. Recorded with every approved
/// result (`MinimizedEntry::fingerprint_version`).
/// - 1: line numbers, counters, addresses and messages ignored.
/// - 2: also R8/D8/kotlinc synthetic names (`$r8$lambda$<hash>`, `-$$Lambda$X$<hash>`,
///   `$$ExternalSyntheticLambda<n>`, `lambda$m$<n>[$Class]`, `m$lambda$<n>` / `-<n>`,
///   Kotlin module suffixes), forwarding stubs (`access$…`, `-$$Nest$…`) left out,
///   console header shapes (`Fatal Exception:`, `Exception X:`, `Caused by X`) read.
pub const FINGERPRINT_VERSION: u32 = 2;

/// Computes the signature of a crash report. `kind_hint` (from the log record) decides the
/// parser; without it the kind is detected from the text. Never fails: an unusable stack
/// gives `fingerprint: None`.
pub fn compute_signature(stack: &str, kind_hint: Option<CrashKind>) -> Signature {
    let lines = logcat::messages(stack);
    let kind = kind_hint.unwrap_or_else(|| detect_kind(stack));
    let extracted = match kind {
        CrashKind::Java => java::extract(&lines),
        CrashKind::Anr => anr::extract(&lines),
        CrashKind::Native => native::extract(&lines),
    };
    match extracted {
        Some(e) => {
            let key = format!("v{FINGERPRINT_VERSION}|{}", e.key_body);
            Signature {
                fingerprint: Some(fingerprint_of(&key)),
                label: e.label,
                kind: e.kind,
                top_frames: e.top_frames,
                stable: e.stable,
                canonical_key: Some(key),
            }
        }
        None => Signature {
            fingerprint: None,
            label: String::new(),
            kind,
            top_frames: Vec::new(),
            stable: false,
            canonical_key: None,
        },
    }
}

/// ANR dumps contain Java frames and native frames, so they are recognized first; a
/// tombstone next; anything else is read as a Java exception.
fn detect_kind(text: &str) -> CrashKind {
    if text.contains("FATAL EXCEPTION") {
        CrashKind::Java
    } else if anr::looks_like(text) {
        CrashKind::Anr
    } else if native::looks_like(text) {
        CrashKind::Native
    } else {
        CrashKind::Java
    }
}

/// First 12 lowercase hex digits of SHA-256 of the canonical key.
pub fn fingerprint_of(canonical_key: &str) -> String {
    let digest = Sha256::digest(canonical_key.as_bytes());
    let mut hex = hex::encode(digest);
    hex.truncate(FINGERPRINT_LEN);
    hex
}
