use std::path::Path;

use whittle_contract::Role;
use whittle_service::config::{Config, ConfigError, HttpServer, ServerSpec};
use whittle_service::mask::MaskStyle;

const SPEC_EXAMPLE: &str = r#"{ "workspace": "demo/workspace",
  "mcpServers": {
    "whittle": {"command": "whittle-servers", "args": ["all", "--workspace", "demo/workspace"]},
    "sim":     {"command": "whittle-servers", "args": ["sim", "--model", "demo/shop.json", "--devices", "2"]},
    "local":   {"command": "bin/my-server", "env": {"LEVEL": "3"}, "type": "stdio", "disabled": false},
    "remote":  {"url": "http://127.0.0.1:8931/mcp"} },
  "roles": {"report": "whittle", "analyzer": "whittle", "mobile": "sim", "ui": "sim", "log": "sim"},
  "timing": {"settle_ms": 1000, "drain_interval_ms": 500, "action_pause_ms": 500} }"#;

fn parse(text: &str) -> Result<Config, ConfigError> {
    Config::parse(text, Path::new("/cfg/dir/whittle.json"))
}

fn field_of(text: &str) -> String {
    match parse(text) {
        Err(ConfigError::Field { field, file, .. }) => {
            assert_eq!(file, Path::new("/cfg/dir/whittle.json"));
            field
        }
        other => panic!("expected a field error, got {other:?}"),
    }
}

#[test]
fn spec_example_loads_with_paths_resolved_against_the_file() {
    let c = parse(SPEC_EXAMPLE).unwrap();
    assert_eq!(c.workspace, Path::new("/cfg/dir/demo/workspace"));
    assert_eq!(c.roles[&Role::Mobile], "sim");
    assert_eq!(c.roles.len(), 5);
    match &c.servers["whittle"] {
        ServerSpec::Stdio { command, args, .. } => {
            assert_eq!(
                command, "whittle-servers",
                "bare names are looked up at spawn time"
            );
            assert_eq!(args[2], "demo/workspace", "args are passed as written");
        }
        other => panic!("{other:?}"),
    }
    match &c.servers["local"] {
        ServerSpec::Stdio { command, env, .. } => {
            assert_eq!(command, "/cfg/dir/bin/my-server");
            assert_eq!(env["LEVEL"], "3");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        c.servers["remote"],
        ServerSpec::Http(HttpServer::new("http://127.0.0.1:8931/mcp"))
    );
    assert_eq!(c.base_dir(), Path::new("/cfg/dir"));
}

#[test]
fn defaults_apply_when_optional_blocks_are_absent() {
    let c = parse(r#"{"workspace": "/abs/ws", "mcpServers": {}}"#).unwrap();
    assert_eq!(c.workspace, Path::new("/abs/ws"));
    assert_eq!(c.call_timeout_ms, 30_000);
    assert_eq!(
        (
            c.timing.settle_ms,
            c.timing.drain_interval_ms,
            c.timing.action_pause_ms
        ),
        (1000, 500, 500)
    );
    assert_eq!(c.masking.style, MaskStyle::Solid);
    assert!(c.masking.id_patterns.is_empty() && c.roles.is_empty());
}

#[test]
fn masking_and_timeout_are_read() {
    let c = parse(
        r#"{"workspace": "w", "mcpServers": {}, "call_timeout_ms": 1500,
            "masking": {"style": "pixelate", "id_patterns": ["account_.*"]}}"#,
    )
    .unwrap();
    assert_eq!(c.call_timeout_ms, 1500);
    assert_eq!(c.masking.style, MaskStyle::Pixelate);
    assert_eq!(c.masking.compile_id_patterns().unwrap().len(), 1);
}

#[test]
fn errors_name_the_field() {
    assert_eq!(
        field_of(r#"{"workspace": "w", "mcpServers": {}, "timing": {"settle_ms": "slow"}}"#),
        "timing.settle_ms"
    );
    assert!(
        field_of(r#"{"workspace": "w", "mcpServers": {}, "roles": {"mobil": "x"}}"#)
            .starts_with("roles")
    );
    assert_eq!(
        field_of(r#"{"workspace": "w", "mcpServers": {"x": {"command": "a", "url": "http://h"}}}"#),
        "mcpServers.x"
    );
    assert_eq!(
        field_of(r#"{"workspace": "w", "mcpServers": {"x": {"args": []}}}"#),
        "mcpServers.x"
    );
    assert_eq!(
        field_of(r#"{"workspace": "w", "mcpServers": {"x": {"url": "ftp://h"}}}"#),
        "mcpServers.x.url"
    );
    assert_eq!(
        field_of(r#"{"workspace": "w", "mcpServers": {}, "masking": {"id_patterns": ["("]}}"#),
        "masking.id_patterns[0]"
    );
    assert_eq!(
        field_of(r#"{"workspace": "w", "mcpServers": {}, "call_timeout_ms": 0}"#),
        "call_timeout_ms"
    );
    assert_eq!(
        field_of(r#"{"workspace": "w", "mcpServers": {}, "workpace": 1}"#),
        "workpace"
    );
    let missing = parse(r#"{"mcpServers": {}}"#).unwrap_err().to_string();
    assert!(
        missing.contains("workspace") && missing.contains("/cfg/dir/whittle.json"),
        "{missing}"
    );
}

#[test]
fn syntax_errors_give_the_line() {
    match parse("{\n  \"workspace\": \"w\",\n  oops\n}") {
        Err(ConfigError::Syntax { line, .. }) => assert_eq!(line, 3),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        parse(r#"{"workspace": "w", "mcpServers": {}} trailing"#),
        Err(ConfigError::Syntax { .. })
    ));
}

#[test]
fn load_reads_the_file_and_names_it_on_failure() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("whittle.json");
    std::fs::write(&path, SPEC_EXAMPLE).unwrap();
    let c = Config::load(&path).unwrap();
    assert_eq!(c.path, path);
    assert_eq!(c.workspace, dir.path().join("demo/workspace"));

    let missing = dir.path().join("nope.json");
    match Config::load(&missing) {
        Err(e @ ConfigError::Read { .. }) => assert!(e.to_string().contains("nope.json")),
        other => panic!("{other:?}"),
    }
}
