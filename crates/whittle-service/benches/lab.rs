//! Device labs (devices on other machines, over MCP streamable HTTP), measured against
//! the real simulator:
//!
//! 1. Whittle's own cost per replay over HTTP against stdio: a zero-latency device
//!    (launch 0 ms, actions 0 ms), every wait 0, the same host process served either way
//!    (`whittle-servers sim` over stdio, `… --listen 127.0.0.1:0` over loopback HTTP);
//!    and below it the transports' floor without MCP (`lab/transport_floor.rs`);
//! 2. the demo crash's wall-clock (demo device timing and `demo/whittle.json`'s waits)
//!    on 1 local device over stdio against 4 devices on 2 lab hosts whose every HTTP
//!    request is held 20 ms (`--delay-ms 20`, a simulated network round trip), and 1
//!    device on one such host, all in one run, as ratios;
//! 3. a foreign streamable-HTTP server (the official Python SDK's, `tests/peers/python/
//!    whittle_peer.py --http`, SSE and JSON answers): one tool call from Whittle's client
//!    (`keep_alive` unset, as a user leaves it, then forced on and off) against one from
//!    the SDK's own client (`call_timing.py`), on the same server.
//!    Skipped without the peers' venv (`scripts/setup` builds `.venv-peers/`).
//!
//! ```sh
//! cargo build -p whittle-servers
//! cargo bench -p whittle-service --bench lab --profile dev    # LAB_QUICK=1: fewer repetitions
//! LAB_PARTS=1,3 cargo bench -p whittle-service --bench lab      # only parts 1 and 3
//! ```
//! The servers binary is found next to the bench executable's folder, so build it in
//! the same profile as the bench.

#[path = "support/mod.rs"]
mod support;
#[path = "lab/transport_floor.rs"]
mod transport_floor;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Instant;

use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;
use whittle_core::plan::ReplayStep;
use whittle_service::client::Hub;
use whittle_service::config::{resolve_bundled_command, Config, Timing, WaitMode};
use whittle_service::replay::replay;
use whittle_service::run::{minimize, prepare, Prepared, RunEnd, RunSpec};

use support::{copy_dir, median, ms, BenchResult, MINIMAL, SESSION};

const TOKEN: &str = "bench-lab-token-0123456789abcdef";
/// The simulated network round trip per HTTP request.
const RTT_MS: u32 = 20;

fn main() -> BenchResult<()> {
    support::run_bench("LAB_QUICK", run)
}

async fn run(root: PathBuf, quick: bool) -> BenchResult<()> {
    let reps = if quick { 10 } else { 40 };
    println!("Device lab (release: {})", !cfg!(debug_assertions));
    // `LAB_PARTS=1,3`: only those parts (all three by default).
    let parts = std::env::var("LAB_PARTS").unwrap_or_else(|_| "1,2,3".into());
    let wanted = |part: &str| parts.split(',').any(|p| p.trim() == part);
    if wanted("1") {
        overhead(&root, reps).await?;
    }
    if wanted("2") {
        wall_clock(&root, if quick { 1 } else { 3 }).await?;
    }
    if wanted("3") {
        foreign(&root, reps * 5).await?;
    }
    Ok(())
}

/// A server process reached by URL (a lab host, the Python peer); killed on drop.
struct Host {
    url: String,
    child: Child,
}

impl Host {
    /// A lab host: `whittle-servers sim --listen 127.0.0.1:0`.
    fn start(dir: &Path, devices: u32, delay_ms: u32) -> BenchResult<Host> {
        let exe = resolve_bundled_command().ok_or("build whittle-servers first")?;
        let mut command = Command::new(exe);
        command
            .current_dir(dir)
            .args(["sim", "--model", "shop.json", "--seed", "7"])
            .args(["--devices", &devices.to_string(), "--listen", "127.0.0.1:0"])
            .args(["--delay-ms", &delay_ms.to_string()])
            .env("WHITTLE_SERVER_TOKEN", TOKEN)
            .env("RUST_LOG", "warn");
        Host::spawn(&mut command, "whittle-servers: listening on ")
    }

    /// The Python SDK's streamable-HTTP server (`whittle_peer.py --http`).
    fn python_peer(python: &Path, root: &Path, json_response: bool) -> BenchResult<Host> {
        let mut command = Command::new(python);
        command
            .arg(root.join("tests/peers/python/whittle_peer.py"))
            .arg("--http");
        if json_response {
            command.arg("--json-response");
        }
        Host::spawn(&mut command, "listening on ")
    }

    /// Starts `command` and reads the URL it announces on its first line after `prefix`.
    fn spawn(command: &mut Command, prefix: &str) -> BenchResult<Host> {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let mut line = String::new();
        BufReader::new(child.stdout.take().ok_or("no stdout")?).read_line(&mut line)?;
        let url = line
            .trim()
            .strip_prefix(prefix)
            .ok_or_else(|| format!("no URL line: {line:?}"))?
            .to_string();
        Ok(Host { url, child })
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Where the device roles are served.
enum Devices<'a> {
    Stdio { devices: u32 },
    Lab(&'a [Host]),
}

/// A copy of the demo workspace and model, and a config for `devices`.
struct Setup {
    dir: tempfile::TempDir,
}

impl Setup {
    fn new(root: &Path, zero_latency: bool) -> BenchResult<Setup> {
        let dir = tempfile::tempdir()?;
        copy_dir(&root.join("demo/workspace"), &dir.path().join("workspace"))?;
        let mut model: Value =
            serde_json::from_slice(&std::fs::read(root.join("demo/shop.json"))?)?;
        if zero_latency {
            model["timing"] = json!({"launch_ms": 0, "action_ms": 0});
        }
        std::fs::write(dir.path().join("shop.json"), model.to_string())?;
        Ok(Setup { dir })
    }

    fn path(&self) -> PathBuf {
        self.dir.path().to_path_buf()
    }

    fn config(&self, root: &Path, devices: Devices, zero_waits: bool) -> BenchResult<Config> {
        let mut config: Value =
            serde_json::from_slice(&std::fs::read(root.join("demo/whittle.json"))?)?;
        match devices {
            Devices::Stdio { devices } => {
                config["mcpServers"]["sim"]["args"] = json!([
                    "sim",
                    "--model",
                    "shop.json",
                    "--seed",
                    "7",
                    "--devices",
                    devices.to_string()
                ]);
            }
            Devices::Lab(hosts) => {
                let mut names = Vec::new();
                for (i, host) in hosts.iter().enumerate() {
                    let name = format!("lab{}", i + 1);
                    config["mcpServers"][&name] = json!({"url": host.url,
                        "headers": {"Authorization": format!("Bearer {TOKEN}")}});
                    names.push(name);
                }
                for role in ["mobile", "ui", "log"] {
                    config["roles"][role] = json!(names);
                }
            }
        }
        let path = self.dir.path().join("whittle.json");
        std::fs::write(&path, serde_json::to_vec_pretty(&config)?)?;
        let mut config = Config::load(&path)?;
        if zero_waits {
            config.timing = Timing {
                settle_ms: 0,
                drain_interval_ms: 0,
                action_pause_ms: 0,
                wait: WaitMode::Evidence,
                poll_ms: 50,
            };
        }
        Ok(config)
    }
}

async fn connect(config: &Config) -> BenchResult<Hub> {
    Ok(Hub::connect(config)
        .await
        .map_err(|e| format!("{e}\n(build the servers first: cargo build -p whittle-servers)"))?)
}

/// Medians of `replay()` on the minimal and the full path, and of one tool call, per
/// hub. The hubs take turns, one replay (or call) each, so whatever else the machine
/// does falls on every transport alike.
async fn per_replay(hubs: &[(&Hub, &Config)], reps: usize) -> BenchResult<Vec<[f64; 3]>> {
    let mut prepared = Vec::new();
    for (hub, config) in hubs {
        match prepare(hub, config, &RunSpec::new(SESSION)).await? {
            Prepared::Live(live) => prepared.push(*live),
            Prepared::Static(s) => return Err(format!("demo crash not live: {}", s.reason).into()),
        }
    }
    let mut times = vec![[Vec::new(), Vec::new(), Vec::new()]; hubs.len()];
    for (at, only) in [Some(&MINIMAL[..]), None].into_iter().enumerate() {
        // Each hub's steps of this path, chosen once for all its repetitions.
        let paths: Vec<Vec<&ReplayStep>> = prepared
            .iter()
            .map(|live| {
                live.plan
                    .replayable
                    .iter()
                    .filter(|s| only.is_none_or(|o| o.contains(&s.index)))
                    .collect()
            })
            .collect();
        for _ in 0..reps {
            for ((((hub, _), live), steps), times) in
                hubs.iter().zip(&prepared).zip(&paths).zip(&mut times)
            {
                let start = Instant::now();
                let verdict = replay(hub, &live.ctx, steps).await?;
                times[at].push(ms(start.elapsed()));
                assert!(verdict.reproduced, "the demo crash reproduces");
            }
        }
    }
    for _ in 0..reps * 5 {
        for ((hub, _), times) in hubs.iter().zip(&mut times) {
            let start = Instant::now();
            hub.log().list_captures().await?;
            times[2].push(ms(start.elapsed()));
        }
    }
    Ok(times.into_iter().map(|t| t.map(median)).collect())
}

async fn whole_minimize(hub: &Hub, config: &Config, devices: u32) -> BenchResult<(f64, u32)> {
    let mut opts = RunSpec::new(SESSION);
    opts.devices = std::num::NonZeroU32::new(devices).ok_or("a pool of at least one device")?;
    let start = Instant::now();
    let outcome = minimize(hub, config, opts, |_| {}, CancellationToken::new()).await?;
    let took = ms(start.elapsed());
    let s = &outcome.summary;
    assert_eq!(s.end, RunEnd::Minimized, "{s:?}");
    Ok((took, s.attempts))
}

/// Part 1: the transport's share of a replay on a device that takes no time.
async fn overhead(root: &Path, reps: usize) -> BenchResult<()> {
    println!("\n1. Whittle's own cost per replay, zero-latency simulator, all waits 0 (median of {reps})");
    let setup = Setup::new(root, true)?;
    let stdio_config = setup.config(root, Devices::Stdio { devices: 1 }, true)?;
    let stdio_hub = connect(&stdio_config).await?;
    let host = [Host::start(&setup.path(), 1, 0)?];
    let http_config = setup.config(root, Devices::Lab(&host), true)?;
    let http_hub = connect(&http_config).await?;
    let medians = per_replay(
        &[(&stdio_hub, &stdio_config), (&http_hub, &http_config)],
        reps,
    )
    .await?;
    stdio_hub.shutdown().await;
    http_hub.shutdown().await;
    let (stdio, http) = (medians[0], medians[1]);

    println!("  {:<38} {:>9} {:>9} {:>7}", "", "stdio", "HTTP", "ratio");
    for (at, label) in [
        "replay(), minimal path (3 actions)",
        "replay(), full path (8 actions)",
        "one tool call (list_captures)",
    ]
    .into_iter()
    .enumerate()
    {
        println!(
            "  {label:<38} {:>6.2} ms {:>6.2} ms {:>7.2}",
            stdio[at],
            http[at],
            http[at] / stdio[at]
        );
    }
    let (http_floor, pipe_floor) = transport_floor::transport_floor(reps * 50).await?;
    println!(
        "  {:<38} {:>6.3} ms {:>6.3} ms {:>7.2}",
        "floor without MCP (pipe; HTTP request)",
        pipe_floor,
        http_floor,
        http_floor / pipe_floor
    );
    Ok(())
}

/// Part 2: the demo crash end to end, local against a lab with a network in between.
/// The three setups take turns, so load from other work on the machine falls on all.
async fn wall_clock(root: &Path, reps: usize) -> BenchResult<()> {
    println!(
        "\n2. Demo crash wall-clock, demo device timing, {RTT_MS} ms per HTTP request to a lab host (median of {reps}, interleaved)"
    );
    let setup = Setup::new(root, false)?;
    let one_host = [Host::start(&setup.path(), 1, RTT_MS)?];
    let two_hosts = [
        Host::start(&setup.path(), 2, RTT_MS)?,
        Host::start(&setup.path(), 2, RTT_MS)?,
    ];
    let runs = [
        ("1 local device, stdio", Devices::Stdio { devices: 1 }, 1),
        ("1 device on 1 lab host", Devices::Lab(&one_host), 1),
        ("4 devices on 2 lab hosts", Devices::Lab(&two_hosts), 4),
    ];
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); runs.len()];
    let mut attempts = vec![0; runs.len()];
    for _ in 0..reps {
        for (at, (_, devices, pool)) in runs.iter().enumerate() {
            let devices = match devices {
                Devices::Stdio { devices } => Devices::Stdio { devices: *devices },
                Devices::Lab(hosts) => Devices::Lab(hosts),
            };
            let config = setup.config(root, devices, false)?;
            let hub = connect(&config).await?;
            let (took, n) = whole_minimize(&hub, &config, *pool).await?;
            hub.shutdown().await;
            times[at].push(took);
            attempts[at] = n;
        }
    }
    let medians: Vec<f64> = times.into_iter().map(median).collect();
    for (at, (label, _, _)) in runs.iter().enumerate() {
        println!(
            "  {label:<26} {:>8.0} ms  {:>3} replays  ratio to 1 local {:.2}",
            medians[at],
            attempts[at],
            medians[at] / medians[0]
        );
    }
    Ok(())
}

/// Part 3: one tool call to a server Whittle did not write, from Whittle's client (with
/// `keep_alive` unset, the default, which chooses from the server's initialize answer;
/// then with its connection kept alive and with one connection per call, each forced)
/// and from the server's own SDK's client, SSE and JSON answers.
async fn foreign(root: &Path, reps: usize) -> BenchResult<()> {
    let python = root.join(".venv-peers/bin/python");
    if !python.exists() {
        println!("\n3. Foreign server: skipped (no .venv-peers; run scripts/setup)");
        return Ok(());
    }
    println!("\n3. A foreign streamable-HTTP server (Python SDK under uvicorn), one tool call (median of {reps})");
    println!(
        "  {:<14} {:>16} {:>16} {:>16} {:>12} {:>7}",
        "", "Whittle default", "keep_alive true", "keep_alive false", "Python SDK", "ratio"
    );
    let setup = Setup::new(root, true)?;
    for (label, json_response) in [("SSE answers", false), ("JSON answers", true)] {
        let peer = Host::python_peer(&python, root, json_response)?;
        let mut ours = [0.0; 3];
        for (at, keep_alive) in [None, Some(true), Some(false)].into_iter().enumerate() {
            let mut config: Value =
                serde_json::from_slice(&std::fs::read(root.join("demo/whittle.json"))?)?;
            let mut server = json!({ "url": peer.url });
            if let Some(keep_alive) = keep_alive {
                server["keep_alive"] = json!(keep_alive);
            }
            config["mcpServers"]["peer"] = server;
            for role in ["mobile", "ui", "log"] {
                config["roles"][role] = json!("peer");
            }
            let path = setup.path().join("whittle.json");
            std::fs::write(&path, serde_json::to_vec_pretty(&config)?)?;
            let hub = connect(&Config::load(&path)?).await?;
            hub.log().list_captures().await?;
            let mut calls = Vec::new();
            for _ in 0..reps {
                let start = Instant::now();
                hub.log().list_captures().await?;
                calls.push(ms(start.elapsed()));
            }
            hub.shutdown().await;
            ours[at] = median(calls);
        }
        let theirs: f64 = String::from_utf8(
            Command::new(&python)
                .arg(root.join("tests/peers/python/call_timing.py"))
                .args([&peer.url, "list_captures", &reps.to_string()])
                .output()?
                .stdout,
        )?
        .trim()
        .parse()?;
        println!(
            "  {label:<14} {:>13.2} ms {:>13.2} ms {:>13.2} ms {theirs:>9.2} ms {:>7.2}",
            ours[0],
            ours[1],
            ours[2],
            ours[0] / theirs
        );
    }
    Ok(())
}
