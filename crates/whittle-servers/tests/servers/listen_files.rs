//! A lab host writes the files its clients name (a screenshot's `saveTo`, a capture's
//! `session_dir`) only inside its allowed folders (`--files-under`, by default its temp
//! folder), without following a symbolic link out of them; anything else is a typed
//! `path_refused` tool error naming the folders (`device/allowed_folders.rs`). A stdio
//! server, started by its one client, writes where that client says, as before.

use crate::listen_support;
use crate::sim_support;
// A tool call whatever it answers (`call` of listen_support asserts success).
use crate::support::call as raw_call;

use std::path::Path;

use listen_support::*;
use rmcp::model::CallToolResult;
use serde_json::{json, Value};

/// A folder outside the temp folder (the default allowed one): under the target folder.
fn outside_temp() -> tempfile::TempDir {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let temp = std::env::temp_dir().canonicalize().unwrap();
    assert!(
        !dir.path().canonicalize().unwrap().starts_with(&temp),
        "the test needs a folder outside {}",
        temp.display()
    );
    dir
}

/// The allowed folders a refusal names, when it is a `path_refused` one.
fn refused_naming(answer: &CallToolResult) -> Option<Vec<String>> {
    if answer.is_error != Some(true) {
        return None;
    }
    let record: Value = answer.structured_content.clone()?;
    (record["error"] == "path_refused").then(|| {
        record["allowed"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_str().unwrap().to_string())
            .collect()
    })
}

fn shot(path: &Path) -> Value {
    json!({"device": "sim-1", "saveTo": path})
}

fn capture(id: &str, dir: &Path) -> Value {
    json!({"session_id": id, "session_dir": dir, "device": "sim-1"})
}

#[tokio::test]
async fn by_default_a_lab_host_writes_only_inside_its_temp_folder() {
    let dir = tempfile::tempdir().unwrap();
    let server = Listening::sim(&model_file(dir.path()), 1, &[]);
    let client = connect(&server.url, Some(TOKEN), plain_client())
        .await
        .unwrap();
    let inside = dir.path().join("shot.png");
    call(&client, "mobile_save_screenshot", shot(&inside)).await;
    assert!(std::fs::read(&inside).unwrap().starts_with(b"\x89PNG"));

    let elsewhere = outside_temp();
    let outside = elsewhere.path().join("shot.png");
    let refused = raw_call(&client, "mobile_save_screenshot", shot(&outside)).await;
    let temp = std::env::temp_dir().canonicalize().unwrap();
    assert_eq!(
        refused_naming(&refused),
        Some(vec![temp.display().to_string()]),
        "{refused:?}"
    );
    assert!(format!("{:?}", refused.content).contains("--files-under"));
    assert!(!outside.exists());
    let refused = raw_call(&client, "start_capture", capture("c", elsewhere.path())).await;
    assert!(refused_naming(&refused).is_some(), "{refused:?}");
    assert!(!elsewhere.path().join("logcat.txt").exists());
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn files_under_names_the_folders_and_links_out_of_them_are_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    let allowed = dir.path().join("workspace");
    std::fs::create_dir_all(allowed.join("sessions/run")).unwrap();
    let allowed_arg = allowed.to_str().unwrap().to_string();
    let server = Listening::sim(&model_file(dir.path()), 1, &["--files-under", &allowed_arg]);
    let client = connect(&server.url, Some(TOKEN), plain_client())
        .await
        .unwrap();
    let resolved = allowed.canonicalize().unwrap().display().to_string();

    // Inside: written. The temp folder is no longer allowed once folders are named.
    let inside = allowed.join("shot.png");
    call(&client, "mobile_save_screenshot", shot(&inside)).await;
    assert!(inside.is_file());
    let in_temp = dir.path().join("shot.png");
    let refused = raw_call(&client, "mobile_save_screenshot", shot(&in_temp)).await;
    assert_eq!(refused_naming(&refused), Some(vec![resolved.clone()]));
    let started = call(
        &client,
        "start_capture",
        capture("run", &allowed.join("sessions/run")),
    )
    .await;
    assert_eq!(started["status"], "running");

    // A link inside pointing out: the file a link, a folder a link, `..` out.
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "keep").unwrap();
    std::os::unix::fs::symlink(&victim, allowed.join("link.png")).unwrap();
    let refused = raw_call(
        &client,
        "mobile_save_screenshot",
        shot(&allowed.join("link.png")),
    )
    .await;
    assert_eq!(
        refused_naming(&refused),
        Some(vec![resolved.clone()]),
        "{refused:?}"
    );
    std::os::unix::fs::symlink(dir.path(), allowed.join("out")).unwrap();
    let refused = raw_call(
        &client,
        "mobile_save_screenshot",
        shot(&allowed.join("out/x.png")),
    )
    .await;
    assert!(refused_naming(&refused).is_some(), "{refused:?}");
    let dotdot = allowed.join("sessions/../../x.png");
    let refused = raw_call(&client, "mobile_save_screenshot", shot(&dotdot)).await;
    assert!(refused_naming(&refused).is_some(), "{refused:?}");
    std::fs::create_dir(allowed.join("sessions/linked")).unwrap();
    std::os::unix::fs::symlink(&victim, allowed.join("sessions/linked/logcat.txt")).unwrap();
    let refused = raw_call(
        &client,
        "start_capture",
        capture("linked", &allowed.join("sessions/linked")),
    )
    .await;
    assert!(refused_naming(&refused).is_some(), "{refused:?}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
    assert!(!dir.path().join("x.png").exists());
    client.cancel().await.unwrap();
}

#[test]
fn a_files_under_folder_that_does_not_exist_is_refused_before_the_port_opens() {
    let dir = tempfile::tempdir().unwrap();
    let model = model_file(dir.path());
    let missing = dir.path().join("missing");
    let (code, out, err) = run_to_end(
        &[
            "sim",
            "--model",
            model.to_str().unwrap(),
            "--listen",
            "127.0.0.1:0",
            "--files-under",
            missing.to_str().unwrap(),
        ],
        &[("WHITTLE_SERVER_TOKEN", TOKEN)],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(!out.contains("listening"), "{out}");
    assert!(err.contains("--files-under"), "{err}");
}

/// Over stdio nothing changes: the one client names any absolute path.
#[tokio::test]
async fn a_stdio_server_writes_where_its_client_says() {
    let sim = sim_support::Sim::start(&sim_support::test_model(), &[]).await;
    let elsewhere = outside_temp();
    let path = elsewhere.path().join("shot.png");
    sim.call("mobile_save_screenshot", shot(&path)).await;
    assert!(path.is_file());
}
