//! A temp workspace with sessions written here, a simulator model with zero timing,
//! and a whittle.json pointing at the real `whittle-servers` binary; `whittle` itself
//! is spawned as the user would run it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::{json, Value};
use whittle_service::device_lease::LEASE_DIR_ENV;

mod app_model;
mod demo_checkout;
mod interrupt;
mod killed_run;
mod output;
mod recorded_session;
mod run;

pub use app_model::*;
pub use demo_checkout::*;
pub use interrupt::*;
pub use killed_run::*;
pub use output::*;
pub use recorded_session::*;
pub use run::*;

pub const PKG: &str = "com.example.shop";
/// A value typed into a redacted password step; must never appear anywhere.
pub const SECRET_PASSWORD: &str = "S3cr3t-Pa55word!";
/// An e-mail typed into the e-mail field (a sensitive step, skipped).
pub const SECRET_EMAIL: &str = "qa.tester@example.com";

/// `whittle-servers` next to `whittle`, built once if it is missing or older than its
/// sources. (`cargo test --workspace` has built it already, with the workspace's feature
/// set; building it again alone would resolve other features and recompile it.)
pub fn servers_binary() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let whittle = PathBuf::from(env!("CARGO_BIN_EXE_whittle"));
        let dir = whittle.parent().expect("bin dir").to_path_buf();
        let bin = dir.join("whittle-servers");
        if is_fresh(&bin) {
            return bin;
        }
        let target = dir.parent().expect("target dir").to_path_buf();
        let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["build", "-p", "whittle-servers", "--bin", "whittle-servers"])
            .env("CARGO_TARGET_DIR", &target)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .expect("cargo build whittle-servers");
        assert!(status.success(), "building whittle-servers failed");
        assert!(bin.is_file(), "{} missing", bin.display());
        bin
    })
    .clone()
}

/// The binary exists and no source of the servers or the crates they use is newer.
fn is_fresh(bin: &Path) -> bool {
    let Ok(built) = std::fs::metadata(bin).and_then(|m| m.modified()) else {
        return false;
    };
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut newest = std::time::SystemTime::UNIX_EPOCH;
    let mut stack: Vec<PathBuf> = ["whittle-servers", "whittle-core"]
        .iter()
        .flat_map(|c| {
            [
                crates.join(c).join("src"),
                crates.join(c).join("Cargo.toml"),
            ]
        })
        .collect();
    while let Some(path) = stack.pop() {
        let Ok(meta) = std::fs::metadata(&path) else {
            continue;
        };
        if meta.is_dir() {
            if let Ok(entries) = std::fs::read_dir(&path) {
                stack.extend(entries.flatten().map(|e| e.path()));
            }
        } else if let Ok(modified) = meta.modified() {
            newest = newest.max(modified);
        }
    }
    newest <= built
}

pub struct Env {
    pub dir: tempfile::TempDir,
    pub workspace: PathBuf,
    pub config: PathBuf,
}

impl Env {
    /// `sim_args` are extra simulator arguments (faults, seed); `timing` the config's.
    pub fn new(model: Value, sim_args: &[&str], timing: Value) -> Env {
        let dir = tempfile::tempdir().unwrap();
        let workspace = dir.path().join("workspace");
        std::fs::create_dir_all(workspace.join("sessions")).unwrap();
        let model_path = dir.path().join("model.json");
        std::fs::write(&model_path, serde_json::to_vec_pretty(&model).unwrap()).unwrap();
        let servers = servers_binary();
        let mut args = vec![
            json!("sim"),
            json!("--model"),
            json!(model_path),
            json!("--devices"),
            json!("1"),
        ];
        args.extend(sim_args.iter().map(|a| json!(a)));
        let config = json!({
            "workspace": workspace,
            "mcpServers": {
                "whittle": {"command": servers, "args": ["all", "--workspace", workspace]},
                "sim": {"command": servers, "args": args}
            },
            "roles": {"report": "whittle", "analyzer": "whittle", "mobile": "sim", "ui": "sim", "log": "sim"},
            "timing": timing
        });
        let config_path = dir.path().join("whittle.json");
        std::fs::write(&config_path, serde_json::to_vec_pretty(&config).unwrap()).unwrap();
        Env {
            dir,
            workspace,
            config: config_path,
        }
    }

    pub fn fast(sim_args: &[&str]) -> Env {
        Env::new(model(), sim_args, fast_timing())
    }

    /// `model` with the fast timing and no extra simulator arguments.
    pub fn with_model(model: Value) -> Env {
        Env::new(model, &[], fast_timing())
    }

    pub fn session_dir(&self, id: &str) -> PathBuf {
        self.workspace.join("sessions").join(id)
    }

    /// Writes a session: meta, steps, and one crash with the given stack and path.
    pub fn add_session(
        &self,
        id: &str,
        steps: &[Value],
        crash_stack: &str,
        repro_path: &[u32],
    ) -> PathBuf {
        let dir = self.session_dir(id);
        std::fs::create_dir_all(&dir).unwrap();
        let meta = json!({"session_id": id, "name": id, "created_at": "2026-05-14T16:03:54Z", "status": "failed",
            "platform": "android", "package": PKG, "device_id": "sim-1",
            "app_version": {"name": "2.3.0", "code": 230}, "extra": {}});
        std::fs::write(dir.join("meta.json"), meta.to_string()).unwrap();
        let lines: Vec<String> = steps.iter().map(Value::to_string).collect();
        std::fs::write(dir.join("steps.jsonl"), lines.join("\n") + "\n").unwrap();
        let crash = json!({"crash_id": "c1", "ts": "2026-05-14T16:05:00Z", "kind": "java", "process": PKG,
            "stack": crash_stack, "step_index": repro_path.last().copied().unwrap_or(1), "repro_path": repro_path});
        std::fs::write(dir.join("crashes.jsonl"), crash.to_string() + "\n").unwrap();
        dir
    }

    /// `whittle --config <this env's> ARGS` with warnings logged, not yet started: the
    /// one place that says how a test runs `whittle`.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_whittle"));
        command
            .arg("--config")
            .arg(&self.config)
            .args(args)
            .env("RUST_LOG", "warn")
            .env(LEASE_DIR_ENV, self.lease_dir());
        command
    }

    /// Where this env's runs keep their device leases: each env stands for a machine of
    /// its own, so tests running at once never refuse each other a device that only
    /// looks shared (a foreign peer's `emulator-5554` in each of their processes).
    pub fn lease_dir(&self) -> PathBuf {
        self.dir.path().join("device-leases")
    }

    pub fn whittle(&self, args: &[&str]) -> Output {
        self.command(args).output().expect("run whittle")
    }

    /// Evidence sessions the runs created.
    pub fn evidence_dirs(&self) -> Vec<PathBuf> {
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(self.workspace.join("sessions"))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .contains("minimize-")
            })
            .collect();
        dirs.sort();
        dirs
    }
}

impl Env {
    /// `whittle` started in the background (stdout/stderr piped), in its own process
    /// group as a shell would put a foreground job, so a test can signal the group the
    /// way a terminal's Ctrl-C does.
    pub fn spawn_whittle(&self, args: &[&str]) -> std::process::Child {
        use std::os::unix::process::CommandExt;
        self.command(args)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .process_group(0)
            .spawn()
            .expect("spawn whittle")
    }

    /// Every entry under `sessions/`, by name.
    pub fn session_names(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.workspace.join("sessions"))
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().to_string())
            .collect();
        names.sort();
        names
    }
}

/// The repository's root (the folder of the workspace's Cargo.toml).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The Python that runs the tests' peers on the official MCP SDK (a server for the
/// foreign-peer tests, a client for `whittle mcp`), or `None` (after saying why) when
/// there is none here; in CI (`CI=true`) its absence is a failure.
pub fn peer_python() -> Option<PathBuf> {
    let python = std::env::var_os("WHITTLE_PEER_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join(".venv-peers/bin/python"));
    if python.is_file() {
        return Some(python);
    }
    let why = format!(
        "no Python with the MCP SDK at {} (run scripts/setup, or set WHITTLE_PEER_PYTHON)",
        python.display()
    );
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "CI must run the Python MCP peer tests: {why}"
    );
    eprintln!("SKIPPED: {why}");
    None
}
