//! The approved result the sidecar tests write.

use whittle_core::model::{Confidence, MinimizedEntry};

/// A high-confidence, complete entry whose minimized path is `path`.
pub fn entry(path: &[u32]) -> MinimizedEntry {
    MinimizedEntry {
        minimized_repro_path: path.to_vec(),
        minimized_attempts: 7,
        minimized_confidence: Confidence::High,
        minimized_complete: true,
        target_fingerprint: Some("0123456789ab".into()),
        evidence_session: "2025-01-01_120000_minimize-c1".into(),
        approved_at: "2025-01-01T12:00:00Z".into(),
        engine_version: "0.1.0".into(),
        fingerprint_version: whittle_core::signature::FINGERPRINT_VERSION,
    }
}
