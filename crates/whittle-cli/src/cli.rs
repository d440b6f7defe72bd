//! The `whittle` command line (docs/design.md §8).

use std::path::PathBuf;

use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "whittle",
    version,
    about = "Minimize the reproduction path of an Android crash by live replays"
)]
pub struct Cli {
    /// whittle.json (default: $WHITTLE_CONFIG, then the bundled demo config in a source
    /// checkout, then the OS config folder's whittle/whittle.json).
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Minimize a session's crash path by live replays (Phases 0–5 (docs/design.md §13)).
    Minimize(MinimizeCommand),
    /// List the workspace's sessions.
    Sessions {
        /// Print one JSON object: {workspace, sessions: [{session_id, status, run_state,
        /// crashes, …}], exit}.
        #[arg(long)]
        json: bool,
    },
    /// Group a session's crashes by signature.
    Analyze {
        /// Session id, or an absolute session folder inside the workspace.
        session: String,
        /// Print one JSON object: {session_id, crash_groups, crashes (each with its
        /// replay plan), minimized, exit}.
        #[arg(long)]
        json: bool,
    },
    /// Check that every role's server starts and has its tools, and list devices.
    Doctor {
        /// Also check that this app is installed (non-system) on every Android device.
        #[arg(long, value_name = "PKG")]
        package: Option<String>,
        /// Print the checks as JSON (name, subject, server, status, finding, detail, fix).
        #[arg(long)]
        json: bool,
    },
    /// Export an evidence session as a bug-ticket bundle (or, with --markdown, print a
    /// ticket-ready summary).
    Export {
        evidence_session: String,
        #[arg(long, value_name = "DIR", required_unless_present = "markdown")]
        out: Option<PathBuf>,
        /// Print the ticket as Markdown (steps, confidence, proof, device and app) instead
        /// of writing a bundle.
        #[arg(long)]
        markdown: bool,
        /// Bundle folder name (default: the evidence session id).
        #[arg(long)]
        name: Option<String>,
        /// Print one JSON object: {bundle_dir, exit} (with --markdown: {evidence_session,
        /// markdown, exit}).
        #[arg(long)]
        json: bool,
    },
    /// Replay a bundle's minimal path N times on a device.
    Verify {
        bundle: PathBuf,
        #[arg(long, default_value_t = 3)]
        runs: u32,
        #[arg(long)]
        device: Option<String>,
        /// Print one JSON object: {verdict, reproduced, runs, device, package,
        /// app_version, target_fingerprint, replays, exit}.
        #[arg(long)]
        json: bool,
    },
    /// Benchmark the search strategies on generated scenarios (in-process simulator model).
    Bench(BenchCommand),
    /// Import a Maestro flow or a Firebase Robo script as a session of the workspace.
    Import(ImportCommand),
    /// Serve sessions, analysis, minimize runs and their evidence as MCP tools over
    /// stdio, for a coding agent (tools: sessions, analyze, minimize, minimize_all,
    /// resume, past_runs, result, screenshot, ticket_markdown, export, verify, import,
    /// doctor, devices; the evidence's masked pictures and files as whittle://
    /// resources).
    Mcp,
    /// Write a finished run's result into its session's crashes.minimized.json, after
    /// checking its evidence as the app does: the journal's seal, and steps.jsonl and
    /// result.json against it (for a run never approved: --approve left out, or the run
    /// stopped before its write-back).
    ///
    /// A run made elsewhere — a CI runner, a colleague's machine: another Whittle
    /// installation sealed its journal — is refused (exit 3, `--json`: code
    /// `not_proven_here`, `next: {action: "reprove"}`), since nothing here proves it.
    /// Re-prove it on a device here with `whittle minimize --reprove <EVIDENCE_SESSION>`
    /// (add --approve to approve the new run once it is proven), then approve that run
    /// (docs/ci.md, "Review and approve a CI run").
    Approve {
        /// The run's evidence session (id, or its folder inside the workspace).
        evidence_session: String,
        /// The crash the run minimized, to make sure the right one is approved.
        #[arg(long)]
        crash: Option<String>,
        /// Replace a newer approval of the crash (one approved after this run started,
        /// from another run); without it such an approval is kept and printed.
        #[arg(long)]
        replace: bool,
        /// Print one JSON object: {status, sidecar, crash_id, entry}; refused: {status,
        /// code, error, next?, held?, replacing?, exit}.
        #[arg(long)]
        json: bool,
    },
    /// List a session's past minimize runs per crash, as the app shows them.
    Runs {
        /// Session id, or an absolute session folder inside the workspace.
        session: String,
        /// Print one JSON object: {session, crashes: [{crash_id, runs}]}.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, clap::Args)]
pub struct ImportCommand {
    /// `maestro` (a flow, YAML) or `robo` (a Robo script, JSON).
    pub format: whittle_core::import::FlowFormat,
    /// The flow file.
    pub file: PathBuf,
    /// The workspace to write the session into (default: the config's).
    #[arg(long, value_name = "DIR")]
    pub workspace: Option<PathBuf>,
    /// The session's name (default: the flow's name, else the file's).
    #[arg(long)]
    pub name: Option<String>,
    /// The app's package, when the file does not name it (Robo scripts never do).
    #[arg(long)]
    pub package: Option<String>,
    /// Replay the flow once on a device and record the crashes it causes.
    #[arg(long)]
    pub record: bool,
    /// The device to record on (default: as minimize chooses, the first online device
    /// with the app).
    #[arg(long, requires = "record")]
    pub device: Option<String>,
    /// A Maestro flow's variable, as `maestro test -e NAME=value` gives it (repeatable).
    #[arg(short = 'e', long = "env", value_name = "NAME=VALUE", value_parser = variable)]
    pub variables: Vec<(String, String)>,
    /// A value that must never be stored: a step typing it is kept redacted (repeatable).
    #[arg(long = "private", value_name = "VALUE")]
    pub private_values: Vec<String>,
    /// Print one JSON object: {"session_id", …}.
    #[arg(long)]
    pub json: bool,
}

/// `NAME=value`, split at the first `=`; a name is letters, digits and `_`.
// A String error on purpose: clap only prints it after "invalid value … for '--env'".
fn variable(s: &str) -> Result<(String, String), String> {
    let (name, value) = s
        .split_once('=')
        .ok_or_else(|| format!("expected NAME=value, got {s:?}"))?;
    if !whittle_core::import::maestro::is_variable_name(name) {
        return Err(format!(
            "{name:?} is not a variable name (letters, digits and _)"
        ));
    }
    Ok((name.to_owned(), value.to_owned()))
}

#[derive(Debug, clap::Args)]
pub struct MinimizeCommand {
    /// Session id, or an absolute session folder inside the workspace.
    #[arg(required_unless_present_any = ["resume", "all", "reprove"])]
    pub session: Option<String>,
    /// Minimize every crash group of the workspace not yet minimized (side by side, one
    /// on each online device, unless --device or --devices above 1; else one after
    /// another), and end with a summary table (--json: one object per crash group per
    /// line). A crash group whose approved result, or newest run's result not approved
    /// yet, still validates is skipped unless --include-minimized. Ctrl-C cancels the
    /// whole queue.
    #[arg(long, conflicts_with_all = ["session", "resume", "crash"])]
    pub all: bool,
    /// With --all: the workspace to minimize (default: the config's).
    #[arg(long, value_name = "DIR", requires = "all")]
    pub workspace: Option<PathBuf>,
    /// With --all: also queue the crash groups already minimized (approved, or minimized
    /// and not approved yet, unchanged since).
    #[arg(long, requires = "all")]
    pub include_minimized: bool,
    /// With --all: list the crash groups it would minimize, and run none (--json: one
    /// object {groups: [{session, crash_id, label, package, skip, resume}], unreadable,
    /// exit}, e.g. for a CI job matrix; docs/ci.md).
    #[arg(long, requires = "all", conflicts_with = "approve")]
    pub list: bool,
    /// Continue an interrupted (or failed, or cancelled) run in its evidence session: the
    /// attempts it recorded are not replayed again. Session, crash, strategy and budget
    /// are the run's own; --device and --devices may change.
    #[arg(long, value_name = "EVIDENCE_SESSION", conflicts_with_all = ["session", "crash", "package"])]
    pub resume: Option<String>,
    /// Re-prove a run made elsewhere (a CI runner's, a colleague's: its evidence copied
    /// into this workspace with its original session): a new run of the same crash
    /// starts from that run's minimal path and proves it on a device here (every single
    /// deletion 0/3, the final path 3/3), sealed by this installation, so it can be
    /// approved. What `whittle approve` offers when it refuses a run it cannot prove.
    #[arg(long, value_name = "EVIDENCE_SESSION", conflicts_with_all = ["session", "crash", "resume", "all"])]
    pub reprove: Option<String>,
    /// Which crash, when the session has several distinct ones.
    #[arg(long)]
    pub crash: Option<String>,
    /// Replay budget; an integer >= 1 (default 30).
    #[arg(long, allow_negative_numbers = true)]
    pub max_replays: Option<String>,
    #[arg(long)]
    pub device: Option<String>,
    /// Replay on up to N devices at once: the chosen device plus other online Android
    /// devices with the app installed. The search's decisions stay the strategy's
    /// (default 1).
    #[arg(long, allow_negative_numbers = true)]
    pub devices: Option<String>,
    /// The app package, when the session does not name it.
    #[arg(long)]
    pub package: Option<String>,
    /// While another run holds the device (a Whittle process here, or another client of
    /// its lab host), wait up to this long for it ("90s", "5m", "1h") instead of being
    /// refused at once with `device_busy`.
    #[arg(long, value_name = "DURATION", value_parser = humantime::parse_duration)]
    pub wait_device: Option<std::time::Duration>,
    /// Search strategy: `seed` (the default), `binary` (fewer replays, the same proof)
    /// or `flaky` (for crashes that show only sometimes: every verdict sampled, never
    /// rated high); see docs/performance.md.
    #[arg(long)]
    pub strategy: Option<whittle_core::strategy::SearchStrategy>,
    /// Replay the full path up to N times until it reproduces (each try counts against
    /// the budget; a miss then a hit marks the crash flaky). 1, the default, is the seed's
    /// single try. A resumed run keeps the tries it started with.
    #[arg(long, allow_negative_numbers = true)]
    pub baseline_tries: Option<String>,
    /// Print one JSON object instead of the report (with --all: one per crash group, one
    /// a line).
    #[arg(long)]
    pub json: bool,
    /// Write the minimized path to crashes.minimized.json without asking (with --all:
    /// every item's result that may be written back; without it, --all writes nothing).
    /// An approval of the crash made after the run started (another run's) is kept and
    /// printed, and the write-back refused, unless --replace.
    #[arg(long)]
    pub approve: bool,
    /// With --approve: replace an approval of the crash made after this run started.
    #[arg(long, requires = "approve")]
    pub replace: bool,
}

#[derive(Debug, clap::Args)]
pub struct BenchCommand {
    /// Only this strategy (seed, binary or flaky); default: every strategy.
    #[arg(long)]
    pub strategy: Option<whittle_core::strategy::SearchStrategy>,
    /// Measure flaky crashes instead of the scenario suite: crash rates 90/70/50 % (and
    /// 100 % to compare with), n = 16/32/64, k = 1–3, `--seeds` sessions per row.
    #[arg(long)]
    pub flaky: bool,
    /// Sessions per row of the flaky table.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub seeds: u32,
    /// Baseline tries in the flaky table (every strategy gets the same).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub baseline_tries: u32,
    /// Devices of the simulated pool: the parallel scheduler runs independent replays on
    /// them at once (wall-clock is reported against the seed on one device).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub devices: u32,
    /// Large replay budget (the seed's default 30 is always reported too).
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_replays: u32,
    /// Write the full report as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write an SVG plot of replays vs session size per strategy.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// A small suite (for tests).
    #[arg(long)]
    pub quick: bool,
}
