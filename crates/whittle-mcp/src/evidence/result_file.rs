use std::io::Write;
use std::path::{Path, PathBuf};

use crate::run::{PendingResult, RESULT_FILE};

#[derive(Debug, thiserror::Error)]
pub enum ResultFileError {
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path} is not a Whittle result: {message}")]
    Parse { path: PathBuf, message: String },
}

/// Writes `<evidence>/result.json` atomically (temp file in the folder, fsync, rename).
pub fn write_result(
    evidence_dir: &Path,
    result: &PendingResult,
) -> Result<PathBuf, ResultFileError> {
    let path = evidence_dir.join(RESULT_FILE);
    let err = |source| ResultFileError::Write {
        path: path.clone(),
        source,
    };
    let json = serde_json::to_vec_pretty(result).map_err(|e| err(std::io::Error::other(e)))?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".result-")
        .tempfile_in(evidence_dir)
        .map_err(err)?;
    tmp.write_all(&json).map_err(err)?;
    tmp.as_file().sync_all().map_err(err)?;
    tmp.persist(&path).map_err(|e| err(e.error))?;
    Ok(path)
}

pub fn read_result(evidence_dir: &Path) -> Result<PendingResult, ResultFileError> {
    let path = evidence_dir.join(RESULT_FILE);
    let text = std::fs::read_to_string(&path).map_err(|source| ResultFileError::Read {
        path: path.clone(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|e| ResultFileError::Parse {
        path,
        message: e.to_string(),
    })
}
