//! Whittle's own cost (issue #7, part 3), measured against the real simulator over stdio:
//!
//! 1. per replay, with a zero-latency device (launch 0 ms, actions 0 ms) and every wait
//!    at 0 (drain interval 0 too, which only a benchmark may set): the replay subroutine
//!    alone, an attempt (replay + masked screenshot), and a whole live minimize divided
//!    by its replays — everything but the device's time (target ≤ 20 ms per replay);
//! 2. masking one 1080×2400 screenshot: decode, auto masks, burn, encode (target ≤ 30 ms);
//! 3. the demo crash's wall-clock per replay on the demo device timing
//!    (`demo/shop.json`, `demo/whittle.json`), `evidence` against `fixed` waits;
//! 4. the live view's cost: whole minimize runs of the demo crash on the demo timing,
//!    watched (masked frames taken beside every replay) and not, interleaved in this
//!    process, as wall-clock per replay (target: at most 5 % slower).
//!
//! ```sh
//! cargo build --release -p whittle-servers
//! cargo bench -p whittle-service --bench overhead
//! ```
//! `OVERHEAD_QUICK=1` runs fewer repetitions; `OVERHEAD_PARTS=4` (or `1,2`, …) only those
//! parts.

#[path = "support/span_times.rs"]
mod span_times;
#[path = "support/mod.rs"]
mod support;

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;
use whittle_core::plan::{ReplayPlan, ReplayStep};
use whittle_service::api::{LiveFrame, Watched};
use whittle_service::client::Hub;
use whittle_service::config::{Config, Timing, WaitMode};
use whittle_service::evidence::archive_screenshot;
use whittle_service::mask::{auto_masks, burn_in, mask_screenshot, RawScreenshot, ShotMoment};
use whittle_service::replay::{replay, ReplayContext};
use whittle_service::run::{minimize, prepare, LiveRun, Prepared, RunEnd, RunEvent, RunSpec};

use span_times::SpanTimes;
use support::{copy_dir, median, ms, BenchResult, MINIMAL, SESSION};

const REPLAY_TARGET_MS: f64 = 20.0;
/// Issue 45: a whole live minimize of the demo crash, Whittle's own work per replay.
const WHOLE_MINIMIZE_TARGET_MS: f64 = 15.0;
const MASK_TARGET_MS: f64 = 30.0;

fn main() -> BenchResult<()> {
    support::run_bench("OVERHEAD_QUICK", run)
}

async fn run(root: PathBuf, quick: bool) -> BenchResult<()> {
    let spans = SpanTimes::install();
    let reps = if quick { 5 } else { 30 };
    let parts = std::env::var("OVERHEAD_PARTS").unwrap_or_else(|_| "1,2,3,4".into());
    let part = |n: &str| parts.split(',').any(|p| p.trim() == n);

    println!("Whittle overhead (release: {})", !cfg!(debug_assertions));
    if part("1") || part("2") {
        let zero = Rig::new(&root, ModelTiming::Zero).await?;
        if part("1") {
            per_replay(&zero, reps, &spans).await?;
        }
        if part("2") {
            masking(&zero, reps).await?;
        }
        zero.hub.shutdown().await;
    }
    if part("3") || part("4") {
        let demo = Rig::new(&root, ModelTiming::Demo).await?;
        if part("3") {
            demo_waits(&demo, if quick { 1 } else { 3 }).await?;
        }
        if part("4") {
            live_view(&demo, if quick { 1 } else { 3 }).await?;
        }
        demo.hub.shutdown().await;
    }
    Ok(())
}

#[derive(Clone, Copy, PartialEq)]
enum ModelTiming {
    /// launch 0 ms, action 0 ms: only Whittle and the MCP round trips remain.
    Zero,
    /// `demo/shop.json` as shipped (600 ms launch, 250 ms per action).
    Demo,
}

/// A copy of the demo workspace and model in a temp folder, the servers running, and
/// the demo crash prepared (Phases 0–1) as the CLI would: its replay context and plan
/// kept, its device lease let go (a whole `minimize` of parts 3 and 4 claims the device
/// again, and a lease held here would refuse it as busy).
struct Rig {
    hub: Hub,
    config: Config,
    ctx: ReplayContext,
    plan: ReplayPlan,
    _dir: tempfile::TempDir,
}

impl Rig {
    async fn new(root: &Path, timing: ModelTiming) -> BenchResult<Rig> {
        let dir = tempfile::tempdir()?;
        let workspace = dir.path().join("workspace");
        copy_dir(&root.join("demo/workspace"), &workspace)?;
        let mut model: Value =
            serde_json::from_slice(&std::fs::read(root.join("demo/shop.json"))?)?;
        if timing == ModelTiming::Zero {
            model["timing"] = json!({"launch_ms": 0, "action_ms": 0});
        }
        std::fs::write(dir.path().join("shop.json"), model.to_string())?;
        let mut config: Value =
            serde_json::from_slice(&std::fs::read(root.join("demo/whittle.json"))?)?;
        // One device: the evidence-vs-fixed figure must not depend on which one is picked.
        config["mcpServers"]["sim"]["args"] =
            json!(["sim", "--model", "shop.json", "--devices", "1"]);
        let path = dir.path().join("whittle.json");
        std::fs::write(&path, serde_json::to_vec_pretty(&config)?)?;
        let mut config = Config::load(&path)?;
        if timing == ModelTiming::Zero {
            config.timing = Timing {
                settle_ms: 0,
                drain_interval_ms: 0,
                action_pause_ms: 0,
                wait: WaitMode::Evidence,
                poll_ms: 50,
            };
        }
        let hub = Hub::connect(&config).await.map_err(|e| {
            format!("{e}\n(build the servers first: cargo build --release -p whittle-servers)")
        })?;
        let LiveRun { ctx, plan, .. } = match prepare(&hub, &config, &RunSpec::new(SESSION)).await?
        {
            Prepared::Live(live) => *live,
            Prepared::Static(s) => return Err(format!("demo crash not live: {}", s.reason).into()),
        };
        Ok(Rig {
            hub,
            config,
            ctx,
            plan,
            _dir: dir,
        })
    }

    fn steps(&self, only: Option<&[u32]>) -> Vec<&ReplayStep> {
        self.plan
            .replayable
            .iter()
            .filter(|s| only.is_none_or(|o| o.contains(&s.index)))
            .collect()
    }
}

/// Successive lap times in ms.
struct Lap(Instant);

impl Lap {
    fn new() -> Lap {
        Lap(Instant::now())
    }
    fn next(&mut self) -> f64 {
        let now = Instant::now();
        let lap = ms(now - self.0);
        self.0 = now;
        lap
    }
}

fn verdict_line(label: &str, value: f64, target: f64) {
    let mark = if value <= target { "meets" } else { "MISSES" };
    println!("  {label:<48} {value:>8.2} ms  ({mark} target ≤ {target} ms)");
}

/// Part 1: Whittle's cost per replay on a device that takes no time.
async fn per_replay(rig: &Rig, reps: usize, spans: &SpanTimes) -> BenchResult<()> {
    println!("\n1. Cost per replay, zero-latency simulator, all waits 0 (median of {reps})");
    let ctx = &rig.ctx;
    for (label, only) in [
        ("replay(), minimal path (3 actions)", Some(&MINIMAL[..])),
        ("replay(), full demo path", None),
    ] {
        let steps = rig.steps(only);
        let mut times = Vec::new();
        for _ in 0..reps {
            let start = Instant::now();
            let verdict = replay(&rig.hub, ctx, &steps).await?;
            times.push(ms(start.elapsed()));
            assert!(verdict.reproduced, "the demo crash reproduces");
        }
        let label = format!("{label}, {} steps", steps.len());
        verdict_line(&label, median(times), REPLAY_TARGET_MS);
    }

    let evidence = tempfile::tempdir()?;
    // All but the crashing step: after the crash the app is gone and its screenshot is
    // omitted unmasked (an empty hierarchy), which would leave masking out of the figure.
    let steps = rig.steps(Some(&MINIMAL[..MINIMAL.len() - 1]));
    let mut times = Vec::new();
    for attempt in 1..=reps {
        let start = Instant::now();
        replay(&rig.hub, ctx, &steps).await?;
        let shot = archive_screenshot(
            &rig.hub,
            &ctx.device,
            &ctx.package,
            evidence.path(),
            attempt as u32,
            &rig.config.masking,
        )
        .await;
        times.push(ms(start.elapsed()));
        assert!(shot.src.is_some(), "screenshot archived: {shot:?}");
    }
    let attempt = median(times);
    println!("  attempt = replay() + masked screenshot (incl. device) {attempt:>7.2} ms");
    // The simulator renders and encodes the screenshot itself: that part is the device's
    // time (a phone's screencap), not Whittle's.
    let raw = RawScreenshot::new()?;
    let raw_path = raw.path().to_string_lossy().into_owned();
    let mut shots = Vec::new();
    for _ in 0..reps {
        let start = Instant::now();
        rig.hub
            .mobile()
            .save_screenshot(&ctx.device, &raw_path)
            .await?;
        shots.push(ms(start.elapsed()));
    }
    let shot = median(shots);
    println!("  of which the simulator's screenshot (device time)    {shot:>8.2} ms");
    verdict_line(
        "Whittle's own per attempt (attempt − device shot)",
        attempt - shot,
        REPLAY_TARGET_MS,
    );

    spans.reset();
    let start = Instant::now();
    let outcome = minimize(
        &rig.hub,
        &rig.config,
        RunSpec::new(SESSION),
        |_| {},
        CancellationToken::new(),
    )
    .await?;
    let took = ms(start.elapsed());
    let breakdown = spans.take();
    let s = &outcome.summary;
    assert_eq!(s.end, RunEnd::Minimized, "{s:?}");
    println!(
        "  whole live minimize: {} replays in {:.0} ms (minimal {:?})",
        s.attempts, took, s.minimal_path
    );
    let per = took / f64::from(s.attempts.max(1));
    // Every replay takes the screen after it, and the screen before its last action
    // (`evidence/before_frame.rs`): both screenshots are the device's time.
    let before_frames = breakdown.get("before_last_action").map_or(0, |&(n, _)| n);
    let shots = 1.0 + f64::from(before_frames) / f64::from(s.attempts.max(1));
    println!("  whole minimize, per replay (incl. {shots:.2} device shots) {per:>8.2} ms");
    verdict_line(
        "whole minimize, Whittle's own per replay",
        per - shots * shot,
        WHOLE_MINIMIZE_TARGET_MS,
    );
    print_breakdown(&breakdown, took, s.attempts);
    Ok(())
}

/// Where the whole minimize's time went, from the product's own spans, per replay. The
/// run's stages, then within the search what each attempt does in order; nested spans
/// are indented under the span they run in, and the remainder of each level is what no
/// span of it covers (the engine, the scheduler, events, bookkeeping).
fn print_breakdown(
    spans: &std::collections::BTreeMap<&'static str, (u32, std::time::Duration)>,
    took: f64,
    replays: u32,
) {
    let per = |name: &str| {
        spans
            .get(name)
            .map_or((0, 0.0), |&(n, d)| (n, ms(d) / f64::from(replays.max(1))))
    };
    let line = |indent: usize, name: &str| {
        let (n, each) = per(name);
        println!("    {:indent$}{name:<28} {each:>7.2} ms   ({n} spans)", "");
        each
    };
    println!("  where the whole minimize's time goes, per replay (spans; {replays} replays):");
    let stages: f64 = ["prepare", "search", "finish"]
        .iter()
        .map(|name| line(0, name))
        .sum();
    let (_, search) = per("search");
    let in_search: f64 = [
        "capture_check",
        "journal_append",
        "replay",
        "archive_screenshot",
        "before_last_action_kept",
        "evidence_step",
    ]
    .iter()
    .map(|name| line(2, name))
    .sum();
    let (_, replay) = per("replay");
    let in_replay = line(4, "before_last_action");
    println!(
        "    {:4}{:<28} {:>7.2} ms",
        "",
        "rest of replay (its MCP calls)",
        replay - in_replay
    );
    println!(
        "    {:2}{:<28} {:>7.2} ms",
        "",
        "rest of search",
        search - in_search
    );
    println!(
        "    {:<28} {:>7.2} ms",
        "outside the stages",
        took / f64::from(replays.max(1)) - stages
    );
}

/// Part 2: masking one full-size screenshot (the simulator renders 1080×2400).
async fn masking(rig: &Rig, reps: usize) -> BenchResult<()> {
    let ctx = &rig.ctx;
    // The cart screen of the demo path, where text is on screen.
    let steps = rig.steps(Some(&[10, 11]));
    replay(&rig.hub, ctx, &steps).await?;
    let raw = RawScreenshot::new()?;
    let saved = rig
        .hub
        .mobile()
        .save_screenshot(&ctx.device, &raw.path().to_string_lossy())
        .await?;
    let hierarchy = rig.hub.ui().get_hierarchy(&ctx.device).await?;
    let bytes = std::fs::metadata(raw.path())?.len();
    println!(
        "\n2. Masking one {}×{} PNG ({} KiB, {} elements; median of {reps})",
        saved.width,
        saved.height,
        bytes / 1024,
        hierarchy.elements.len()
    );
    let out_dir = tempfile::tempdir()?;
    let out = out_dir.path().join("masked.png");
    let patterns = rig.config.masking.compile_id_patterns()?;

    // The pipeline as it was (every screenshot converted to RGBA), step by step, against
    // `mask_screenshot` as it is, in the same process on the same image.
    let mut parts: [Vec<f64>; 6] = Default::default();
    let mut whole = Vec::new();
    for _ in 0..reps {
        let mut lap = Lap::new();
        let file = std::fs::read(raw.path())?;
        parts[0].push(lap.next());
        let decoded = image::load_from_memory(&file)?;
        parts[1].push(lap.next());
        let mut img = decoded.to_rgba8();
        parts[2].push(lap.next());
        let masks = auto_masks(&hierarchy, &patterns);
        burn_in(&mut img, &masks, rig.config.masking.style);
        parts[3].push(lap.next());
        let mut png = Vec::new();
        img.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)?;
        parts[4].push(lap.next());
        whittle_service::atomic::write_atomic(
            &out,
            &png,
            whittle_service::atomic::FileMode::Private,
        )?;
        parts[5].push(lap.next());

        let t = Instant::now();
        let capture = ShotMoment::still(Some(&hierarchy), &ctx.package);
        mask_screenshot(&raw, &capture, &[], &rig.config.masking, &out)?;
        whole.push(ms(t.elapsed()));
    }
    let [read, decode, convert, burn, encode, write] = parts.map(median);
    let before: f64 = [read, decode, convert, burn, encode, write].iter().sum();
    println!(
        "  converting to RGBA first (as before): read {read:.2} · decode {decode:.2} · to RGBA {convert:.2} · masks+burn {burn:.2} · encode {encode:.2} · atomic write {write:.2} = {before:.2} ms"
    );
    let now = median(whole);
    println!(
        "  masked in the decoded format (now): {now:.2} ms, {:.2}x the time",
        now / before
    );
    println!(
        "  archived PNG: {} KiB",
        std::fs::metadata(&out)?.len() / 1024
    );
    verdict_line(
        "mask_screenshot (decode+masks+burn+encode+write)",
        now,
        MASK_TARGET_MS,
    );
    Ok(())
}

/// Part 3: the demo crash on the demo device timing, `evidence` against `fixed`.
async fn demo_waits(rig: &Rig, reps: usize) -> BenchResult<()> {
    let t = rig.ctx.timing;
    println!(
        "\n3. Demo crash per replay, demo device timing; settle {} · pause {} · drain interval {} ms (median of {reps})",
        t.settle_ms, t.action_pause_ms, t.drain_interval_ms
    );
    for (label, only) in [("minimal path", Some(&MINIMAL[..])), ("full path", None)] {
        let steps = rig.steps(only);
        let mut per_mode = Vec::new();
        for wait in [WaitMode::Evidence, WaitMode::Fixed] {
            let mut ctx = rig.ctx.clone();
            ctx.timing.wait = wait;
            let mut times = Vec::new();
            for _ in 0..reps {
                let start = Instant::now();
                let verdict = replay(&rig.hub, &ctx, &steps).await?;
                times.push(ms(start.elapsed()));
                assert!(verdict.reproduced, "{wait:?}: {verdict:?}");
            }
            per_mode.push(median(times));
        }
        println!(
            "  {label:<14} {:>2} actions: evidence {:>6.0} ms, fixed {:>6.0} ms, ratio {:.2}",
            steps.len(),
            per_mode[0],
            per_mode[1],
            per_mode[0] / per_mode[1]
        );
    }
    Ok(())
}

/// Part 4: the live view's cost on the demo timing. Runs alternate (plain, watched, plain,
/// ...) so a drift of the machine lands on both.
async fn live_view(rig: &Rig, reps: usize) -> BenchResult<()> {
    println!("\n4. Live view: whole minimize of the demo crash, demo timing, plain against watched ({reps} each, interleaved)");
    let mut per_replay: [Vec<f64>; 2] = Default::default();
    let mut frames_per_s = Vec::new();
    for _ in 0..reps {
        for watched in [false, true] {
            let frames = std::sync::atomic::AtomicU32::new(0);
            let start = Instant::now();
            let outcome = if watched {
                let sink = Watched {
                    events: |_: RunEvent| {},
                    frames: |_: LiveFrame| {
                        frames.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    },
                };
                minimize(
                    &rig.hub,
                    &rig.config,
                    RunSpec::new(SESSION),
                    sink,
                    CancellationToken::new(),
                )
                .await?
            } else {
                minimize(
                    &rig.hub,
                    &rig.config,
                    RunSpec::new(SESSION),
                    |_| {},
                    CancellationToken::new(),
                )
                .await?
            };
            let took = ms(start.elapsed());
            let s = &outcome.summary;
            assert_eq!(s.end, RunEnd::Minimized, "{s:?}");
            per_replay[usize::from(watched)].push(took / f64::from(s.attempts.max(1)));
            if watched {
                let n = frames.load(std::sync::atomic::Ordering::Relaxed);
                frames_per_s.push(f64::from(n) / (took / 1000.0));
            }
        }
    }
    let [plain, watched] = per_replay.map(median);
    println!("  plain   {plain:>8.0} ms per replay");
    println!(
        "  watched {watched:>8.0} ms per replay, {:.1} frames/s",
        median(frames_per_s)
    );
    let ratio = watched / plain;
    println!(
        "  ratio {ratio:.3} (target <= 1.05): {}",
        if ratio <= 1.05 { "met" } else { "NOT met" }
    );
    Ok(())
}
