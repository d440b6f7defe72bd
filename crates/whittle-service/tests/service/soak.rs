//! Soak (issue #20): one run of 500 replays against the real simulator and report
//! server, each replay a fresh launch and 166 taps. Whittle's memory and the servers'
//! must stay flat (resident sets sampled every 50 attempts; the growth from attempt 100
//! to the end is bounded), and the run must leak neither file descriptors nor child
//! processes (both counted before connecting and after shutting the servers down); so it
//! runs in a process of its own (`alone`).
//!
//! Ignored by default (a few minutes): run it with
//! `cargo test -p whittle-service --test service soak -- --ignored --nocapture`; the
//! figures are printed, and docs/performance.md records them.

use crate::alone;
use crate::client_support;

use std::sync::Mutex;
use std::time::{Duration, Instant};

use client_support::{servers_bin, setup};
use serde_json::json;
use tokio_util::sync::CancellationToken;
use whittle_service::client::Hub;
use whittle_service::run::{minimize, read_journal, RunEnd, RunEvent, RunSpec};

const SESSION: &str = "2026-05-14_160354_counter";
const PKG: &str = "com.example.counter";
/// Taps the crash needs: every one of them is essential, so the seed's search tries
/// every single deletion once and then audits each (3 per step), well past 500.
const TAPS: u32 = 165;
const REPLAYS: u32 = 500;

fn model() -> serde_json::Value {
    json!({
        "package": PKG, "version": {"name": "1.0", "code": 1},
        "launch": {"screen": "home", "anchor": format!("{PKG}:id/root")},
        "state": {"count": 0},
        "screen_size": [360, 240],
        "screens": {"home": {"back": "exit", "elements": [
            {"id": format!("{PKG}:id/root"), "class": "android.widget.FrameLayout", "bounds": [0, 0, 360, 20]},
            {"id": format!("{PKG}:id/inc"), "class": "android.widget.Button", "text": "+1",
             "bounds": [20, 40, 340, 100], "tap": {"incr": {"count": 1}}},
            {"id": format!("{PKG}:id/go"), "class": "android.widget.Button", "text": "Go",
             "bounds": [20, 120, 340, 180]}]}},
        "crashes": [{"name": "overflow", "kind": "java", "process": PKG,
            "on": {"screen": "home", "tap": format!("{PKG}:id/go")}, "when": {"count": {">=": TAPS}},
            "stack": "java.lang.IllegalStateException: counter overflow\n\tat com.example.counter.Main.go(Main.java:12)"}],
        "timing": {"launch_ms": 0, "action_ms": 0}
    })
}

fn step(index: u32, replay: serde_json::Value) -> String {
    json!({"index": index, "ts": "2026-05-14T16:03:54Z", "action": replay["action_type"],
           "result": "ok", "notes": json!({"replay": replay}).to_string()})
    .to_string()
}

fn rss_kib() -> u64 {
    rss_of("self").unwrap()
}

/// Resident set of process `pid` ("self" for this one), in KiB.
fn rss_of(pid: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// The MCP servers' resident sets together (the run's child processes), in KiB.
fn servers_rss_kib() -> u64 {
    children()
        .iter()
        .filter_map(|pid| rss_of(&pid.to_string()))
        .sum()
}

fn open_fds() -> usize {
    std::fs::read_dir("/proc/self/fd").unwrap().count()
}

/// Live child processes of this test process (zombies count: they were not reaped).
fn children() -> Vec<u32> {
    let me = std::process::id();
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
                stat.rsplit(')')
                    .next()
                    .and_then(|rest| rest.split_whitespace().nth(1))
                    .and_then(|ppid| ppid.parse::<u32>().ok())
                    == Some(me)
            })
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "soak: 500 replays (a few minutes); run with --ignored --nocapture"]
async fn five_hundred_replays_in_one_run_keep_memory_flat_and_leak_nothing() {
    if !alone::in_own_process(
        "soak::five_hundred_replays_in_one_run_keep_memory_flat_and_leak_nothing",
    ) {
        return;
    }
    let Some(bin) = servers_bin() else { return };
    let s = setup(&bin, &[], 30_000, |cfg| {
        cfg["mcpServers"]["sim"]["args"] =
            json!(["sim", "--model", "counter.json", "--devices", "1"]);
        cfg["timing"] = json!({"settle_ms": 0, "drain_interval_ms": 10, "action_pause_ms": 0});
    });
    std::fs::write(s.dir.path().join("counter.json"), model().to_string()).unwrap();
    let dir = s.dir.path().join("workspace/sessions").join(SESSION);
    std::fs::create_dir_all(&dir).unwrap();
    let meta = json!({"session_id": SESSION, "name": "counter", "created_at": "2026-05-14T16:03:54Z",
        "status": "failed", "platform": "android", "package": PKG, "device_id": "sim-1", "extra": {}});
    std::fs::write(dir.join("meta.json"), meta.to_string()).unwrap();
    let tap = |i: u32, id: &str| {
        step(
            i,
            json!({"action_type": "tap", "element_key": format!("{PKG}:id/{id}")}),
        )
    };
    let mut steps = vec![step(
        1,
        json!({"action_type": "launch", "element_key": format!("{PKG}:id/root")}),
    )];
    steps.extend((2..TAPS + 2).map(|i| tap(i, "inc")));
    steps.push(tap(TAPS + 2, "go"));
    std::fs::write(dir.join("steps.jsonl"), steps.join("\n") + "\n").unwrap();
    let crash = json!({"crash_id": "c1", "ts": "2026-05-14T16:05:00Z", "kind": "java", "process": PKG,
        "stack": "java.lang.IllegalStateException: counter overflow\n\tat com.example.counter.Main.go(Main.java:12)",
        "step_index": TAPS + 2, "repro_path": (1..=TAPS + 2).collect::<Vec<_>>()});
    std::fs::write(dir.join("crashes.jsonl"), crash.to_string() + "\n").unwrap();

    let fds_before = open_fds();
    let children_before = children();
    let rss_before = rss_kib();
    let started = Instant::now();
    let samples: Mutex<Vec<(u32, u64, u64)>> = Mutex::new(Vec::new());
    let hub = Hub::connect(&s.config).await.unwrap();
    let mut opts = RunSpec::new(SESSION);
    opts.max_replays = std::num::NonZeroU32::new(REPLAYS).unwrap();
    let outcome = minimize(
        &hub,
        &s.config,
        opts,
        |event| {
            if let RunEvent::AttemptFinished(finished) = event {
                let attempt = finished.attempt;
                if attempt % 50 == 0 {
                    samples
                        .lock()
                        .unwrap()
                        .push((attempt, rss_kib(), servers_rss_kib()));
                }
            }
        },
        CancellationToken::new(),
    )
    .await
    .unwrap();
    hub.shutdown().await;
    let took = started.elapsed();

    assert_eq!(outcome.summary.attempts, REPLAYS, "{}", outcome.report);
    assert!(outcome.summary.search.budget_exhausted);
    assert_eq!(outcome.summary.end, RunEnd::Minimized);
    let evidence = outcome.evidence_dir.clone().unwrap();
    assert_eq!(
        read_journal(&evidence).unwrap().attempts.len(),
        REPLAYS as usize
    );

    // The servers exit once their stdin closes; give them a moment to be reaped.
    let deadline = Instant::now() + Duration::from_secs(10);
    while children() != children_before && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let fds_after = open_fds();
    let children_after = children();
    let rss_after = rss_kib();
    let samples = samples.into_inner().unwrap();
    println!(
        "soak: {REPLAYS} replays ({} taps each) in {:.1} s; RSS KiB (attempt, Whittle, servers) {samples:?}; Whittle {rss_before} KiB before, {rss_after} KiB after; fds {fds_before} → {fds_after}; child processes {} → {}",
        TAPS + 1,
        took.as_secs_f64(),
        children_before.len(),
        children_after.len()
    );
    assert_eq!(fds_after, fds_before, "file descriptors leaked");
    assert_eq!(
        children_after, children_before,
        "child processes left behind"
    );
    // Flat: from attempt 100 to 500 the resident set grows by less than 16 MiB (what a
    // per-attempt leak of 40 KiB — one screenshot's worth — would exceed).
    let at_100 = samples.iter().find(|s| s.0 == 100).copied().unwrap();
    let at_end = samples.last().copied().unwrap();
    assert!(
        at_end.1.saturating_sub(at_100.1) < 16 * 1024,
        "Whittle grew from {} KiB at attempt 100 to {} KiB at attempt {REPLAYS}",
        at_100.1,
        at_end.1
    );
    // The servers (report + simulator) keep capture lines and steps in files, not in
    // memory: the same bound.
    assert!(
        at_end.2.saturating_sub(at_100.2) < 16 * 1024,
        "the servers grew from {} KiB at attempt 100 to {} KiB at attempt {REPLAYS}",
        at_100.2,
        at_end.2
    );
}
