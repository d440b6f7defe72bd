//! Writes session folders for the session/workspace tests.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

pub struct Workspace {
    pub root: tempfile::TempDir,
}

impl Workspace {
    pub fn new() -> Self {
        let root = tempfile::tempdir().unwrap();
        fs::create_dir(root.path().join("sessions")).unwrap();
        Workspace { root }
    }

    pub fn path(&self) -> &Path {
        self.root.path()
    }

    pub fn session_dir(&self, id: &str) -> PathBuf {
        self.path().join("sessions").join(id)
    }

    /// A valid session with `steps` taps (step 1 is launch) and the given crashes.
    pub fn session(&self, id: &str, created_at: &str, steps: u32, crashes: &[Value]) -> PathBuf {
        let dir = self.session_dir(id);
        fs::create_dir_all(&dir).unwrap();
        write(&dir, "meta.json", &meta(id, created_at).to_string());
        let lines: Vec<String> = (1..=steps).map(|i| step(i).to_string()).collect();
        write(&dir, "steps.jsonl", &jsonl(&lines));
        let crash_lines: Vec<String> = crashes.iter().map(Value::to_string).collect();
        write(&dir, "crashes.jsonl", &jsonl(&crash_lines));
        dir
    }
}

pub fn write(dir: &Path, file: &str, text: &str) {
    fs::write(dir.join(file), text).unwrap();
}

pub fn jsonl(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

pub fn meta(id: &str, created_at: &str) -> Value {
    json!({
        "session_id": id, "name": format!("name of {id}"), "created_at": created_at,
        "status": "failed", "platform": "android", "package": "com.example.shop",
        "device_id": "sim-1", "extra": {}
    })
}

pub fn step(index: u32) -> Value {
    let replay = if index == 1 {
        json!({"action_type": "launch"})
    } else {
        json!({"action_type": "tap", "element_key": format!("com.example.shop:id/btn_{index}")})
    };
    json!({
        "index": index, "ts": "2026-05-14T10:00:00Z", "action": format!("step {index}"),
        "result": "ok", "notes": json!({"replay": replay}).to_string()
    })
}

pub fn crash(id: &str, stack: &str, path: &[u32]) -> Value {
    json!({
        "crash_id": id, "ts": "2026-05-14T10:01:00Z", "kind": "java",
        "process": "com.example.shop", "stack": stack,
        "step_index": path.last().copied().unwrap_or(1), "repro_path": path
    })
}

pub const NPE: &str = "java.lang.NullPointerException: Attempt to invoke virtual method\n\tat com.example.shop.CartActivity.onCheckout(CartActivity.java:42)\n\tat android.view.View.performClick(View.java:7448)";
pub const ISE: &str = "java.lang.IllegalStateException: cart empty\n\tat com.example.shop.Cart.total(Cart.java:12)\n\tat com.example.shop.CartActivity.onResume(CartActivity.java:30)";

/// A workspace with one session of `steps` steps and crash `c1` (an NPE after 1, 2, 3).
pub fn fresh(steps: u32) -> (Workspace, std::path::PathBuf) {
    let ws = Workspace::new();
    let dir = ws.session(
        "2026-05-14_100000_s",
        "2026-05-14T10:00:00Z",
        steps,
        &[crash("c1", NPE, &[1, 2, 3])],
    );
    (ws, dir)
}

pub fn steps_lines(n: u32) -> Vec<String> {
    (1..=n).map(|i| step(i).to_string()).collect()
}

pub fn load_err(dir: &std::path::Path) -> whittle_core::session::SessionError {
    whittle_core::session::load_session(dir).expect_err("session should be refused")
}
