//! The checks themselves, on made-up manifests and sources: each rule must catch what it
//! forbids, and only that.

use serde_json::Value;

use super::check::{
    dependency_violations, door_violations, duplicate_type_names, english_violations, name_of,
    source_violations, without_comments, wording_violations,
};
use super::rules::Layer::*;

fn package(name: &str, deps: &[(&str, Option<&str>, bool)]) -> Value {
    let deps: Vec<Value> = deps
        .iter()
        .map(|(to, kind, path)| {
            serde_json::json!({
                "name": to,
                "kind": kind,
                "path": path.then(|| format!("/x/{to}")),
                "optional": false,
            })
        })
        .collect();
    serde_json::json!({ "name": name, "dependencies": deps })
}

/// Every crate of the table, with the edges the real manifests have today.
fn house(extra: &[Value]) -> Vec<Value> {
    let mut packages = vec![
        package(name_of(Core), &[("serde", None, false)]),
        package(name_of(Text), &[(name_of(Core), None, true)]),
        package(
            name_of(Contract),
            &[(name_of(Core), None, true), ("serde", None, false)],
        ),
        package(name_of(Support), &[("tempfile", None, false)]),
        package(
            name_of(Servers),
            &[
                (name_of(Core), None, true),
                (name_of(Contract), None, true),
                (name_of(Support), None, true),
                (name_of(Servers), Some("dev"), true),
            ],
        ),
        package(
            name_of(Application),
            &[
                (name_of(Core), None, true),
                (name_of(Text), None, true),
                (name_of(Contract), None, true),
                (name_of(Support), None, true),
                (name_of(Servers), Some("dev"), true),
            ],
        ),
        package(
            name_of(Bench),
            &[(name_of(Core), None, true), (name_of(Servers), None, true)],
        ),
        package(
            name_of(Cli),
            &[
                (name_of(Core), None, true),
                (name_of(Text), None, true),
                (name_of(Contract), Some("dev"), true),
                (name_of(Bench), None, true),
                (name_of(Application), None, true),
            ],
        ),
        package(
            name_of(Desktop),
            &[
                (name_of(Core), None, true),
                (name_of(Text), None, true),
                (name_of(Contract), None, true),
                (name_of(Application), None, true),
            ],
        ),
        package(
            name_of(Fuzz),
            &[(name_of(Core), None, true), (name_of(Servers), None, true)],
        ),
    ];
    packages.extend_from_slice(extra);
    packages
}

fn replace(mut packages: Vec<Value>, replacement: Value) -> Vec<Value> {
    for p in &mut packages {
        if p["name"] == replacement["name"] {
            *p = replacement.clone();
        }
    }
    packages
}

#[test]
fn the_made_up_house_passes() {
    assert_eq!(dependency_violations(&house(&[])), Vec::<String>::new());
}

#[test]
fn a_server_importing_the_application_layer_is_caught() {
    let servers = package(
        name_of(Servers),
        &[
            (name_of(Core), None, true),
            (name_of(Application), None, true),
        ],
    );
    let problems = dependency_violations(&replace(house(&[]), servers));
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains(name_of(Application)), "{problems:?}");
}

#[test]
fn a_dev_only_edge_used_by_the_library_is_caught() {
    let application = package(
        name_of(Application),
        &[(name_of(Core), None, true), (name_of(Servers), None, true)],
    );
    let problems = dependency_violations(&replace(house(&[]), application));
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("normal dependency"), "{problems:?}");
}

#[test]
fn nothing_may_import_a_front_end_or_the_core_anything_internal() {
    let core = package(name_of(Core), &[(name_of(Application), Some("dev"), true)]);
    let application = package(
        name_of(Application),
        &[
            (name_of(Core), None, true),
            (name_of(Cli), Some("build"), true),
        ],
    );
    let packages = replace(replace(house(&[]), core), application);
    assert_eq!(dependency_violations(&packages).len(), 2);
}

#[test]
fn a_denied_crate_in_the_core_is_caught_but_not_in_its_tests() {
    let core = package(
        name_of(Core),
        &[
            ("tokio", None, false),
            ("tauri-plugin-dialog", Some("build"), false),
            ("rand", Some("dev"), false),
            ("regex", None, false),
        ],
    );
    let problems = dependency_violations(&replace(house(&[]), core));
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].contains("`tokio`") && problems[1].contains("`tauri-plugin-dialog`"));
}

#[test]
fn the_contract_brings_no_transport_and_imports_only_the_core() {
    let contract = package(
        name_of(Contract),
        &[
            (name_of(Core), None, true),
            ("rmcp", None, false),
            ("tokio", Some("dev"), false),
            (name_of(Application), None, true),
        ],
    );
    let problems = dependency_violations(&replace(house(&[]), contract));
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].contains("`rmcp`"), "{problems:?}");
    assert!(problems[1].contains(name_of(Application)), "{problems:?}");
}

#[test]
fn the_core_may_not_import_the_contract_it_is_imported_by() {
    let core = package(name_of(Core), &[(name_of(Contract), None, true)]);
    let problems = dependency_violations(&replace(house(&[]), core));
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains(name_of(Contract)), "{problems:?}");
}

#[test]
fn a_crate_without_a_place_and_a_stale_name_are_caught() {
    let stray = package("whittle-stray", &[(name_of(Core), None, true)]);
    let problems = dependency_violations(&house(&[stray]));
    assert_eq!(problems.len(), 1, "{problems:?}");
    let without_fuzz: Vec<Value> = house(&[])
        .into_iter()
        .filter(|p| p["name"] != name_of(Fuzz))
        .collect();
    assert_eq!(dependency_violations(&without_fuzz).len(), 1);
}

#[test]
fn the_source_rules_catch_clocks_io_and_writes() {
    let files = vec![
        (
            "src/engine/x.rs".to_string(),
            "let t = std::time::Instant::now();\n// SystemTime in a comment is fine\n".to_string(),
        ),
        (
            "src/plan/y.rs".to_string(),
            "let s = std::fs::read_to_string(p);\n".to_string(),
        ),
        (
            "src/session/z.rs".to_string(),
            "let s = std::fs::read_to_string(p);\nstd::fs::write(p, s);\n".to_string(),
        ),
        (
            "src/workspace.rs".to_string(),
            "use std::fs;\nlet v = std::env::var(\"X\");\n".to_string(),
        ),
    ];
    let problems = source_violations(&files);
    assert_eq!(problems.len(), 3, "{problems:?}");
    assert!(problems[0].starts_with("src/engine/x.rs:1:") && problems[0].contains("clock"));
    assert!(problems[1].starts_with("src/plan/y.rs:1:"));
    assert!(problems[2].starts_with("src/session/z.rs:2:") && problems[2].contains("writes"));
}

#[test]
fn the_wording_importing_the_application_layer_or_the_core_the_wording_is_caught() {
    let text = package(
        name_of(Text),
        &[
            (name_of(Core), None, true),
            (name_of(Application), None, true),
        ],
    );
    let core = package(name_of(Core), &[(name_of(Text), None, true)]);
    let problems = dependency_violations(&replace(replace(house(&[]), text), core));
    assert_eq!(problems.len(), 2, "{problems:?}");
}

#[test]
fn cjk_wording_in_the_core_is_caught_but_not_in_comments_or_allowed_readers() {
    let files = vec![
        (
            "src/engine/x.rs".to_string(),
            "//! 最小路径 in a doc comment\n/* 已收敛 /* nested */ 还是注释 */\n\
             let c = '\\'';\nlet heading = \"最小路径\"; // 注释\n"
                .to_string(),
        ),
        (
            "src/plan/y.rs".to_string(),
            "let url = \"https://例子\";\nlet raw = r#\"a \"// quoted\" 复现\"#;\n".to_string(),
        ),
        (
            "src/sensitive.rs".to_string(),
            "let label = \"验证码\";\n".to_string(),
        ),
    ];
    let problems = wording_violations(&files);
    assert_eq!(problems.len(), 3, "{problems:?}");
    assert!(
        problems[0].starts_with("src/engine/x.rs:4:"),
        "{problems:?}"
    );
    assert!(problems[1].starts_with("src/plan/y.rs:1:"), "{problems:?}");
    assert!(problems[2].starts_with("src/plan/y.rs:2:"), "{problems:?}");
}

#[test]
fn comments_are_blanked_and_literals_kept_line_for_line() {
    let code = "let a = \"x // y\"; // gone\n/* gone\n gone */ let b = 'c';\nfn f<'a>() {}\n";
    assert_eq!(
        without_comments(code),
        "let a = \"x // y\"; \n\n let b = 'c';\nfn f<'a>() {}\n"
    );
}

#[test]
fn an_english_error_or_display_outside_the_allowed_files_is_refused() {
    let file = |path: &str, text: &str| vec![(path.to_owned(), text.to_owned())];
    let error = "enum E {\n    #[error(\"raise --max-replays\")]\n    Budget,\n}\n";
    let display = "impl fmt::Display for Warning {\n}\n";
    assert_eq!(
        english_violations(&file("src/assessment.rs", error)).len(),
        1
    );
    assert_eq!(
        english_violations(&file("src/assessment.rs", display)).len(),
        1
    );
    assert!(english_violations(&file("src/engine/error.rs", error)).is_empty());
    // Comments do not word anything.
    let commented = "// #[error(\"x\")] and impl Display for X, in prose\n";
    assert!(english_violations(&file("src/assessment.rs", commented)).is_empty());
}

#[test]
fn a_front_end_path_past_the_door_is_refused_and_only_that() {
    let file = |text: &str| vec![("src/x.rs".to_owned(), text.to_owned())];
    for past in [
        "use whittle_service::run::RunEvent;",
        "fn f() { whittle_service::config::Config::load(p); }",
        "use whittle_service::{api, run::RunEvent};",
        "use whittle_service::{\n    api::Config,\n    evidence::{a, b},\n};",
    ] {
        let problems = door_violations(&file(past));
        assert_eq!(problems.len(), 1, "{past}: {problems:?}");
    }
    let problems = door_violations(&file("use whittle_service::{\n    api,\n    run::X,\n};"));
    assert!(
        problems[0].starts_with("src/x.rs:1: `whittle_service::run`"),
        "{problems:?}"
    );
    for through in [
        "use whittle_service::api::{self, RunEvent};",
        "use whittle_service::{api::{Config, RunEvent}, api};",
        "// whittle_service::run::RunEvent is behind the door\nuse whittle_service::api;",
        "/// See `whittle_service::doctor`.\nfn f() {}",
    ] {
        assert!(door_violations(&file(through)).is_empty(), "{through}");
    }
}

#[test]
fn a_type_name_defined_twice_is_refused_wherever_it_is() {
    let files = |a: &str, b: &str| {
        vec![
            ("crates/a/src/x.rs".to_owned(), a.to_owned()),
            ("crates/b/src/y.rs".to_owned(), b.to_owned()),
        ]
    };
    for (a, b) in [
        ("pub struct Timing {}", "pub struct Timing(u32);"),
        ("pub enum Settled { A }", "pub(crate) struct Settled;"),
        ("pub type Runs = X<u8>;", "  pub struct Runs<T> {}"),
        ("pub(crate) trait Screen {}", "pub struct Screen;"),
    ] {
        let problems = duplicate_type_names(&files(a, b));
        assert_eq!(problems.len(), 1, "{a} / {b}: {problems:?}");
        assert!(
            problems[0].contains("crates/a/src/x.rs:1")
                && problems[0].contains("crates/b/src/y.rs:1")
        );
    }
    for (a, b) in [
        ("pub struct Timing {}", "pub struct OracleTiming {}"),
        ("struct Private {}", "struct Private {}"),
        ("// pub struct Timing {}", "pub struct Timing {}"),
        ("pub fn timing() {}", "pub struct Timing;"),
    ] {
        assert!(duplicate_type_names(&files(a, b)).is_empty(), "{a} / {b}");
    }
}
