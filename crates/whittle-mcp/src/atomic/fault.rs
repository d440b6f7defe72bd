//! Test-only fault injection for [`super::write_atomic`] (feature `fault-injection`,
//! switched on by this crate's own dev-dependency, never in a release build). Tests run
//! as root here, so a read-only folder stops nothing; this makes the next atomic write on
//! the calling thread fail at a chosen step with the error a full or read-only disk gives.

use std::cell::Cell;
use std::io;

/// The step of an atomic write that fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Creating the temporary file: a read-only file system (EROFS).
    Create,
    /// Writing the bytes: the disk fills up halfway (ENOSPC).
    Write,
    /// Renaming over the target: a read-only file system (EROFS).
    Rename,
}

thread_local! {
    static NEXT: Cell<Option<Stage>> = const { Cell::new(None) };
}

/// Makes the next atomic write on this thread fail at `stage`.
pub fn fail_next(stage: Stage) {
    NEXT.with(|next| next.set(Some(stage)));
}

/// Clears a fault that no write consumed.
pub fn clear() {
    NEXT.with(|next| next.set(None));
}

pub(super) fn check(stage: Stage) -> io::Result<()> {
    if NEXT.with(|next| next.get()) != Some(stage) {
        return Ok(());
    }
    clear();
    const ENOSPC: i32 = 28;
    const EROFS: i32 = 30;
    Err(io::Error::from_raw_os_error(match stage {
        Stage::Write => ENOSPC,
        Stage::Create | Stage::Rename => EROFS,
    }))
}
