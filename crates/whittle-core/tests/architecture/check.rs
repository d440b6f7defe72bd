//! The checks of `architecture.rs` as pure functions over manifests and source text,
//! so `check_tests.rs` can show each rule catching what it forbids.

use std::fmt;

use serde_json::Value;

use super::Layer::{Contract, Core};
use super::{
    Kind, Layer, ALLOWED, CLOCK_USES, CORE_DENIED, CORE_FILE_READERS, CRATES, OUTSIDE_USES, WRITES,
};

pub(crate) fn layer_of(name: &str) -> Option<Layer> {
    CRATES.iter().find(|(_, n)| *n == name).map(|(l, _)| *l)
}

pub(crate) fn name_of(layer: Layer) -> &'static str {
    CRATES
        .iter()
        .find(|(l, _)| *l == layer)
        .map_or("?", |(_, n)| n)
}

fn kind_of(dep: &Value) -> Kind {
    match dep["kind"].as_str() {
        Some("dev") => Kind::Dev,
        Some("build") => Kind::Build,
        _ => Kind::Normal,
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Normal => "normal",
            Kind::Dev => "dev",
            Kind::Build => "build",
        })
    }
}

fn denied(name: &str) -> bool {
    CORE_DENIED.iter().any(|rule| match rule.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => name == *rule,
    })
}

/// Everything in `packages` that breaks rules 1 and 2, one sentence each.
pub(crate) fn dependency_violations(packages: &[Value]) -> Vec<String> {
    let mut problems = Vec::new();
    let names: Vec<&str> = packages.iter().filter_map(|p| p["name"].as_str()).collect();
    for (_, name) in CRATES {
        if !names.contains(name) {
            problems.push(format!(
                "CRATES names `{name}`, but no manifest declares it (renamed? edit CRATES)"
            ));
        }
    }
    for package in packages {
        let from = package["name"].as_str().unwrap_or("?");
        let Some(from_layer) = layer_of(from) else {
            problems.push(format!(
                "crate `{from}` has no place in the house: add it to CRATES and ALLOWED here \
                 and to docs/architecture.md"
            ));
            continue;
        };
        let deps = package["dependencies"]
            .as_array()
            .map_or(&[][..], Vec::as_slice);
        for dep in deps {
            let to = dep["name"].as_str().unwrap_or("?");
            let kind = kind_of(dep);
            let internal = dep["path"].is_string() || layer_of(to).is_some();
            if !internal {
                if matches!(from_layer, Core | Contract) && kind != Kind::Dev && denied(to) {
                    problems.push(format!(
                        "`{from}` depends on `{to}` ({kind}), which the core and the contract \
                         may not use"
                    ));
                }
                continue;
            }
            if to == from {
                continue;
            }
            let Some(to_layer) = layer_of(to) else {
                problems.push(format!(
                    "`{from}` depends on `{to}` ({kind}), a path crate not in CRATES"
                ));
                continue;
            };
            let allowed = ALLOWED
                .iter()
                .any(|(f, t, kinds)| *f == from_layer && *t == to_layer && kinds.contains(&kind));
            if !allowed {
                problems.push(format!(
                    "`{from}` may not depend on `{to}` ({kind} dependency): not in ALLOWED \
                     (docs/architecture.md, \"What each crate may import\")"
                ));
            }
        }
    }
    problems
}

/// The code part of a line: comments say what they like.
fn code_of(line: &str) -> &str {
    line.split("//").next().unwrap_or("")
}

/// Everything in the core's source that breaks rule 3, one sentence each. `files`:
/// (path relative to the crate, contents).
pub(crate) fn source_violations(files: &[(String, String)]) -> Vec<String> {
    let mut problems = Vec::new();
    for (path, text) in files {
        let may_read = CORE_FILE_READERS
            .iter()
            .any(|allowed| match allowed.strip_suffix('/') {
                Some(folder) => path.starts_with(&format!("{folder}/")),
                None => path == allowed,
            });
        for (at, line) in text.lines().enumerate() {
            let code = code_of(line);
            let hit = |list: &[&'static str]| list.iter().find(|p| code.contains(*p)).copied();
            let line_no = at + 1;
            if let Some(p) = hit(CLOCK_USES) {
                problems.push(format!("{path}:{line_no}: `{p}` reads a clock in the core"));
            }
            if let Some(p) = hit(WRITES) {
                problems.push(format!("{path}:{line_no}: `{p}` writes a file in the core"));
            } else if let (Some(p), false) = (hit(OUTSIDE_USES), may_read) {
                problems.push(format!(
                    "{path}:{line_no}: `{p}` reaches outside the core (only CORE_FILE_READERS may \
                     read files)"
                ));
            }
        }
    }
    problems
}
