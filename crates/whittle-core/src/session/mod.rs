//! Parsing a session folder (docs/design.md §1) into typed values, with errors that name the
//! file and line a tester should look at. Everything read is untrusted test data.

mod crashes;
mod error;
mod id;
mod jsonl;
mod meta;
mod open;
mod steps;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::model::{Crash, SessionMeta, Step};

pub use crashes::{parse_crashes, CRASHES_FILE};
pub use error::{SessionError, SessionProblem};
pub use id::{
    resolve_session_dir, validate_session_id, ResolveError, SessionIdError, SESSIONS_DIR,
};
pub use jsonl::{MAX_FILE_BYTES, MAX_LINE_BYTES};
pub use meta::{parse_meta, META_FILE};
pub use steps::{parse_steps, STEPS_FILE};

pub(crate) use crashes::read_crashes;
pub(crate) use error::clip_untrusted;
pub(crate) use meta::read_meta;
pub(crate) use steps::read_steps;

/// A parsed session folder. `steps` are in index order 1..=n; every crash's
/// `repro_path` names existing steps.
#[derive(Debug, Clone, PartialEq)]
pub struct Session {
    pub dir: PathBuf,
    pub meta: SessionMeta,
    pub steps: Vec<Step>,
    pub crashes: Vec<Crash>,
}

impl Session {
    pub fn step(&self, index: u32) -> Option<&Step> {
        // Indexes are validated to be exactly 1..=n, so the position is index - 1.
        let step = self
            .steps
            .get(usize::try_from(index).ok()?.checked_sub(1)?)?;
        (step.index == index).then_some(step)
    }

    pub fn crash(&self, crash_id: &str) -> Option<&Crash> {
        self.crashes.iter().find(|c| c.crash_id == crash_id)
    }
}

pub fn load_session(dir: &Path) -> Result<Session, SessionError> {
    let meta = read_meta(dir)?;
    let steps = read_steps(dir)?;
    let indexes: BTreeSet<u32> = steps.iter().map(|s| s.index).collect();
    let crashes = read_crashes(dir, Some(&indexes))?;
    Ok(Session {
        dir: dir.to_path_buf(),
        meta,
        steps,
        crashes,
    })
}
