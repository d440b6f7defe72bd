use serde::{Deserialize, Serialize};

/// One line of `crashes.jsonl`. Whittle never rewrites this file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Crash {
    pub crash_id: String,
    #[serde(default)]
    pub ts: Option<String>,
    pub kind: CrashKind,
    #[serde(default)]
    pub process: String,
    #[serde(default)]
    pub label: Option<String>,
    #[serde(default)]
    pub stack: String,
    pub step_index: u32,
    pub repro_path: Vec<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum CrashKind {
    Java,
    Anr,
    Native,
}

impl CrashKind {
    pub fn as_str(self) -> &'static str {
        match self {
            CrashKind::Java => "java",
            CrashKind::Anr => "anr",
            CrashKind::Native => "native",
        }
    }
}
