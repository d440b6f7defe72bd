//! The `report` server as a real process over stdio MCP.
use crate::report_support;

use std::path::Path;

use report_support::Server;
use serde_json::{json, Value};
use whittle_contract::{analyzer, report};

async fn report_server(workspace: &Path) -> Server {
    Server::spawn(&["report", "--workspace", &workspace.display().to_string()]).await
}

fn sorted(names: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

#[tokio::test]
async fn each_subcommand_lists_its_spec_tools() {
    let ws = tempfile::tempdir().unwrap();
    let server = report_server(ws.path()).await;
    assert_eq!(server.tool_names().await, sorted(report::TOOLS));
    server.stop().await;

    let server = Server::spawn(&["analyzer"]).await;
    assert_eq!(server.tool_names().await, sorted(analyzer::TOOLS));
    server.stop().await;

    let server = Server::spawn(&["all", "--workspace", &ws.path().display().to_string()]).await;
    let both: Vec<&str> = report::TOOLS
        .iter()
        .chain(analyzer::TOOLS)
        .copied()
        .collect();
    assert_eq!(server.tool_names().await, sorted(&both));
    server.stop().await;
}

#[tokio::test]
async fn a_session_from_start_to_report() {
    let ws = tempfile::tempdir().unwrap();
    let server = report_server(ws.path()).await;
    let started = server
        .call(
            "start_session",
            json!({"name": "checkout flow", "extra": {"package": "com.shop", "k": 1}}),
        )
        .await;
    let id = started["session_id"].as_str().unwrap().to_string();
    let dir = Path::new(started["session_dir"].as_str().unwrap()).to_path_buf();
    assert!(dir.is_absolute() && dir.is_dir());
    assert!(id.ends_with("_checkout_flow"), "{id}");
    let stamp = &id[..17];
    assert!(
        stamp.chars().enumerate().all(|(i, c)| match i {
            4 | 7 => c == '-',
            10 => c == '_',
            _ => c.is_ascii_digit(),
        }),
        "{id}"
    );
    let meta: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("meta.json")).unwrap()).unwrap();
    assert_eq!(meta["status"], "running");
    assert_eq!(meta["platform"], "android");
    assert_eq!(meta["package"], "com.shop");
    assert_eq!(meta["extra"]["k"], 1);

    for (i, (action, result)) in [("launch", "ok"), ("tap", "ok"), ("tap", "fail")]
        .iter()
        .enumerate()
    {
        let r = server
            .call(
                "record_step",
                json!({"session_id": id, "action": action, "result": result,
                       "notes": format!("step | {i}"), "screenshot_src": format!("shots/{i}.png")}),
            )
            .await;
        assert_eq!(r["index"], i as u64 + 1);
    }
    let lines: Vec<Value> = std::fs::read_to_string(dir.join("steps.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[2]["result"], "fail");
    assert_eq!(lines[0]["action"], "launch");

    let fin = server
        .call(
            "finalize",
            json!({"session_id": id, "status": "failed", "summary": "Crashed on pay."}),
        )
        .await;
    let report_path = Path::new(fin["report_path"].as_str().unwrap());
    assert!(report_path.is_absolute());
    assert_eq!(report_path, dir.join("report.md"));
    let md = std::fs::read_to_string(report_path).unwrap();
    assert!(
        md.contains("**failed**") && md.contains("Crashed on pay."),
        "{md}"
    );
    assert!(
        md.contains("| 3 | tap | **fail** | step \\| 2 | [screenshot](<shots/2.png>) |"),
        "{md}"
    );
    let meta: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("meta.json")).unwrap()).unwrap();
    assert_eq!(meta["status"], "failed");
    assert_eq!(
        meta["extra"]["k"], 1,
        "finalize keeps the other meta fields"
    );

    let listed = server.call("list_sessions", json!({})).await;
    let sessions = listed["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 1);
    assert_eq!(sessions[0]["session_id"], id.as_str());
    assert_eq!(sessions[0]["status"], "failed");
    assert_eq!(sessions[0]["name"], "checkout flow");

    let path = server
        .call("get_session_path", json!({"session_id": id}))
        .await;
    assert_eq!(Path::new(path["session_dir"].as_str().unwrap()), dir);
    server.stop().await;
}

#[tokio::test]
async fn same_name_in_the_same_second_gets_distinct_ids() {
    let ws = tempfile::tempdir().unwrap();
    let server = report_server(ws.path()).await;
    let mut ids = std::collections::BTreeSet::new();
    for _ in 0..3 {
        let r = server.call("start_session", json!({"name": "dup"})).await;
        ids.insert(r["session_id"].as_str().unwrap().to_string());
    }
    assert_eq!(ids.len(), 3);
    server.stop().await;
}

#[tokio::test]
async fn bad_session_ids_are_refused_with_a_clear_error() {
    let ws = tempfile::tempdir().unwrap();
    let outside = ws.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    let server = report_server(ws.path()).await;
    let abs = outside.display().to_string();
    for bad in ["..", ".", "a/b", abs.as_str(), "a\0b", "", "../outside"] {
        for (tool, extra) in [
            ("get_session_path", json!({})),
            ("record_step", json!({"action": "tap", "result": "ok"})),
            ("finalize", json!({"status": "passed"})),
        ] {
            let mut args = extra.as_object().unwrap().clone();
            args.insert("session_id".into(), json!(bad));
            let msg = server.call_err(tool, Value::Object(args)).await;
            assert!(msg.contains("invalid session id"), "{tool} {bad:?}: {msg}");
        }
    }
    assert_eq!(
        std::fs::read_dir(&outside).unwrap().count(),
        0,
        "nothing written outside"
    );
    let msg = server
        .call_err(
            "get_session_path",
            json!({"session_id": "2020-01-01_000000_nope"}),
        )
        .await;
    assert!(msg.contains("does not exist"), "{msg}");
    server.stop().await;
}

#[tokio::test]
async fn a_step_result_must_be_ok_or_fail() {
    let ws = tempfile::tempdir().unwrap();
    let server = report_server(ws.path()).await;
    let id = server.call("start_session", json!({"name": "r"})).await["session_id"].clone();
    let msg = server
        .call_err(
            "record_step",
            json!({"session_id": id, "action": "tap", "result": "maybe"}),
        )
        .await;
    assert!(msg.contains("\"ok\" or \"fail\""), "{msg}");
    server.stop().await;
}

#[tokio::test]
async fn concurrent_record_step_calls_get_distinct_consecutive_indexes() {
    let ws = tempfile::tempdir().unwrap();
    let server = report_server(ws.path()).await;
    let started = server.call("start_session", json!({"name": "race"})).await;
    let id = started["session_id"].as_str().unwrap().to_string();
    // Twenty requests in flight at once, from twenty tasks sharing one MCP connection.
    let mut set = tokio::task::JoinSet::new();
    for i in 0..20 {
        let peer = server.client.peer().clone();
        let args = json!({"session_id": id, "action": format!("tap {i}"), "result": "ok"});
        set.spawn(async move {
            let Value::Object(map) = args else {
                unreachable!()
            };
            peer.call_tool(
                rmcp::model::CallToolRequestParams::new("record_step").with_arguments(map),
            )
            .await
            .unwrap()
        });
    }
    let mut indexes = Vec::new();
    while let Some(result) = set.join_next().await {
        let result = result.unwrap();
        assert_ne!(
            result.is_error,
            Some(true),
            "{}",
            report_support::text_of(&result)
        );
        indexes.push(
            result.structured_content.unwrap()["index"]
                .as_u64()
                .unwrap(),
        );
    }
    indexes.sort();
    assert_eq!(indexes, (1..=20).collect::<Vec<u64>>());
    let text = std::fs::read_to_string(
        Path::new(started["session_dir"].as_str().unwrap()).join("steps.jsonl"),
    )
    .unwrap();
    let mut on_disk: Vec<u64> = text
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["index"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(on_disk.len(), 20);
    on_disk.sort();
    assert_eq!(on_disk, indexes);
    server.stop().await;
}
