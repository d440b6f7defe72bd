//! Shared by the client tests: locate the real `whittle-servers` binary (built with
//! `cargo build -p whittle-servers` into the same target dir) and write configs.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use whittle_service::config::Config;

/// `<target>/debug/whittle-servers`, derived from this test binary in `<target>/debug/deps/`.
pub fn servers_bin() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let bin = exe.parent()?.parent()?.join("whittle-servers");
    if bin.is_file() {
        Some(bin)
    } else {
        println!(
            "skipped: {} not built (cargo build -p whittle-servers)",
            bin.display()
        );
        None
    }
}

/// A small app per docs/design.md §6: home -> cart -> checkout crashes.
pub const MODEL: &str = r#"{
  "package": "com.example.shop", "version": {"name": "2.3.0", "code": 230},
  "launch": {"screen": "home", "anchor": "com.example.shop:id/home_root"},
  "state": {"cart": 0},
  "screens": {
    "home": {"back": "exit", "elements": [
      {"id": "com.example.shop:id/home_root", "class": "android.widget.FrameLayout", "bounds": [0,0,1080,1920]},
      {"id": "com.example.shop:id/btn_cart", "class": "android.widget.Button", "text": "Cart",
       "bounds": [40,200,520,320], "tap": {"goto": "cart", "incr": {"cart": 1}}}]},
    "cart": {"back": "home", "elements": [
      {"id": "com.example.shop:id/btn_checkout", "class": "android.widget.Button", "text": "Checkout",
       "bounds": [40,200,520,320]}]}},
  "crashes": [{"name": "npe-checkout", "kind": "java", "process": "com.example.shop",
    "on": {"screen": "cart", "tap": "com.example.shop:id/btn_checkout"}, "when": {"cart": {">=": 1}},
    "probability": 1.0, "delay_ms": 0,
    "stack": "java.lang.NullPointerException: cart is null\n\tat com.example.shop.CheckoutActivity.onClick(CheckoutActivity.java:42)"}]
}"#;

/// A temp folder with a workspace, the model and `whittle.json`.
pub struct Setup {
    pub dir: tempfile::TempDir,
    pub config: Config,
}

/// `sim_extra` is appended to the sim server's args (e.g. `--fault hang=get_hierarchy`);
/// `edit` may change the JSON before it is written.
pub fn setup(
    bin: &Path,
    sim_extra: &[&str],
    call_timeout_ms: u32,
    edit: impl FnOnce(&mut Value),
) -> Setup {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("workspace/sessions")).unwrap();
    std::fs::write(dir.path().join("shop.json"), MODEL).unwrap();
    let mut sim_args = vec!["sim", "--model", "shop.json", "--devices", "2"];
    sim_args.extend_from_slice(sim_extra);
    let mut cfg = json!({
        "workspace": "workspace",
        "mcpServers": {
            "whittle": {"command": bin, "args": ["all", "--workspace", "workspace"]},
            "sim": {"command": bin, "args": sim_args},
        },
        "roles": {"report": "whittle", "analyzer": "whittle", "mobile": "sim", "ui": "sim", "log": "sim"},
        "call_timeout_ms": call_timeout_ms,
    });
    edit(&mut cfg);
    let path = dir.path().join("whittle.json");
    std::fs::write(&path, serde_json::to_vec_pretty(&cfg).unwrap()).unwrap();
    let config = Config::load(&path).unwrap();
    Setup { dir, config }
}

pub fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| {
            !s.rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .starts_with('Z')
        })
        .unwrap_or(false)
}
