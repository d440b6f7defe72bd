//! What Whittle takes an OS lock (`flock`, via fs4) on to own a folder's contents for a
//! while: a run its evidence session (`run/lock.rs`), an approval the tester's session
//! folder while it rewrites the sidecar (`sidecar.rs`). On Unix the lock is on the folder
//! itself: a lock file inside it could be deleted under the holder, letting a second
//! process in on a new file of the same name, and would stay behind in the folder.
//! Where a folder cannot be opened as a file (off Unix) the lock is on a named file in it.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

/// The open file to lock for `dir`: the folder itself, or off Unix `fallback` inside it
/// (created when `create`). Opened close-on-exec, so no child process inherits a lock.
pub(crate) fn lockable(dir: &Path, fallback: &str, create: bool) -> io::Result<File> {
    if cfg!(unix) {
        File::open(dir)
    } else {
        OpenOptions::new()
            .create(create)
            .truncate(false)
            .write(create)
            .read(true)
            .open(dir.join(fallback))
    }
}
