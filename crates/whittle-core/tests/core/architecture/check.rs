//! The checks of `architecture.rs` as pure functions over manifests and source text,
//! so `check_tests.rs` can show each rule catching what it forbids.

use std::fmt;

use serde_json::Value;

use super::rules::Layer::{Contract, Core};
use super::rules::{
    Kind, Layer, ALLOWED, CLOCK_USES, CORE_CJK_ALLOWED, CORE_DENIED, CORE_ENGLISH_ALLOWED,
    CORE_FILE_READERS, CRATES, OUTSIDE_USES, WRITES,
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
        // Comments say what they like; a `//` inside a string literal is code.
        let code = without_comments(text);
        for (at, code) in code.lines().enumerate() {
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

/// Everything in the core's source that breaks rule 4 (CJK text in code, comments
/// aside), one sentence each. `files`: (path relative to the crate, contents).
pub(crate) fn wording_violations(files: &[(String, String)]) -> Vec<String> {
    let mut problems = Vec::new();
    for (path, text) in files {
        if CORE_CJK_ALLOWED.iter().any(|(allowed, _)| path == allowed) {
            continue;
        }
        let code = without_comments(text);
        for (at, line) in code.lines().enumerate() {
            if line.chars().any(is_cjk) {
                problems.push(format!(
                    "{path}:{}: CJK text in the core: wording belongs in whittle-text's \
                     catalogues (or, if the core reads it, in CORE_CJK_ALLOWED with a reason)",
                    at + 1
                ));
            }
        }
    }
    problems
}

/// Everything in the core's source that breaks rule 5 (an English `#[error]` or
/// `impl Display` outside [`CORE_ENGLISH_ALLOWED`]), one sentence each.
pub(crate) fn english_violations(files: &[(String, String)]) -> Vec<String> {
    let mut problems = Vec::new();
    for (path, text) in files {
        if CORE_ENGLISH_ALLOWED
            .iter()
            .any(|(allowed, _)| path == allowed)
        {
            continue;
        }
        let code = without_comments(text);
        for (at, line) in code.lines().enumerate() {
            let words = line.contains("#[error(")
                || (line.contains("impl ") && line.contains("Display for "));
            if words {
                problems.push(format!(
                    "{path}:{}: the core words a value in English: return a type and word it \
                     in whittle-text's catalogues (or add the file to CORE_ENGLISH_ALLOWED \
                     with a reason)",
                    at + 1
                ));
            }
        }
    }
    problems
}

/// Han, kana, Hangul and CJK punctuation (fullwidth forms included).
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x2E80..=0x2FDF | 0x3000..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF
        | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFF00..=0xFFEF)
}

/// `text` with its comments (line, doc and nested block comments) blanked out and its
/// line breaks kept, so line numbers still match. String, raw string and character
/// literals are copied whole: a `//` inside a literal is not a comment.
pub(crate) fn without_comments(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if chars[i] == '\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
            }
            continue;
        }
        let ident_before =
            start > 0 && (chars[start - 1].is_alphanumeric() || chars[start - 1] == '_');
        if c == 'r' && !ident_before && matches!(at(i + 1), '"' | '#') {
            // A raw string: r"…", r#"…"#; it ends at a quote followed by as many #.
            let mut j = i + 1;
            while at(j) == '#' {
                j += 1;
            }
            if at(j) == '"' {
                let hashes = j - i - 1;
                j += 1;
                while j < chars.len()
                    && !(chars[j] == '"' && (1..=hashes).all(|k| at(j + k) == '#'))
                {
                    j += 1;
                }
                i = (j + 1 + hashes).min(chars.len());
                out.extend(&chars[start..i]);
                continue;
            }
        }
        if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i = (i + 1).min(chars.len());
            out.extend(&chars[start..i]);
            continue;
        }
        if c == '\'' {
            // A character literal ('x', '\n', '\u{..}'); otherwise a lifetime.
            let end = if at(i + 1) == '\\' {
                (i + 3..chars.len()).find(|&j| chars[j] == '\'')
            } else if at(i + 2) == '\'' {
                Some(i + 2)
            } else {
                None
            };
            i = end.map_or(i + 1, |e| e + 1);
            out.extend(&chars[start..i]);
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

/// Rule 7: every path into the application layer from a front end's source goes through
/// its door, `whittle_service::api` — `whittle_service::run::X`, or a group
/// `whittle_service::{api, run}`, names something behind it. Comments are not read.
pub(crate) fn door_violations(files: &[(String, String)]) -> Vec<String> {
    const CRATE: &str = "whittle_service::";
    let mut problems = Vec::new();
    for (path, text) in files {
        let code = without_comments(text);
        for (at, _) in code.match_indices(CRATE) {
            let after = &code[at + CRATE.len()..];
            let names: Vec<&str> = match after.strip_prefix('{') {
                // A group, on one line or several: each of its top-level names.
                Some(group) => top_level_names(group),
                None => vec![after],
            };
            let line = code[..at].matches('\n').count() + 1;
            for name in names {
                let module: String = name
                    .trim_start()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if module != "api" && module != "self" {
                    problems.push(format!(
                        "{path}:{line}: `whittle_service::{module}` goes past the application \
                         API's door; name it through `whittle_service::api` (re-export it there \
                         if it is missing)"
                    ));
                }
            }
        }
    }
    problems
}

/// The names of a `{…}` group (its text after the `{`) at its top level.
fn top_level_names(group: &str) -> Vec<&str> {
    let mut names = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                names.push(&group[start..i]);
                return names.into_iter().filter(|n| !n.trim().is_empty()).collect();
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                names.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    // An unclosed group (not Rust that compiles): what there is.
    names.push(&group[start..]);
    names.into_iter().filter(|n| !n.trim().is_empty()).collect()
}

/// Rule 8: no type name is defined twice across the workspace's crates — a struct,
/// enum, type alias or trait declared `pub` or `pub(crate)` — so one name means one
/// concept from the code to the window. `files` are (path, source) pairs; test modules
/// are left out by the caller.
pub(crate) fn duplicate_type_names(files: &[(String, String)]) -> Vec<String> {
    let mut defined: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for (path, text) in files {
        let code = without_comments(text);
        for (n, line) in code.lines().enumerate() {
            let rest = line.trim_start();
            let Some(rest) = rest
                .strip_prefix("pub ")
                .or_else(|| rest.strip_prefix("pub(crate) "))
            else {
                continue;
            };
            let Some(rest) = ["struct ", "enum ", "type ", "trait "]
                .iter()
                .find_map(|kind| rest.strip_prefix(kind))
            else {
                continue;
            };
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                defined
                    .entry(name)
                    .or_default()
                    .push(format!("{path}:{}", n + 1));
            }
        }
    }
    defined
        .into_iter()
        .filter(|(_, places)| places.len() > 1)
        .map(|(name, places)| {
            format!(
                "`{name}` is defined {} times: {}; give each concept its own name",
                places.len(),
                places.join(", ")
            )
        })
        .collect()
}
