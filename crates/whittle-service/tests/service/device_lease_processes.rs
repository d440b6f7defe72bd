//! Device leases between real processes (docs/device-lab.md, "One run per device"): this
//! test binary runs itself again as the other processes (`lease_child`, ignored unless
//! asked for by name), each with its own `WHITTLE_LEASE_DIR` as a run would have it.
//! A holder killed with SIGKILL frees its device at once, its file left behind reused;
//! processes taking and releasing one device as fast as they can never hold it together,
//! although every release removes the lease file.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use whittle_service::device_lease::{
    DeviceHolder, DeviceHome, DeviceKey, DeviceLease, LeaseError, LeaseFolder, LEASE_DIR_ENV,
};

/// What a child process does: `hold` (take the device, say so, wait to be killed) or
/// `hammer <log> <takes>`.
const CHILD_ENV: &str = "WHITTLE_TEST_LEASE_CHILD";
/// What a holding child prints once it holds the device.
const HELD: &str = "lease-held";
const HAMMER_PROCESSES: usize = 4;
const HAMMER_TAKES: usize = 150;

fn phone() -> DeviceKey {
    DeviceKey {
        home: DeviceHome::ThisMachine,
        device: "emulator-5554".into(),
    }
}

fn take_when_free(purpose: &str) -> DeviceLease {
    loop {
        match DeviceLease::take(&phone(), purpose) {
            Ok(lease) => return lease,
            Err(LeaseError::Busy { .. }) => std::thread::yield_now(),
            Err(e) => panic!("{e}"),
        }
    }
}

/// This test binary as another process doing `role` with its leases in `dir`.
fn child(dir: &Path, role: &str) -> Command {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args([
            "device_lease_processes::lease_child",
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(LEASE_DIR_ENV, dir)
        .env(CHILD_ENV, role);
    command
}

/// The other process of the tests below; does nothing unless one of them started it.
#[test]
#[ignore = "run as a child process by the tests of this module"]
fn lease_child() {
    let Ok(role) = std::env::var(CHILD_ENV) else {
        return;
    };
    let words: Vec<&str> = role.split(' ').collect();
    match words[..] {
        ["hold"] => {
            let _lease = take_when_free("minimize held-then-killed");
            println!("{HELD}");
            std::io::stdout().flush().unwrap();
            std::thread::sleep(std::time::Duration::from_secs(120));
        }
        ["hammer", log, takes] => {
            let mut log = std::fs::OpenOptions::new().append(true).open(log).unwrap();
            let me = std::process::id();
            for _ in 0..takes.parse::<usize>().unwrap() {
                let lease = take_when_free("hammer");
                // One write each, O_APPEND: whole lines, in the order they happened.
                log.write_all(format!("+{me}\n").as_bytes()).unwrap();
                std::thread::yield_now();
                log.write_all(format!("-{me}\n").as_bytes()).unwrap();
                drop(lease);
            }
        }
        _ => panic!("unknown role {role:?}"),
    }
}

#[test]
fn a_holder_killed_with_sigkill_frees_the_device_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("leases");
    let mut holder = child(&dir, "hold")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(holder.stdout.take().unwrap()).lines();
    assert!(
        // libtest may print the test's name on the same line first.
        lines.any(|l| l.is_ok_and(|l| l.ends_with(HELD))),
        "the holder never took the device"
    );
    let folder = LeaseFolder::open_at(&dir).unwrap();
    match DeviceLease::take_in(&folder, &phone(), "minimize second") {
        Err(LeaseError::Busy {
            holder: DeviceHolder::Process { pid, purpose, .. },
            ..
        }) => {
            assert_eq!(pid, holder.id());
            assert_eq!(purpose, "minimize held-then-killed");
        }
        other => panic!("expected the live holder to be named, got {other:?}"),
    }

    holder.kill().unwrap(); // SIGKILL: no destructor runs, the file stays behind.
    holder.wait().unwrap();
    let file = dir.join(
        std::fs::read_dir(&dir)
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .file_name(),
    );
    let lease = DeviceLease::take_in(&folder, &phone(), "minimize second")
        .expect("the killed holder's lock went with it");
    let note = std::fs::read_to_string(&file).unwrap();
    assert!(note.contains("minimize second"), "{note}");
    drop(lease);
    assert!(!file.exists(), "released: the file is removed");
}

#[test]
fn processes_taking_and_releasing_one_device_never_hold_it_together() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("leases");
    let log = tmp.path().join("holders.log");
    std::fs::write(&log, b"").unwrap();
    let role = format!("hammer {} {HAMMER_TAKES}", log.display());
    let children: Vec<_> = (0..HAMMER_PROCESSES)
        .map(|_| {
            child(&dir, &role)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2 * HAMMER_PROCESSES * HAMMER_TAKES);
    // Held by one at a time: each taking is followed by the same process's release.
    for pair in lines.chunks(2) {
        let (took, released) = (pair[0], pair[1]);
        assert!(
            took.starts_with('+') && released == format!("-{}", &took[1..]),
            "two holders at once: {took} then {released}"
        );
    }
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
    assert!(left.is_empty(), "every release removed its file: {left:?}");
}
