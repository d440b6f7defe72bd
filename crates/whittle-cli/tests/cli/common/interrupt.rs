//! Interrupting a `whittle` started in the background the way a terminal does, and
//! waiting a bounded time for it to end.

use std::process::{Child, Command, Output};
use std::time::{Duration, Instant};

use super::output::{stderr, stdout};

/// `kill -INT <target>` with a literal argv; `-PGID` signals the whole process group.
pub fn send_sigint(target: &str) {
    let status = Command::new("kill")
        .args(["-INT", "--", target])
        .status()
        .expect("run kill");
    assert!(status.success(), "kill -INT {target} failed");
}

/// Waits for the exit, at most `limit` after the signal.
pub fn wait_with_limit(mut child: Child, limit: Duration) -> (Output, Duration) {
    let signalled = Instant::now();
    loop {
        if child.try_wait().expect("try_wait").is_some() {
            let took = signalled.elapsed();
            return (child.wait_with_output().expect("output"), took);
        }
        if signalled.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().expect("output");
            panic!(
                "whittle still running {limit:?} after SIGINT\nstdout: {}\nstderr: {}",
                stdout(&out),
                stderr(&out)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
