use crate::client_support;

use std::time::{Duration, Instant};

use client_support::{servers_bin, setup};
use serde_json::json;
use whittle_contract::Role;
use whittle_service::client::{check_roles, Hub, McpErrorKind, RoleProblemKind, RoleStatus};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_lacking_a_role_tool_is_named_with_every_missing_tool() {
    let Some(bin) = servers_bin() else { return };
    let s = setup(&bin, &[], 30_000, |cfg| {
        cfg["mcpServers"]["analyzer-only"] = json!({"command": bin, "args": ["analyzer"]});
        cfg["roles"]["mobile"] = json!("analyzer-only");
    });
    let err = Hub::connect(&s.config)
        .await
        .err()
        .expect("mobile role has no mobile tools");
    assert_eq!(err.problems.len(), 1, "{err}");
    let p = &err.problems[0];
    assert_eq!(
        (p.role, p.server.as_deref()),
        (Role::Mobile, Some("analyzer-only"))
    );
    let RoleProblemKind::MissingTools(tools) = &p.kind else {
        panic!("{p:?}")
    };
    assert_eq!(tools.len(), 6, "{tools:?}");
    let msg = err.to_string();
    assert!(
        msg.contains("role mobile")
            && msg.contains("mobile_list_available_devices")
            && msg.contains("mobile_press_button"),
        "{msg}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_role_problem_is_listed_in_one_error_and_by_doctor() {
    let Some(bin) = servers_bin() else { return };
    let s = setup(&bin, &[], 30_000, |cfg| {
        cfg["mcpServers"]["broken"] = json!({"command": "/nonexistent/whittle-server"});
        cfg["roles"] =
            json!({"report": "whittle", "analyzer": "broken", "mobile": "sim", "ui": "nope"});
    });
    let err = Hub::connect(&s.config)
        .await
        .err()
        .expect("three roles are broken");
    let kinds: Vec<_> = err
        .problems
        .iter()
        .map(|p| (p.role, p.kind.clone()))
        .collect();
    assert!(
        matches!(&kinds[0], (Role::Analyzer, RoleProblemKind::StartFailed(m)) if m.contains("/nonexistent/whittle-server")),
        "{kinds:?}"
    );
    assert_eq!(kinds[1], (Role::Ui, RoleProblemKind::UnknownServer));
    assert_eq!(kinds[2], (Role::Log, RoleProblemKind::Unassigned));
    assert_eq!(kinds.len(), 3);
    let msg = err.to_string();
    for needle in [
        "role analyzer",
        "role ui",
        "\"nope\"",
        "role log",
        "whittle.json",
    ] {
        assert!(msg.contains(needle), "{needle} not in {msg}");
    }

    let checks = check_roles(&s.config).await;
    let summary: Vec<_> = checks
        .iter()
        .map(|c| (c.role, matches!(c.status, RoleStatus::Ok)))
        .collect();
    assert_eq!(
        summary,
        [
            (Role::Report, true),
            (Role::Analyzer, false),
            (Role::Mobile, true),
            (Role::Ui, false),
            (Role::Log, false)
        ]
    );
    let RoleStatus::Problem { fix, .. } = &checks[4].status else {
        unreachable!()
    };
    assert!(fix.contains("\"log\"") && fix.contains("roles"), "{fix}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hanging_tool_times_out_and_the_connection_stays_usable() {
    let Some(bin) = servers_bin() else { return };
    let s = setup(&bin, &["--fault", "hang=get_hierarchy"], 2_000, |_| {});
    let hub = Hub::connect(&s.config).await.unwrap();
    let started = Instant::now();
    let err = hub.ui().get_hierarchy("sim-1").await.unwrap_err();
    assert_eq!(err.kind, McpErrorKind::Timeout { after_ms: 2_000 });
    assert!(started.elapsed() >= Duration::from_millis(1_900));
    assert_eq!((err.role, err.tool.as_str()), (Role::Ui, "get_hierarchy"));
    assert_eq!(
        err.to_string(),
        "sim server (role ui) tool get_hierarchy: timed out after 2 s"
    );
    assert_eq!(hub.mobile().list_devices().await.unwrap().devices.len(), 2);
    hub.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_garbage_result_is_bad_result() {
    let Some(bin) = servers_bin() else { return };
    let s = setup(&bin, &["--fault", "garbage=get_hierarchy"], 30_000, |_| {});
    let hub = Hub::connect(&s.config).await.unwrap();
    let err = hub.ui().get_hierarchy("sim-1").await.unwrap_err();
    assert!(matches!(err.kind, McpErrorKind::BadResult(_)), "{err}");
    assert_eq!(err.tool, "get_hierarchy");
    hub.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_mid_call_is_server_gone() {
    let Some(bin) = servers_bin() else { return };
    let s = setup(&bin, &["--fault", "hang=get_hierarchy"], 30_000, |_| {});
    let hub = Hub::connect(&s.config).await.unwrap();
    let pid = hub.server_pids()["sim"].unwrap();
    let killer = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        // Test-only: a fixed signal to the pid of the server this test started.
        std::process::Command::new("kill")
            .arg("-KILL")
            .arg(pid.to_string())
            .status()
            .unwrap();
    });
    let started = Instant::now();
    let err = hub.ui().get_hierarchy("sim-1").await.unwrap_err();
    killer.await.unwrap();
    assert_eq!(err.kind, McpErrorKind::ServerGone, "{err}");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "noticed only at the timeout"
    );
    assert!(
        err.to_string()
            .starts_with("sim server (role ui) tool get_hierarchy:"),
        "{err}"
    );
    let again = hub.log().list_captures().await.unwrap_err();
    assert_eq!(
        (again.role, again.kind),
        (Role::Log, McpErrorKind::ServerGone)
    );
    hub.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_exiting_during_a_call_is_server_gone() {
    let Some(bin) = servers_bin() else { return };
    let s = setup(&bin, &["--fault", "exit-after-launches=0"], 30_000, |_| {});
    let hub = Hub::connect(&s.config).await.unwrap();
    let err = hub
        .mobile()
        .launch_app("sim-1", "com.example.shop")
        .await
        .unwrap_err();
    assert_eq!(
        (err.role, err.tool.as_str(), err.kind.clone()),
        (Role::Mobile, "mobile_launch_app", McpErrorKind::ServerGone)
    );
    hub.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tool_errors_are_surfaced_even_for_untyped_tools() {
    let Some(bin) = servers_bin() else { return };
    let s = setup(&bin, &[], 30_000, |_| {});
    let hub = Hub::connect(&s.config).await.unwrap();
    let err = hub
        .mobile()
        .launch_app("sim-99", "com.example.shop")
        .await
        .unwrap_err();
    assert!(matches!(err.kind, McpErrorKind::ToolError(_)), "{err}");
    let err = hub.ui().get_hierarchy("sim-99").await.unwrap_err();
    assert!(matches!(err.kind, McpErrorKind::ToolError(_)), "{err}");
    hub.shutdown().await;
}

/// A crash stack over 16 MiB (more than one MCP message may carry) is named by its size
/// and the tool it answered, as soon as it has arrived: not as a timeout, and the
/// connection serves the next call.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_over_the_message_limit_names_its_size_and_tool() {
    let Some(bin) = servers_bin() else { return };
    let s = setup(
        &bin,
        &["--fault", "oversize=get_recent_crashes"],
        30_000,
        |_| {},
    );
    let hub = Hub::connect(&s.config).await.unwrap();
    let started = Instant::now();
    let err = hub
        .log()
        .get_recent_crashes("sim-1", None)
        .await
        .unwrap_err();
    let took = started.elapsed();
    assert!(took < Duration::from_secs(15), "took {took:?}");
    let McpErrorKind::AnswerTooLarge {
        bytes: Some(bytes),
        limit,
    } = err.kind
    else {
        panic!("{err}")
    };
    assert_eq!(limit, 16 * 1024 * 1024);
    // The 17 MiB stack, JSON-escaped inside a tools/call answer.
    assert!(bytes > 17 * 1024 * 1024, "{bytes}");
    let said = err.to_string();
    assert!(
        said.starts_with("sim server (role log) tool get_recent_crashes: its answer of 1")
            && said.contains(" MiB is over the 16 MiB one MCP message may have"),
        "{said}"
    );
    assert_eq!(hub.mobile().list_devices().await.unwrap().devices.len(), 2);
    hub.shutdown().await;
}
