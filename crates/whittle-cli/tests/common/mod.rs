//! A temp workspace with sessions written here, a simulator model with zero timing,
//! and a whittle.json pointing at the real `whittle-servers` binary; `whittle` itself
//! is spawned as the user would run it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::{json, Value};

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

fn el(id: &str, text: &str, y: i32, tap: Value) -> Value {
    let mut e = json!({"id": format!("{PKG}:id/{id}"), "class": "android.widget.Button", "text": text,
        "bounds": [20, y, 340, y + 40]});
    if !tap.is_null() {
        e["tap"] = tap;
    }
    e
}

fn stack(exception: &str, frames: &[&str]) -> String {
    let mut s = format!("FATAL EXCEPTION: main\nProcess: {PKG}, PID: 4242\n{exception}\n");
    for f in frames {
        s.push_str(&format!("\tat {f}(Source.java:42)\n"));
    }
    s.push_str("\tat android.view.View.performClick(View.java:7448)\n");
    s
}

pub fn npe_stack() -> String {
    stack(
        "java.lang.NullPointerException: Attempt to invoke virtual method 'int com.example.shop.Order.total()' on a null object reference",
        &["com.example.shop.CheckoutActivity.onCheckout", "com.example.shop.CheckoutActivity.onClick"],
    )
}

pub fn report_stack() -> String {
    stack(
        "java.lang.NullPointerException: report",
        &[
            "com.example.shop.ReportActivity.send",
            "com.example.shop.ReportActivity.onClick",
        ],
    )
}

pub fn empty_report_stack() -> String {
    stack(
        "java.lang.IllegalStateException: empty cart",
        &[
            "com.example.shop.ReportActivity.validate",
            "com.example.shop.ReportActivity.onClick",
        ],
    )
}

pub fn promo_stack() -> String {
    stack(
        "java.lang.IllegalStateException: promo",
        &[
            "com.example.shop.PromoBanner.show",
            "com.example.shop.HomeActivity.onPromo",
        ],
    )
}

pub fn sync_stack() -> String {
    stack(
        "java.util.ConcurrentModificationException",
        &[
            "com.example.shop.SyncWorker.merge",
            "com.example.shop.SyncWorker.run",
        ],
    )
}

pub fn launch_stack() -> String {
    stack(
        "java.lang.RuntimeException: boot",
        &[
            "com.example.shop.ShopApp.onCreate",
            "com.example.shop.ShopApp.init",
        ],
    )
}

/// The test app: small screens so screenshots are cheap, zero sim timing.
pub fn model() -> Value {
    json!({
        "package": PKG,
        "version": {"name": "2.3.0", "code": 230},
        "launch": {"screen": "home", "anchor": format!("{PKG}:id/home_root")},
        "state": {"cart": 0, "logged_in": false},
        "screen_size": [360, 640],
        "screens": {
            "home": {"back": "exit", "elements": [
                {"id": format!("{PKG}:id/home_root"), "class": "android.widget.FrameLayout", "bounds": [0, 0, 360, 20]},
                el("btn_login", "Login", 30, json!({"goto": "login"})),
                el("btn_search", "Search", 80, json!({"goto": "search"})),
                el("btn_product", "Product", 130, json!({"goto": "product"})),
                el("btn_promo", "Promo", 180, json!({})),
                el("btn_sync", "Sync", 230, json!({})),
                el("btn_home", "Home", 280, json!({})),
                el("btn_report", "Report", 330, json!({}))]},
            "login": {"back": "home", "elements": [
                {"id": format!("{PKG}:id/email"), "class": "android.widget.EditText", "bounds": [20, 30, 340, 70],
                 "input": {"set": {"email": "$text"}}},
                {"id": format!("{PKG}:id/password"), "class": "android.widget.EditText", "password": true,
                 "bounds": [20, 80, 340, 120], "input": {"set": {"password": "$text"}}},
                el("btn_signin", "Sign in", 130, json!({"set": {"logged_in": true}, "goto": "home"}))]},
            "search": {"back": "home", "elements": [
                {"id": format!("{PKG}:id/search_field"), "class": "android.widget.EditText", "bounds": [20, 30, 340, 70],
                 "input": {"set": {"query": "$text"}}}]},
            "product": {"back": "home", "elements": [
                el("btn_add", "Add to cart", 30, json!({"incr": {"cart": 1}})),
                el("btn_cart", "Cart", 80, json!({"goto": "cart"})),
                el("btn_home", "Home", 130, json!({"goto": "home"}))]},
            "cart": {"back": "product", "elements": [
                el("btn_checkout", "Checkout", 30, json!({}))]}
        },
        "crashes": [
            {"name": "npe-checkout", "kind": "java", "on": {"screen": "cart", "tap": format!("{PKG}:id/btn_checkout")},
             "when": {"cart": {">=": 1}}, "stack": npe_stack()},
            {"name": "report", "kind": "java", "on": {"screen": "home", "tap": format!("{PKG}:id/btn_report")},
             "when": {"cart": {">=": 1}}, "stack": report_stack()},
            {"name": "report-empty", "kind": "java", "on": {"screen": "home", "tap": format!("{PKG}:id/btn_report")},
             "when": {"cart": 0}, "stack": empty_report_stack()},
            {"name": "promo", "kind": "java", "on": {"screen": "home", "tap": format!("{PKG}:id/btn_promo")},
             "probability": 0.6, "stack": promo_stack()},
            {"name": "sync", "kind": "java", "on": {"screen": "home", "tap": format!("{PKG}:id/btn_sync")},
             "delay_ms": 60, "stack": sync_stack()}
        ],
        "timing": {"launch_ms": 0, "action_ms": 0}
    })
}

/// One recorded step (new-format notes).
pub fn step(index: u32, replay: Value) -> Value {
    let action = replay["action_type"].as_str().unwrap_or("").to_string();
    json!({"index": index, "ts": "2026-05-14T16:03:54Z", "action": action, "result": "ok",
           "notes": json!({"replay": replay}).to_string()})
}

pub fn launch(i: u32) -> Value {
    step(
        i,
        json!({"action_type": "launch", "element_key": format!("{PKG}:id/home_root")}),
    )
}
pub fn tap(i: u32, id: &str) -> Value {
    step(
        i,
        json!({"action_type": "tap", "element_key": format!("{PKG}:id/{id}")}),
    )
}
pub fn back(i: u32) -> Value {
    step(i, json!({"action_type": "press_button", "button": "BACK"}))
}
pub fn input(i: u32, id: &str, value: &str, redacted: bool) -> Value {
    step(
        i,
        json!({"action_type": "input_text", "element_key": format!("{PKG}:id/{id}"),
                   "input_value": value, "input_redacted": redacted}),
    )
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
        Env::new(
            model(),
            sim_args,
            json!({"settle_ms": 0, "drain_interval_ms": 30, "action_pause_ms": 0}),
        )
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

    pub fn whittle(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_whittle"))
            .arg("--config")
            .arg(&self.config)
            .args(args)
            .env("RUST_LOG", "warn")
            .output()
            .expect("run whittle")
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

/// The 12-step checkout session: login detour with a sensitive e-mail and a redacted
/// password, a search detour, then product → add → cart → checkout.
pub fn checkout_session(env: &Env) -> PathBuf {
    let steps = vec![
        launch(1),
        tap(2, "btn_login"),
        input(3, "email", SECRET_EMAIL, false),
        input(4, "password", SECRET_PASSWORD, true),
        back(5),
        tap(6, "btn_search"),
        input(7, "search_field", "red shoes", false),
        back(8),
        tap(9, "btn_product"),
        tap(10, "btn_add"),
        tap(11, "btn_cart"),
        tap(12, "btn_checkout"),
    ];
    env.add_session(
        "2026-05-14_160354_checkout-npe",
        &steps,
        &npe_stack(),
        &(1..=12).collect::<Vec<_>>(),
    )
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).to_string()
}
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

pub fn json_out(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}\nstderr: {}",
            stdout(o),
            stderr(o)
        )
    })
}

/// Every file's text under `dir` (binary files skipped).
pub fn all_text_under(dir: &Path) -> String {
    let mut out = String::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let p = entry.path();
        if p.is_dir() {
            out.push_str(&all_text_under(&p));
        } else if let Ok(t) = std::fs::read_to_string(&p) {
            out.push_str(&t);
        }
    }
    out
}

impl Env {
    /// `whittle` started in the background (stdout/stderr piped), in its own process
    /// group as a shell would put a foreground job, so a test can signal the group the
    /// way a terminal's Ctrl-C does.
    pub fn spawn_whittle(&self, args: &[&str]) -> std::process::Child {
        use std::os::unix::process::CommandExt;
        Command::new(env!("CARGO_BIN_EXE_whittle"))
            .arg("--config")
            .arg(&self.config)
            .args(args)
            .env("RUST_LOG", "warn")
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

/// The `status` field of a session's meta.json.
pub fn meta_status(dir: &Path) -> String {
    let meta: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("meta.json")).unwrap()).unwrap();
    meta["status"].as_str().unwrap_or_default().to_string()
}

/// The step lines of a session's steps.jsonl (none when the file is absent).
pub fn session_steps(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("steps.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}
