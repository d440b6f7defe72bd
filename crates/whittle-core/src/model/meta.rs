use serde::{Deserialize, Serialize};

/// `meta.json` of a session folder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionMeta {
    pub session_id: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub created_at: String,
    #[serde(default)]
    pub status: SessionStatus,
    #[serde(default)]
    pub platform: String,
    #[serde(default)]
    pub package: Option<String>,
    #[serde(default)]
    pub device_id: Option<String>,
    #[serde(default)]
    pub app_version: Option<AppVersion>,
    #[serde(default)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

impl SessionMeta {
    /// An imported flow no replay has run yet (`extra.import.recorded: false`, as
    /// import writes it): its `status` says nothing about the app, so no front end may
    /// show it as passed.
    pub fn not_run(&self) -> bool {
        self.extra
            .get("import")
            .and_then(|import| import.get("recorded"))
            .and_then(serde_json::Value::as_bool)
            == Some(false)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum SessionStatus {
    #[default]
    Running,
    Passed,
    Failed,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct AppVersion {
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub code: Option<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(extra: serde_json::Value) -> SessionMeta {
        serde_json::from_value(serde_json::json!({
            "session_id": "s", "status": "passed", "extra": extra
        }))
        .unwrap()
    }

    #[test]
    fn only_an_imported_flow_never_recorded_is_not_run() {
        let imported =
            meta(serde_json::json!({"import": {"format": "maestro", "recorded": false}}));
        assert!(imported.not_run());
        let recorded = meta(serde_json::json!({"import": {"format": "maestro", "recorded": true}}));
        assert!(!recorded.not_run());
        // A session the recorder wrote says nothing of import: its status stands.
        assert!(!meta(serde_json::json!({})).not_run());
        assert!(!meta(serde_json::json!({"import": "odd"})).not_run());
    }
}
