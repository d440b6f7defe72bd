use serde::{Deserialize, Serialize};

/// One line of `steps.jsonl`. `notes` is kept verbatim: new-format sessions hold a JSON
/// object with a `replay` member there, legacy ones free text (see `plan`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    pub index: u32,
    #[serde(default)]
    pub ts: Option<String>,
    #[serde(default)]
    pub action: String,
    #[serde(default)]
    pub result: StepResult,
    #[serde(default)]
    pub notes: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screenshot_src: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub screenshot_redacted: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "lowercase")]
pub enum StepResult {
    #[default]
    Ok,
    Fail,
}
