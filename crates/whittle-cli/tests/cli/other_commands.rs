//! `whittle sessions | analyze | export | verify | doctor`, and config/argument errors.

use crate::common;

use common::*;

#[test]
fn bad_arguments_and_config_are_refused_with_3() {
    let env = Env::fast(&[]);
    let out = env.whittle(&["minimize"]);
    assert_eq!(out.status.code(), Some(3));
    let out = env.whittle(&["no-such-command"]);
    assert_eq!(out.status.code(), Some(3));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_whittle"))
        .args(["--config", "/nonexistent/whittle.json", "sessions"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
}

#[test]
fn sessions_and_analyze_list_without_servers() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    let out = env.whittle(&["sessions"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains(CHECKOUT));
    let out = env.whittle(&["analyze", CHECKOUT]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("1 distinct crash"),
        "{}",
        stdout(&out)
    );
    let out = env.whittle(&["analyze", "../etc"]);
    assert_eq!(out.status.code(), Some(3));
}

#[test]
fn doctor_checks_every_role() {
    let env = Env::fast(&[]);
    let out = env.whittle(&["doctor"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}\n{}", stderr(&out));
    for role in ["report", "analyzer", "mobile", "ui", "log"] {
        assert!(text.contains(&format!("ok       {role}")), "{text}");
    }
    assert!(text.contains("device   sim-1"), "{text}");
}

#[test]
fn export_then_verify_replays_the_bundle() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    let evidence = evidence_of(&env.minimize_json(CHECKOUT, "120", &[]));
    let out_dir = env.dir.path().join("bundles");
    std::fs::create_dir_all(&out_dir).unwrap();
    assert_exit(&env.export(&evidence, &out_dir, "ticket-1"), 0);
    let bundle = out_dir.join("ticket-1");
    assert!(bundle.join("manifest.json").is_file());
    let text = all_text_under(&bundle);
    assert!(!text.contains(SECRET_PASSWORD) && !text.contains(SECRET_EMAIL));

    env.verify_reproduces(&bundle, 2);

    // Exporting again under the same name never overwrites.
    let out = env.export(&evidence, &out_dir, "ticket-1");
    assert_ne!(out.status.code(), Some(0));
}

#[test]
fn doctor_checks_the_app_and_the_capture() {
    let env = Env::fast(&[]);
    let out = env.whittle(&["doctor", "--package", "com.example.shop"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}\n{}", stderr(&out));
    assert!(
        text.contains("ok       app      com.example.shop"),
        "{text}"
    );
    assert!(text.contains("ok       capture"), "{text}");

    let out = env.whittle(&["doctor", "--package", "com.example.missing"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(4), "{text}");
    assert!(
        text.contains("PROBLEM  app      com.example.missing is not installed on sim-1"),
        "{text}"
    );
    assert!(text.contains("fix: install it"), "{text}");

    let out = env.whittle(&["doctor", "--package", "com.android.settings"]);
    assert!(stdout(&out).contains("is a system app"), "{}", stdout(&out));
}

/// `--json`: the same checks as data, with the stable finding ids the app keys on.
#[test]
fn doctor_json_gives_the_checks_as_data() {
    let env = Env::fast(&[]);
    let out = env.whittle(&["doctor", "--package", "com.example.missing", "--json"]);
    assert_eq!(out.status.code(), Some(4), "{}", stdout(&out));
    let report = json_out(&out);
    let checks = report["checks"].as_array().unwrap();
    let mobile = checks
        .iter()
        .find(|c| c["name"] == "role" && c["subject"] == "mobile")
        .unwrap();
    assert_eq!(
        (&mobile["status"], &mobile["finding"]),
        (&"ok".into(), &"role_ready".into())
    );
    let missing = checks
        .iter()
        .find(|c| c["finding"] == "app_missing")
        .unwrap();
    assert_eq!(missing["status"], "fail");
    assert_eq!(
        missing["detail"],
        "com.example.missing is not installed on sim-1"
    );
    assert!(missing["fix"].as_str().unwrap().starts_with("install it"));
}

#[test]
fn doctor_says_when_adb_is_missing_with_a_fix() {
    let env = Env::fast(&[]);
    env.edit_config(|config| {
        let servers = config["mcpServers"].as_object_mut().unwrap();
        let whittle_servers = servers.values().next().unwrap()["command"].clone();
        servers.insert(
            "phone".into(),
            serde_json::json!({"command": whittle_servers, "args": ["adb", "--adb", "/nonexistent/adb"]}),
        );
    });
    let out = env.whittle(&["doctor"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(3), "{text}");
    assert!(
        text.contains("PROBLEM  adb      (phone) /nonexistent/adb not found"),
        "{text}"
    );
    assert!(
        text.contains("fix: install Android platform-tools"),
        "{text}"
    );
}

#[test]
fn doctor_warns_about_plain_http_servers_off_loopback_with_a_fix() {
    let env = Env::fast(&[]);
    env.edit_config(|config| {
        let servers = config["mcpServers"].as_object_mut().unwrap();
        for (name, url) in [
            ("remote", "http://10.1.2.3:8080/mcp"),
            ("tunnel", "http://127.0.0.1:8080/mcp"),
            ("secure", "https://10.1.2.3:8443/mcp"),
        ] {
            servers.insert(name.into(), serde_json::json!({ "url": url }));
        }
    });
    let out = env.whittle(&["doctor"]);
    let text = stdout(&out);
    assert!(
        text.contains(
            "WARNING  http     (remote): http://10.1.2.3:8080/mcp is plain HTTP to a non-loopback address"
        ),
        "{text}"
    );
    assert!(text.contains("fix: use https, or an SSH tunnel"), "{text}");
    assert!(
        !text.contains("(tunnel)") && !text.contains("(secure)"),
        "{text}"
    );
    // A warning, not a problem: the exit code is the one the roles give.
    assert_eq!(out.status.code(), Some(0), "{text}\n{}", stderr(&out));
}
