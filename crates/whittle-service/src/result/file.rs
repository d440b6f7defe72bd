use std::path::{Path, PathBuf};

use whittle_core::nesting::{check_json_nesting, TooDeep};

use super::{PendingResult, RESULT_FILE};
use crate::atomic::{write_atomic, FileMode};

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
    /// Refused before parsing: evidence is untrusted, and every level costs stack.
    #[error("{path} {source}")]
    TooDeep {
        path: PathBuf,
        #[source]
        source: TooDeep,
    },
}

/// Writes `<evidence>/result.json` atomically ([`write_atomic`]).
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
    write_atomic(&path, &json, FileMode::Private).map_err(err)?;
    Ok(path)
}

pub fn read_result(evidence_dir: &Path) -> Result<PendingResult, ResultFileError> {
    let path = evidence_dir.join(RESULT_FILE);
    let text = std::fs::read_to_string(&path).map_err(|source| ResultFileError::Read {
        path: path.clone(),
        source,
    })?;
    check_json_nesting(text.as_bytes()).map_err(|source| ResultFileError::TooDeep {
        path: path.clone(),
        source,
    })?;
    let parse_error = |e: serde_json::Error| ResultFileError::Parse {
        path: path.clone(),
        message: e.to_string(),
    };
    let mut value: serde_json::Value = serde_json::from_str(&text).map_err(parse_error)?;
    super::legacy::upgrade(&mut value);
    serde_json::from_value(value).map_err(parse_error)
}
