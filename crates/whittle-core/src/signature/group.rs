//! Groups a session's crashes by signature (the analyzer role's `analyze_session`).
use serde::{Deserialize, Serialize};

use crate::lenient;
use crate::model::{Crash, CrashKind};

use super::compute_signature;

// The crashes of a session that share a signature: what `group_crashes` finds, and one
// entry of an analyzer server's `analyze_session` answer. (A plain comment: doc text
// would enter the tool's published output schema.)
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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

#[derive(PartialEq, Eq)]
enum GroupKey {
    Fingerprint(String),
    /// No fingerprint: only crashes that agree on everything visible are grouped.
    Exact(CrashKind, String, String),
}

/// One group per distinct signature, in order of first appearance; a group carries the
/// step index and repro path of its first crash.
pub fn group_crashes(crashes: &[Crash]) -> Vec<CrashGroup> {
    let mut keys: Vec<GroupKey> = Vec::new();
    let mut groups: Vec<CrashGroup> = Vec::new();
    for crash in crashes {
        let sig = compute_signature(&crash.stack, Some(crash.kind));
        let label = if sig.label.is_empty() {
            crash.label.clone().unwrap_or_default()
        } else {
            sig.label.clone()
        };
        let key = match &sig.fingerprint {
            Some(fp) => GroupKey::Fingerprint(fp.clone()),
            None => GroupKey::Exact(crash.kind, crash.process.clone(), label.clone()),
        };
        match keys.iter().position(|k| *k == key) {
            Some(i) => groups[i].crash_ids.push(crash.crash_id.clone()),
            None => {
                keys.push(key);
                groups.push(CrashGroup {
                    fingerprint: sig.fingerprint,
                    label,
                    kind: crash.kind,
                    process: crash.process.clone(),
                    crash_ids: vec![crash.crash_id.clone()],
                    step_index: crash.step_index,
                    repro_path: crash.repro_path.clone(),
                });
            }
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crash(id: &str, kind: CrashKind, stack: &str, step: u32) -> Crash {
        Crash {
            crash_id: id.into(),
            ts: None,
            kind,
            process: "com.x".into(),
            label: Some("fallback".into()),
            stack: stack.into(),
            step_index: step,
            repro_path: (0..=step).collect(),
        }
    }

    #[test]
    fn groups_by_fingerprint_in_first_appearance_order() {
        let npe = "java.lang.NullPointerException: x 1\n\tat com.x.A.onClick(A.java:10)";
        let npe2 = "java.lang.NullPointerException: x 2\n\tat com.x.A.onClick(A.java:11)";
        let ise = "java.lang.IllegalStateException\n\tat com.x.B.run(B.java:3)";
        let groups = group_crashes(&[
            crash("c1", CrashKind::Java, ise, 4),
            crash("c2", CrashKind::Java, npe, 2),
            crash("c3", CrashKind::Java, npe2, 7),
        ]);
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0].crash_ids, vec!["c1"]);
        assert_eq!(groups[1].crash_ids, vec!["c2", "c3"]);
        assert_eq!(groups[1].step_index, 2);
        assert_eq!(groups[1].repro_path, vec![0, 1, 2]);
        assert_eq!(groups[1].label, "NullPointerException in A.onClick");
    }

    #[test]
    fn unusable_stacks_group_by_kind_process_and_label() {
        let groups = group_crashes(&[
            crash("a", CrashKind::Native, "", 1),
            crash("b", CrashKind::Native, "garbage", 2),
            crash("c", CrashKind::Java, "", 3),
        ]);
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0].fingerprint, None);
        assert_eq!(groups[0].crash_ids, vec!["a", "b"]);
        assert_eq!(groups[0].label, "fallback");
        assert_eq!(groups[1].kind, CrashKind::Java);
    }
}
