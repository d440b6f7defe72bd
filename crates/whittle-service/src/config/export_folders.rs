//! `"export": {"allowed_folders": [...]}` in `whittle.json`: folders besides the
//! workspace's own `exports` folder that an export an agent asks for (`whittle mcp`'s
//! `export` tool) may be written under (`api::check_export_folder`). The tester's own
//! exports (the window's folder picker, `whittle export --out`) are not bound by it.

use std::path::{Path, PathBuf};

use serde::Deserialize;

/// The export folders the config allows besides `<workspace>/exports`, absolute.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ExportConfig {
    pub allowed_folders: Vec<PathBuf>,
}

/// The block as written; relative folders are resolved against the config's folder.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(super) struct RawExport {
    allowed_folders: Vec<String>,
}

impl RawExport {
    /// The block with each folder made absolute; an empty entry is refused (it would
    /// silently mean the config's own folder).
    pub(super) fn resolve(self, base: &Path) -> Result<ExportConfig, (String, &'static str)> {
        let mut allowed_folders = Vec::new();
        for (i, folder) in self.allowed_folders.into_iter().enumerate() {
            if folder.trim().is_empty() {
                return Err((format!("export.allowed_folders[{i}]"), "must not be empty"));
            }
            allowed_folders.push(base.join(folder));
        }
        Ok(ExportConfig { allowed_folders })
    }
}
