//! What the client tolerated in an answer, and the one warning per server and tool that
//! it leaves in the run's evidence. Only fields that decide nothing are ever tolerated
//! (`docs/tool-contract.md`); a verdict field out of contract fails the call instead.

use std::collections::BTreeSet;
use std::fmt;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use whittle_contract::Role;

/// Distinct deviations kept per server and tool; a server that sends hundreds of unknown
/// keys gets them counted, not listed.
const MAX_LISTED: usize = 12;
/// Distinct deviations remembered per server and tool (bounds memory for a hostile
/// server; past this, new ones are no longer counted).
const MAX_TRACKED: usize = 256;

/// The JSON type of a value, to say what was converted into what.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum JsonType {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

impl JsonType {
    pub fn of(v: &serde_json::Value) -> JsonType {
        use serde_json::Value;
        match v {
            Value::Null => JsonType::Null,
            Value::Bool(_) => JsonType::Bool,
            Value::Number(_) => JsonType::Number,
            Value::String(_) => JsonType::String,
            Value::Array(_) => JsonType::Array,
            Value::Object(_) => JsonType::Object,
        }
    }

    fn article(self) -> &'static str {
        match self {
            JsonType::Null => "null",
            JsonType::Bool => "a boolean",
            JsonType::Number => "a number",
            JsonType::String => "text",
            JsonType::Array => "a list",
            JsonType::Object => "an object",
        }
    }
}

/// How an answer departed from the contract where nothing is decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Leniency {
    /// A key the contract does not have, or a value that could not be used: ignored.
    Ignored,
    /// Absent or null: the field's default was used.
    Defaulted,
    /// A value of another JSON type, converted (a number where text was expected).
    Converted { from: JsonType, to: JsonType },
    /// A value of the right type read as another value (a version code "2.3" dropped).
    Normalized,
    /// No `structuredContent`, and the JSON object was one of several content blocks.
    ExtraContent { blocks: u32 },
    /// Prose instead of JSON, read in the public mobile-mcp server's format.
    Prose,
    /// Prose instead of JSON; the values were read from the file the tool wrote.
    ReadFromFile,
}

impl fmt::Display for Leniency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Leniency::Ignored => f.write_str("not in the contract or unusable, ignored"),
            Leniency::Defaulted => f.write_str("missing, default used"),
            Leniency::Converted { from, to } => {
                write!(
                    f,
                    "{} where {} was expected, converted",
                    from.article(),
                    to.article()
                )
            }
            Leniency::Normalized => f.write_str("unusable value, replaced by the default"),
            Leniency::ExtraContent { blocks } => write!(
                f,
                "no structuredContent; the JSON was found among {blocks} content blocks"
            ),
            Leniency::Prose => f.write_str("prose instead of JSON, read in mobile-mcp's format"),
            Leniency::ReadFromFile => {
                f.write_str("prose instead of JSON; size read from the saved image")
            }
        }
    }
}

/// One tolerated deviation: where (a field path, `[]` for any list item; empty for the
/// answer as a whole) and what.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Tolerated {
    pub field: String,
    pub what: Leniency,
}

impl Tolerated {
    pub fn answer(what: Leniency) -> Tolerated {
        Tolerated {
            field: String::new(),
            what,
        }
    }
}

impl fmt::Display for Tolerated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "(answer) {}", self.what)
        } else {
            write!(f, "{}: {}", self.field, self.what)
        }
    }
}

/// The one warning a (server, tool) pair gets, however many of its answers deviated:
/// every distinct deviation seen, up to [`MAX_LISTED`], and how many more there were.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DecodeWarning {
    pub server: String,
    pub role: Role,
    pub tool: String,
    pub tolerated: Vec<Tolerated>,
    /// Distinct deviations beyond those listed (counted up to a bound).
    pub more: u32,
}

impl fmt::Display for DecodeWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} server (role {}) tool {} answered outside the tool contract where nothing is decided; read leniently: ",
            self.server, self.role, self.tool
        )?;
        for (i, t) in self.tolerated.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{t}")?;
        }
        if self.more > 0 {
            write!(f, "; and {} more", self.more)?;
        }
        Ok(())
    }
}

/// Every decode warning of a hub's lifetime, one per (server, tool), in first-seen order.
#[derive(Default)]
pub(crate) struct DecodeWarnings {
    seen: Mutex<Vec<(DecodeWarning, BTreeSet<Tolerated>)>>,
}

impl DecodeWarnings {
    pub(crate) fn note(&self, role: Role, server: &str, tool: &str, tolerated: Vec<Tolerated>) {
        if tolerated.is_empty() {
            return;
        }
        // A poisoned lock only means another call panicked mid-note; the list is still whole.
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let at = match seen
            .iter()
            .position(|(w, _)| w.server == server && w.tool == tool)
        {
            Some(at) => at,
            None => {
                tracing::warn!(server, %role, tool, "answer read leniently (see the run's warnings)");
                seen.push((
                    DecodeWarning {
                        server: server.to_string(),
                        role,
                        tool: tool.to_string(),
                        tolerated: Vec::new(),
                        more: 0,
                    },
                    BTreeSet::new(),
                ));
                seen.len() - 1
            }
        };
        let (warning, distinct) = &mut seen[at];
        for t in tolerated {
            if distinct.len() >= MAX_TRACKED || distinct.contains(&t) {
                continue;
            }
            if warning.tolerated.len() < MAX_LISTED {
                warning.tolerated.push(t.clone());
            } else {
                warning.more = warning.more.saturating_add(1);
            }
            distinct.insert(t);
        }
    }

    pub(crate) fn all(&self) -> Vec<DecodeWarning> {
        let seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        seen.iter().map(|(w, _)| w.clone()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(field: &str, what: Leniency) -> Tolerated {
        Tolerated {
            field: field.into(),
            what,
        }
    }

    #[test]
    fn one_warning_per_server_and_tool_listing_each_deviation_once() {
        let w = DecodeWarnings::default();
        let ts = t(
            "crashes[].ts",
            Leniency::Converted {
                from: JsonType::Number,
                to: JsonType::String,
            },
        );
        for _ in 0..5 {
            w.note(Role::Log, "peer", "get_recent_crashes", vec![ts.clone()]);
        }
        w.note(
            Role::Log,
            "peer",
            "get_recent_crashes",
            vec![ts.clone(), t("crashes[].pid", Leniency::Ignored)],
        );
        w.note(Role::Ui, "peer", "get_hierarchy", vec![]);
        w.note(
            Role::Mobile,
            "peer",
            "mobile_list_apps",
            vec![t("", Leniency::Prose)],
        );
        let all = w.all();
        assert_eq!(all.len(), 2, "{all:?}");
        assert_eq!(all[0].tool, "get_recent_crashes");
        assert_eq!(all[0].tolerated.len(), 2);
        let text = all[0].to_string();
        assert!(
            text.starts_with("peer server (role log) tool get_recent_crashes")
                && text.contains("crashes[].ts: a number where text was expected, converted")
                && text.contains("crashes[].pid: not in the contract or unusable, ignored"),
            "{text}"
        );
        assert!(all[1]
            .to_string()
            .contains("(answer) prose instead of JSON"));
    }

    #[test]
    fn a_flood_of_deviations_is_counted_not_listed() {
        let w = DecodeWarnings::default();
        let many: Vec<_> = (0..40)
            .map(|i| t(&format!("k{i}"), Leniency::Ignored))
            .collect();
        w.note(Role::Ui, "x", "get_hierarchy", many.clone());
        w.note(Role::Ui, "x", "get_hierarchy", many[..MAX_LISTED].to_vec());
        let all = w.all();
        assert_eq!(all[0].tolerated.len(), MAX_LISTED);
        assert_eq!(all[0].more, 40 - MAX_LISTED as u32);
    }
}
