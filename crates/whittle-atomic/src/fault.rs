//! Test-only fault injection for [`super::write_atomic`] and [`super::append_durable`]
//! (feature `fault-injection`, switched on by this crate's own dev-dependency, never in a
//! release build). Tests run as root here, so a read-only folder stops nothing; this
//! makes a chosen write on the calling thread fail at a chosen step with the error a full
//! or read-only disk gives.

use std::cell::Cell;
use std::io;

/// The step of a write that fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Creating the temporary file: a read-only file system (EROFS).
    Create,
    /// Writing the bytes: the disk fills up halfway (ENOSPC).
    Write,
    /// Renaming over the target: a read-only file system (EROFS).
    Rename,
    /// Appending a record to a journal: the disk fills up halfway (ENOSPC).
    Append,
}

thread_local! {
    static NEXT: Cell<Option<Stage>> = const { Cell::new(None) };
    /// How many more times `NEXT`'s stage passes before it fails.
    static SKIP: Cell<u32> = const { Cell::new(0) };
}

/// Makes the next atomic write on this thread fail at `stage`.
pub fn fail_next(stage: Stage) {
    fail_after(stage, 0);
}

/// Lets `stage` pass `skip` more times on this thread, then fail once (a disk that
/// fills up in the middle of a run).
pub fn fail_after(stage: Stage, skip: u32) {
    NEXT.with(|next| next.set(Some(stage)));
    SKIP.with(|s| s.set(skip));
}

/// Clears a fault that no write consumed.
pub fn clear() {
    NEXT.with(|next| next.set(None));
    SKIP.with(|s| s.set(0));
}

pub(super) fn check(stage: Stage) -> io::Result<()> {
    if NEXT.with(|next| next.get()) != Some(stage) {
        return Ok(());
    }
    let skip = SKIP.with(Cell::get);
    if skip > 0 {
        SKIP.with(|s| s.set(skip - 1));
        return Ok(());
    }
    clear();
    const ENOSPC: i32 = 28;
    const EROFS: i32 = 30;
    Err(io::Error::from_raw_os_error(match stage {
        Stage::Write | Stage::Append => ENOSPC,
        Stage::Create | Stage::Rename => EROFS,
    }))
}
