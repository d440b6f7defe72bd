//! What must still hold for a run to be resumed: the journal's header against the run
//! prepared again now (the session's files, the crash's signature, the replay plan, the
//! app and Whittle versions) and against what the user asked (strategy, budget). Every
//! difference is named; any one refuses the resume, because the recorded verdicts were
//! observed under the old conditions and would not prove anything under the new.

use std::io::Read;
use std::num::NonZeroU32;
use std::path::Path;

use sha2::{Digest, Sha256};
use whittle_core::session::{CRASHES_FILE, MAX_FILE_BYTES, META_FILE, STEPS_FILE};
use whittle_core::strategy::SearchStrategy;

use super::super::journal::JournalHeader;
use super::super::LiveRun;
use super::mismatch::ResumeMismatch;
use crate::replay::TargetIdentity;

/// The user's explicit choices against the recorded ones (a choice left out is the
/// recorded one).
pub fn check_asked(
    header: &JournalHeader,
    strategy: Option<SearchStrategy>,
    max_replays: Option<NonZeroU32>,
) -> Vec<ResumeMismatch> {
    let mut differences = Vec::new();
    if let Some(asked) = strategy.filter(|s| *s != header.strategy) {
        differences.push(ResumeMismatch::StrategyChanged {
            recorded: header.strategy,
            asked,
        });
    }
    if let Some(asked) = max_replays
        .map(NonZeroU32::get)
        .filter(|m| *m != header.max_replays)
    {
        differences.push(ResumeMismatch::BudgetChanged {
            recorded: header.max_replays,
            asked,
        });
    }
    differences
}

/// The run prepared now against the recorded one.
pub fn check_run(header: &JournalHeader, run: &LiveRun) -> Vec<ResumeMismatch> {
    let mut differences = Vec::new();
    if session_files_hash(&run.session.dir) != header.session_files {
        differences.push(ResumeMismatch::SessionFilesChanged {
            session: header.original_session.clone(),
        });
    }
    if run.ctx.target != header.target {
        differences.push(ResumeMismatch::TargetChanged {
            recorded: target_words(&header.target),
            now: target_words(&run.ctx.target),
        });
    }
    let candidates = run.plan.candidate_ids();
    if candidates != header.candidates {
        differences.push(ResumeMismatch::PlanChanged {
            recorded: format!("{:?}", header.candidates),
            now: format!("{candidates:?}"),
        });
    }
    if run.app_version != header.app_version {
        differences.push(ResumeMismatch::AppVersionChanged {
            recorded: version_words(header.app_version.as_deref()),
            now: version_words(run.app_version.as_deref()),
        });
    }
    let whittle = env!("CARGO_PKG_VERSION");
    if header.whittle_version != whittle {
        differences.push(ResumeMismatch::WhittleVersionChanged {
            recorded: header.whittle_version.clone(),
            now: whittle.to_owned(),
        });
    }
    differences
}

fn target_words(target: &TargetIdentity) -> String {
    match target {
        TargetIdentity::Fingerprint { fingerprint } => fingerprint.clone(),
        TargetIdentity::Degraded { identity } => format!("{} (degraded)", identity.label),
    }
}

fn version_words(version: Option<&str>) -> String {
    version.unwrap_or("unknown").to_owned()
}

/// SHA-256 over the session's meta, steps and crashes files (name, length, bytes each;
/// a missing or unreadable file hashes as such, so it still differs from a present
/// one). The sidecar is left out: approving another crash must not block a resume.
pub fn session_files_hash(dir: &Path) -> String {
    let mut hash = Sha256::new();
    for name in [META_FILE, STEPS_FILE, CRASHES_FILE] {
        hash.update(name.as_bytes());
        match read_capped(&dir.join(name)) {
            Some(bytes) => {
                hash.update((bytes.len() as u64).to_le_bytes());
                hash.update(&bytes);
            }
            None => hash.update(b"\0absent"),
        }
    }
    hex::encode(hash.finalize())
}

fn read_capped(path: &Path) -> Option<Vec<u8>> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    if !meta.file_type().is_file() {
        return None;
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    Some(bytes)
}
