//! What the app's backend tests share: a scratch copy of the demo's checkout session and
//! shop model with every wait at zero, a real `whittle-servers` behind its config, and
//! helpers to start a run and collect its updates.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use serde_json::{json, Value};
use whittle_app::run_control;
use whittle_app::run_request::RunRequest;
use whittle_app::run_update::RunUpdate;
use whittle_app::runs::WindowRuns;
use whittle_service::api::RunResultView;
use whittle_service::run::RunEvent;

pub const SESSION: &str = "2026-05-14_160354_checkout-npe";

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `whittle-servers` in this target folder, built once if a partial build lacks it.
pub fn servers_binary() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let exe = std::env::current_exe().unwrap();
        let debug = exe.parent().unwrap().parent().unwrap().to_path_buf();
        let bin = debug.join("whittle-servers");
        if !bin.is_file() {
            let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
                .args(["build", "-p", "whittle-servers", "--bin", "whittle-servers"])
                .env("CARGO_TARGET_DIR", debug.parent().unwrap())
                .current_dir(repo())
                .status()
                .unwrap();
            assert!(status.success(), "building whittle-servers failed");
        }
        bin
    })
    .clone()
}

pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The demo's checkout session and shop model, with every wait set to zero.
pub struct Setup {
    pub root: tempfile::TempDir,
}

impl Setup {
    pub fn new() -> Setup {
        let root = tempfile::tempdir().unwrap();
        let ws = root.path().join("workspace");
        copy_dir(
            &repo().join("demo/workspace/sessions").join(SESSION),
            &ws.join("sessions").join(SESSION),
        );
        let mut model: Value =
            serde_json::from_slice(&std::fs::read(repo().join("demo/shop.json")).unwrap()).unwrap();
        model["timing"] = json!({"launch_ms": 0, "action_ms": 0});
        std::fs::write(root.path().join("shop.json"), model.to_string()).unwrap();
        let servers = servers_binary().display().to_string();
        let config = json!({
            "workspace": "elsewhere",
            "mcpServers": {
                "whittle": {"command": servers, "args": ["all", "--workspace", "elsewhere"]},
                "sim": {"command": servers, "args": ["sim", "--model", "shop.json", "--devices", "2"]}
            },
            "roles": {"report": "whittle", "analyzer": "whittle", "mobile": "sim", "ui": "sim", "log": "sim"},
            "timing": {"settle_ms": 0, "drain_interval_ms": 20, "action_pause_ms": 0}
        });
        std::fs::write(root.path().join("whittle.json"), config.to_string()).unwrap();
        Setup { root }
    }

    pub fn config(&self) -> PathBuf {
        self.root.path().join("whittle.json")
    }

    pub fn workspace(&self) -> PathBuf {
        self.root.path().join("workspace")
    }

    pub fn request(&self, max_replays: u32) -> RunRequest {
        RunRequest {
            workspace: self.workspace().display().to_string(),
            session_id: SESSION.into(),
            crash_id: "c1".into(),
            max_replays,
            device: None,
            strategy: Default::default(),
            baseline_tries: None,
            devices: 1,
            locale: "en".into(),
            reprove: None,
        }
    }

    pub fn start(&self, runs: &Arc<WindowRuns>, max_replays: u32) -> (u32, Receiver<RunUpdate>) {
        let (send, rx) = updates();
        let id = run_control::start(Some(&self.config()), runs, self.request(max_replays), send)
            .unwrap();
        (id, rx)
    }
}

/// Where a run sends its updates (as the window's channel would take them), and the
/// receiving end a test reads them from.
pub fn updates() -> (
    impl Fn(RunUpdate) + Send + Sync + 'static,
    Receiver<RunUpdate>,
) {
    let (tx, rx) = channel();
    let send = move |u| {
        let _ = tx.send(u);
    };
    (send, rx)
}

/// Every event up to `Ended`, and the run's result.
pub fn drain(rx: &Receiver<RunUpdate>) -> (Vec<RunEvent>, RunResultView) {
    let mut events = Vec::new();
    loop {
        match rx
            .recv_timeout(Duration::from_secs(120))
            .expect("run ended in time")
        {
            RunUpdate::Event { event, .. } => events.push(event),
            // Live frames: the window watches the devices.
            RunUpdate::Frame { .. } => {}
            RunUpdate::Ended { result, error, .. } => {
                return (
                    events,
                    *result.unwrap_or_else(|| panic!("no result: {error:?}")),
                )
            }
        }
    }
}

/// The window's Approve (`approve_run`): the API's, its refusal as the window's error;
/// `confirmed` is the tester's yes to replacing a newer approval.
pub fn approve(
    runs: &WindowRuns,
    evidence: &str,
    confirmed: bool,
) -> Result<whittle_service::api::Approval, whittle_app::error::AppError> {
    use whittle_service::api::Replace;
    Ok(runs.approve_held(evidence, Replace::confirmed(confirmed))?)
}

/// The window's Export (`export_run`): the bundle's path, or the window's error.
pub fn export(
    runs: &WindowRuns,
    evidence: &str,
    folder: &str,
) -> Result<String, whittle_app::error::AppError> {
    Ok(runs
        .export_held(evidence, folder.into())?
        .display()
        .to_string())
}

/// The window's *Open* on a past run (`open_past_run`).
pub fn open_past_run(
    runs: &WindowRuns,
    workspace: &Path,
    session: &str,
    evidence: &str,
) -> Result<whittle_service::api::ReopenedRun, whittle_app::error::AppError> {
    Ok(runs.reopen_run(workspace, session, evidence)?)
}
