//! Runs one test alone, in a fresh process of this test binary. Each crate's tests are
//! one binary (docs/architecture.md, "Building fast"), so they share a process while
//! they run in parallel; a test that measures or changes the whole process (its peak
//! memory, its children, its open files, its global logger or environment) runs in a
//! process of its own instead. whittle-service's and the app's test binaries include
//! this file too.

use std::process::Command;

/// Names, in the child process, the one test it runs.
const ALONE: &str = "WHITTLE_TEST_ALONE";

/// Call first in the test, with its full name (`module::function`). In the test run it
/// starts this binary again to run only that test, asserts that exactly it ran and
/// passed, and returns `false`: the caller returns at once. In that child process it
/// returns `true`: the caller runs its body.
pub fn in_own_process(name: &str) -> bool {
    if std::env::var_os(ALONE).is_some_and(|running| running == name) {
        return true;
    }
    let exe = std::env::current_exe().expect("the test binary's path");
    let out = Command::new(exe)
        .args([name, "--exact", "--include-ignored", "--nocapture"])
        .env(ALONE, name)
        .output()
        .expect("start the test binary again");
    let stdout = String::from_utf8_lossy(&out.stdout);
    // Shown by the parent's harness like the test's own output (on failure, or with
    // --nocapture): the figures some of these tests print are worth reading.
    print!("{stdout}");
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{name} failed in its own process");
    assert!(
        stdout.contains("test result: ok. 1 passed"),
        "{name} is not the name of one test of this binary"
    );
    false
}
