//! Small readers over saphyr's marked nodes: every value with its line, every error
//! with the file, the line and the field.

use saphyr::{AnnotatedMapping, MarkedYaml, Scalar, YamlData};

use crate::import::{ImportError, ImportProblem};

pub(super) struct Doc<'a> {
    pub file: &'a str,
}

impl Doc<'_> {
    pub fn error(
        &self,
        line: Option<usize>,
        field: Option<String>,
        problem: ImportProblem,
    ) -> ImportError {
        ImportError::at(self.file, line, field, problem)
    }
}

pub(super) type Mapping<'i> = AnnotatedMapping<'i, MarkedYaml<'i>>;

/// 1-based line where the node starts.
pub(super) fn line_of(node: &MarkedYaml) -> usize {
    node.span.start.line()
}

/// The node without a user tag around it (`!!str x` and `!custom x` read as `x`).
fn untagged<'n, 'i>(node: &'n MarkedYaml<'i>) -> &'n MarkedYaml<'i> {
    match &node.data {
        YamlData::Tagged(_, inner) => untagged(inner),
        _ => node,
    }
}

/// A scalar as text, the way Maestro reads one (`inputText: 12` types "12").
pub(super) fn scalar_text(node: &MarkedYaml) -> Option<String> {
    match &untagged(node).data {
        YamlData::Value(Scalar::String(s)) => Some(s.to_string()),
        YamlData::Value(Scalar::Integer(n)) => Some(n.to_string()),
        YamlData::Value(Scalar::FloatingPoint(f)) => Some(f.to_string()),
        YamlData::Value(Scalar::Boolean(b)) => Some(b.to_string()),
        YamlData::Representation(s, _, _) => Some(s.to_string()),
        _ => None,
    }
}

pub(super) fn is_null(node: &MarkedYaml) -> bool {
    matches!(untagged(node).data, YamlData::Value(Scalar::Null))
}

pub(super) fn as_bool(node: &MarkedYaml) -> Option<bool> {
    match &untagged(node).data {
        YamlData::Value(Scalar::Boolean(b)) => Some(*b),
        YamlData::Value(Scalar::String(s)) => match s.to_ascii_lowercase().as_str() {
            "true" | "yes" | "on" => Some(true),
            "false" | "no" | "off" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

pub(super) fn as_int(node: &MarkedYaml) -> Option<i64> {
    match &untagged(node).data {
        YamlData::Value(Scalar::Integer(n)) => Some(*n),
        YamlData::Value(Scalar::String(s)) => s.trim().parse().ok(),
        _ => None,
    }
}

/// The node as a mapping, or an error naming `field`.
pub(super) fn mapping<'n, 'i>(
    doc: &Doc,
    node: &'n MarkedYaml<'i>,
    field: &str,
) -> Result<&'n Mapping<'i>, ImportError> {
    match &untagged(node).data {
        YamlData::Mapping(map) => Ok(map),
        _ => Err(doc.error(
            Some(line_of(node)),
            Some(field.to_owned()),
            ImportProblem::BadValue(format!("expected a mapping (key: value) for {field}")),
        )),
    }
}

pub(super) fn sequence<'n, 'i>(
    doc: &Doc,
    node: &'n MarkedYaml<'i>,
    field: &str,
) -> Result<&'n [MarkedYaml<'i>], ImportError> {
    match &untagged(node).data {
        YamlData::Sequence(items) => Ok(items),
        _ => Err(doc.error(
            Some(line_of(node)),
            Some(field.to_owned()),
            ImportProblem::BadValue(format!("expected a list (- item) for {field}")),
        )),
    }
}

/// A mapping key as text; keys that are not scalars are an error.
pub(super) fn key_text(doc: &Doc, key: &MarkedYaml, field: &str) -> Result<String, ImportError> {
    scalar_text(key).ok_or_else(|| {
        doc.error(
            Some(line_of(key)),
            Some(field.to_owned()),
            ImportProblem::BadValue("a key must be a plain name".into()),
        )
    })
}

/// `camelCase` → `camel case`, for commands Whittle names in sentences.
pub(super) fn words(command: &str) -> String {
    let mut out = String::new();
    for c in command.chars() {
        if c.is_ascii_uppercase() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The node as one line of flow-style YAML (`{text: "Buy", below: {id: header}}`): a
/// command as written, for the person reading a skipped step and for the export. Strings
/// are written as JSON strings (valid YAML) unless they are plain words.
pub(super) fn flow_text(node: &MarkedYaml) -> String {
    let mut out = String::new();
    write_flow(&mut out, node, 0);
    out
}

/// Nesting deeper than this is written as `…`: a command is a few levels deep; a hostile
/// file must not cost a deep recursion.
const MAX_FLOW_DEPTH: usize = 8;

fn write_flow(out: &mut String, node: &MarkedYaml, depth: usize) {
    if depth > MAX_FLOW_DEPTH {
        out.push('…');
        return;
    }
    match &untagged(node).data {
        YamlData::Mapping(map) => {
            out.push('{');
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_flow(out, k, depth + 1);
                out.push_str(": ");
                write_flow(out, v, depth + 1);
            }
            out.push('}');
        }
        YamlData::Sequence(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_flow(out, item, depth + 1);
            }
            out.push(']');
        }
        _ if is_null(node) => out.push_str("null"),
        _ => {
            let text = scalar_text(node).unwrap_or_default();
            let plain = !text.is_empty()
                && text
                    .chars()
                    .all(|c| c.is_alphanumeric() || "._-/%".contains(c));
            if plain {
                out.push_str(&text);
            } else {
                out.push_str(&serde_json::to_string(&text).unwrap_or_default());
            }
        }
    }
}
