//! `scripts/run-demo` on a machine without a display: one line saying so and what to run
//! instead (Xvfb, or this command on the demo), a failing exit, and nothing set up or
//! built. The script runs as a copy next to a stand-in `scripts/setup` that records that
//! it ran, so a broken check can never start the real setup and build.
#![cfg(target_os = "linux")]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The demo session the script's hint minimizes.
const DEMO_SESSION: &str = "2026-05-14_160354_checkout-npe";

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A tree with a copy of run-demo and a `scripts/setup` that leaves `setup-ran` and fails
/// with 7.
fn demo_tree() -> tempfile::TempDir {
    let tree = tempfile::tempdir().unwrap();
    let scripts = tree.path().join("scripts");
    std::fs::create_dir(&scripts).unwrap();
    std::fs::copy(
        repo_root().join("scripts/run-demo"),
        scripts.join("run-demo"),
    )
    .unwrap();
    let setup = scripts.join("setup");
    std::fs::write(&setup, "#!/bin/sh\ntouch setup-ran\nexit 7\n").unwrap();
    std::fs::set_permissions(&setup, std::fs::Permissions::from_mode(0o755)).unwrap();
    tree
}

fn run_demo(tree: &Path, display: Option<&str>) -> Output {
    let mut command = Command::new("bash");
    command
        .arg(tree.join("scripts/run-demo"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("CARGO_TARGET_DIR");
    if let Some(display) = display {
        command.env("DISPLAY", display);
    }
    command.output().expect("run bash")
}

#[test]
fn without_a_display_run_demo_says_what_to_run_instead_and_builds_nothing() {
    let tree = demo_tree();
    let out = run_demo(tree.path(), None);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.contains("no display"), "{err}");
    assert!(err.contains("`xvfb-run -a ./scripts/run-demo`"), "{err}");
    assert!(
        err.contains(&format!("target/debug/whittle minimize {DEMO_SESSION}`")),
        "{err}"
    );
    assert!(
        repo_root()
            .join("demo/workspace/sessions")
            .join(DEMO_SESSION)
            .is_dir(),
        "the hint names a session of the demo"
    );
    assert!(!tree.path().join("setup-ran").exists(), "setup ran");

    // With a display the script goes on to the setup (here the stand-in's failure).
    let out = run_demo(tree.path(), Some(":0"));
    assert_eq!(out.status.code(), Some(7));
    assert!(tree.path().join("setup-ran").exists());
}
