use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

use super::files::sha256_hex;
use super::{ExportError, Manifest, ReplayFile, MANIFEST_FILE, REPLAY_FILE};

/// A bundle whose every file matched its manifest hash.
#[derive(Debug, Clone, PartialEq)]
pub struct Bundle {
    pub dir: PathBuf,
    pub manifest: Manifest,
    pub replay: ReplayFile,
}

/// Reads a bundle and verifies it: manifest present, every listed file present with
/// its SHA-256, and no file that the manifest does not list.
pub fn read_bundle(dir: &Path) -> Result<Bundle, ExportError> {
    let manifest_path = dir.join(MANIFEST_FILE);
    if !manifest_path.is_file() {
        return Err(ExportError::Incomplete(dir.to_path_buf()));
    }
    let manifest: Manifest = read_json(&manifest_path)?;

    let mut listed = BTreeSet::new();
    for entry in &manifest.files {
        let rel = Path::new(&entry.path);
        let inside = rel.components().all(|c| matches!(c, Component::Normal(_)));
        if !inside || entry.path == MANIFEST_FILE {
            return Err(ExportError::Malformed {
                path: manifest_path.clone(),
                message: format!("file path {:?} is not inside the bundle", entry.path),
            });
        }
        let bytes = std::fs::read(dir.join(rel)).map_err(|_| ExportError::Missing {
            dir: dir.to_path_buf(),
            file: entry.path.clone(),
        })?;
        if sha256_hex(&bytes) != entry.sha256.to_ascii_lowercase() {
            return Err(ExportError::HashMismatch {
                dir: dir.to_path_buf(),
                file: entry.path.clone(),
            });
        }
        listed.insert(entry.path.clone());
    }
    for file in list_files(dir, dir)? {
        if file != MANIFEST_FILE && !listed.contains(&file) {
            return Err(ExportError::Unlisted {
                dir: dir.to_path_buf(),
                file,
            });
        }
    }
    if !listed.contains(REPLAY_FILE) {
        return Err(ExportError::Missing {
            dir: dir.to_path_buf(),
            file: REPLAY_FILE.into(),
        });
    }
    let replay = read_json(&dir.join(REPLAY_FILE))?;
    Ok(Bundle {
        dir: dir.to_path_buf(),
        manifest,
        replay,
    })
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T, ExportError> {
    let text = std::fs::read_to_string(path).map_err(ExportError::io(path))?;
    whittle_core::nesting::check_json_nesting(text.as_bytes()).map_err(|source| {
        ExportError::TooDeep {
            path: path.to_path_buf(),
            source,
        }
    })?;
    serde_json::from_str(&text).map_err(|e| ExportError::Malformed {
        path: path.to_path_buf(),
        message: e.to_string(),
    })
}

/// Every regular file under `dir`, relative to `root`, '/'-separated.
fn list_files(root: &Path, dir: &Path) -> Result<Vec<String>, ExportError> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(ExportError::io(dir))? {
        let entry = entry.map_err(ExportError::io(dir))?;
        let path = entry.path();
        let kind = entry.file_type().map_err(ExportError::io(&path))?;
        if kind.is_dir() {
            out.extend(list_files(root, &path)?);
        } else {
            let rel = path.strip_prefix(root).unwrap_or(&path);
            let parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            out.push(parts.join("/"));
        }
    }
    Ok(out)
}
