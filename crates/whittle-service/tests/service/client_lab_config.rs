//! `whittle.json` for a device lab: `url` servers with `headers` (`${VAR}` from the
//! environment, values secret), a connect timeout, and device roles naming one server
//! per lab host.

use std::path::Path;

use whittle_contract::Role;
use whittle_service::config::{Config, ConfigError, ServerSpec, DEFAULT_CONNECT_TIMEOUT_MS};

const LAB: &str = r#"{ "workspace": "ws",
  "mcpServers": {
    "whittle": {"command": "whittle-servers", "args": ["all", "--workspace", "ws"]},
    "labA": {"url": "https://lab-a.example:8931/mcp",
             "headers": {"Authorization": "Bearer ${LAB_A_TOKEN}"}, "connect_timeout_ms": 2500},
    "labB": {"url": "http://127.0.0.1:8932/mcp", "headers": {"Authorization": "Bearer ${LAB_B_TOKEN}", "X-Rack": "3"},
             "keep_alive": false}
  },
  "roles": {"report": "whittle", "analyzer": "whittle",
            "mobile": ["labA", "labB"], "ui": ["labA", "labB"], "log": ["labA", "labB"]} }"#;

const TOKEN_A: &str = "tok-A-5f3c9e0d2b71";
const TOKEN_B: &str = "tok-B-8a6e1c4f7d20";

fn env(name: &str) -> Option<String> {
    match name {
        "LAB_A_TOKEN" => Some(TOKEN_A.into()),
        "LAB_B_TOKEN" => Some(TOKEN_B.into()),
        _ => None,
    }
}

fn parse(text: &str, env: &dyn Fn(&str) -> Option<String>) -> Result<Config, ConfigError> {
    Config::parse_with_env(text, Path::new("/cfg/whittle.json"), env)
}

fn field_error(text: &str, env: &dyn Fn(&str) -> Option<String>) -> (String, String) {
    match parse(text, env) {
        Err(ConfigError::Field { field, message, .. }) => (field, message),
        other => panic!("expected a field error, got {other:?}"),
    }
}

#[test]
fn a_lab_config_loads_with_headers_expanded_and_roles_listed() {
    let c = parse(LAB, &env).unwrap();
    let ServerSpec::Http(a) = &c.servers["labA"] else {
        panic!("labA is a url server")
    };
    assert_eq!(a.url, "https://lab-a.example:8931/mcp");
    assert_eq!(a.connect_timeout_ms, 2500);
    assert_eq!(
        a.keep_alive, None,
        "unset: chosen from the server's initialize answer"
    );
    assert_eq!(a.headers.len(), 1);
    assert_eq!(a.headers[0].0, "Authorization");
    assert_eq!(a.headers[0].1.expose(), format!("Bearer {TOKEN_A}"));
    let ServerSpec::Http(b) = &c.servers["labB"] else {
        panic!("labB is a url server")
    };
    assert_eq!(b.connect_timeout_ms, DEFAULT_CONNECT_TIMEOUT_MS);
    assert_eq!(b.keep_alive, Some(false));
    assert_eq!(b.headers.len(), 2);
    for role in [Role::Mobile, Role::Ui, Role::Log] {
        assert_eq!(c.roles[&role].names(), ["labA", "labB"]);
    }
    assert_eq!(c.roles[&Role::Report], "whittle");
}

#[test]
fn header_values_never_show_in_debug_output() {
    let c = parse(LAB, &env).unwrap();
    let shown = format!("{c:?}");
    assert!(
        !shown.contains(TOKEN_A) && !shown.contains(TOKEN_B),
        "{shown}"
    );
    assert!(shown.contains("[redacted]"));
    assert!(shown.contains("lab-a.example"), "the rest stays readable");
}

#[test]
fn a_missing_variable_is_a_config_error_naming_it() {
    let only_a = |name: &str| (name == "LAB_A_TOKEN").then(|| TOKEN_A.to_string());
    let (field, message) = field_error(LAB, &only_a);
    assert_eq!(field, "mcpServers.labB.headers.Authorization");
    assert_eq!(message, "environment variable LAB_B_TOKEN is not set");
    let shown = parse(LAB, &only_a).unwrap_err().to_string();
    assert!(
        shown.contains("LAB_B_TOKEN") && !shown.contains(TOKEN_A),
        "{shown}"
    );
}

#[test]
fn device_roles_must_name_the_same_servers_in_the_same_order() {
    let swapped = LAB.replace(r#""ui": ["labA", "labB"]"#, r#""ui": ["labB", "labA"]"#);
    let (field, message) = field_error(&swapped, &env);
    assert_eq!(field, "roles.ui");
    assert!(message.contains("same order"), "{message}");
    let single = LAB.replace(r#""log": ["labA", "labB"]"#, r#""log": "labA""#);
    assert_eq!(field_error(&single, &env).0, "roles.log");
    let report = LAB.replace(r#""report": "whittle""#, r#""report": ["whittle", "labA"]"#);
    assert_eq!(field_error(&report, &env).0, "roles.report");
}

#[test]
fn url_only_settings_are_refused_on_stdio_servers() {
    let text =
        r#"{"workspace": "w", "mcpServers": {"s": {"command": "x", "headers": {"A": "b"}}}}"#;
    assert_eq!(field_error(text, &env).0, "mcpServers.s.headers");
    let text =
        r#"{"workspace": "w", "mcpServers": {"s": {"command": "x", "connect_timeout_ms": 5}}}"#;
    assert_eq!(field_error(text, &env).0, "mcpServers.s.connect_timeout_ms");
    let text = r#"{"workspace": "w", "mcpServers": {"s": {"command": "x", "keep_alive": false}}}"#;
    assert_eq!(field_error(text, &env).0, "mcpServers.s.keep_alive");
    let text = r#"{"workspace": "w", "mcpServers": {"s": {"url": "http://h/mcp", "connect_timeout_ms": 0}}}"#;
    assert_eq!(field_error(text, &env).0, "mcpServers.s.connect_timeout_ms");
}
