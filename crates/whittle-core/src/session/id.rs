//! Session ids and session folders: validated before any file is touched, and
//! confined to `<workspace>/sessions/`.

use std::io;
use std::path::{Path, PathBuf};

use thiserror::Error;

pub const SESSIONS_DIR: &str = "sessions";
const MAX_ID_LEN: usize = 128;

/// Why a name is not a session id; typed on the wire too, so the window words it.
#[derive(Debug, Clone, PartialEq, Eq, Error, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SessionIdError {
    #[error("a session id cannot be empty")]
    Empty,
    #[error("a session id is at most {MAX_ID_LEN} characters (this one has {len})")]
    TooLong {
        #[cfg_attr(feature = "specta", specta(type = u32))]
        len: usize,
    },
    #[error("\".\" and \"..\" are not session ids")]
    DotName,
    #[error("a session id may only use letters, digits, '.', '_' and '-' (found {} at position {position})", .found.escape_debug())]
    InvalidChar {
        found: char,
        #[cfg_attr(feature = "specta", specta(type = u32))]
        position: usize,
    },
}

impl SessionIdError {
    /// The stable code: its `kind` in JSON.
    pub fn code(&self) -> &'static str {
        match self {
            SessionIdError::Empty => "empty",
            SessionIdError::TooLong { .. } => "too_long",
            SessionIdError::DotName => "dot_name",
            SessionIdError::InvalidChar { .. } => "invalid_char",
        }
    }
}

/// One path component of `[A-Za-z0-9._-]`, 1–128 characters, not `.` or `..`.
pub fn validate_session_id(id: &str) -> Result<(), SessionIdError> {
    if id.is_empty() {
        return Err(SessionIdError::Empty);
    }
    if let Some((position, found)) = id
        .chars()
        .enumerate()
        .find(|(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')))
    {
        return Err(SessionIdError::InvalidChar {
            found,
            position: position + 1,
        });
    }
    if id.len() > MAX_ID_LEN {
        return Err(SessionIdError::TooLong { len: id.len() });
    }
    if id == "." || id == ".." {
        return Err(SessionIdError::DotName);
    }
    Ok(())
}

#[derive(Debug, Error)]
pub enum ResolveError {
    #[error("invalid session id: {0}")]
    InvalidId(#[from] SessionIdError),
    #[error("give a session id or an absolute session folder path (got a relative path)")]
    RelativePath,
    #[error("workspace {} has no sessions folder", .workspace.display())]
    NoSessionsFolder { workspace: PathBuf },
    #[error("session folder {} does not exist", .path.display())]
    NotFound { path: PathBuf },
    #[error("{} is not a session folder inside {}", .path.display(), .sessions.display())]
    OutsideWorkspace { path: PathBuf, sessions: PathBuf },
    #[error("cannot resolve {}: {source}", .path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

/// A session id → `<workspace>/sessions/<id>`; an absolute folder → accepted only if,
/// with symlinks resolved, it is a folder directly inside `<workspace>/sessions/`.
/// Returns the canonical folder path; the folder must exist.
pub fn resolve_session_dir(workspace: &Path, id_or_dir: &str) -> Result<PathBuf, ResolveError> {
    let sessions = workspace.join(SESSIONS_DIR);
    let sessions = canonical(&sessions).map_err(|e| match e {
        ResolveError::NotFound { .. } => ResolveError::NoSessionsFolder {
            workspace: workspace.to_path_buf(),
        },
        other => other,
    })?;
    let candidate = match validate_session_id(id_or_dir) {
        Ok(()) => sessions.join(id_or_dir),
        Err(_) if Path::new(id_or_dir).is_absolute() => PathBuf::from(id_or_dir),
        Err(e) if !id_or_dir.contains(['/', '\\']) => return Err(e.into()),
        Err(_) => return Err(ResolveError::RelativePath),
    };
    let resolved = canonical(&candidate)?;
    let outside = || ResolveError::OutsideWorkspace {
        path: candidate.clone(),
        sessions: sessions.clone(),
    };
    if resolved.parent() != Some(sessions.as_path()) {
        return Err(outside());
    }
    let name = resolved
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(outside)?;
    validate_session_id(name)?;
    if !resolved.is_dir() {
        return Err(ResolveError::NotFound { path: candidate });
    }
    Ok(resolved)
}

fn canonical(path: &Path) -> Result<PathBuf, ResolveError> {
    path.canonicalize().map_err(|source| {
        if source.kind() == io::ErrorKind::NotFound {
            ResolveError::NotFound {
                path: path.to_path_buf(),
            }
        } else {
            ResolveError::Io {
                path: path.to_path_buf(),
                source,
            }
        }
    })
}

#[cfg(test)]
mod code_tests {
    use super::*;

    #[test]
    fn every_code_is_the_kind_its_json_carries() {
        let all = [
            SessionIdError::Empty,
            SessionIdError::TooLong { len: 200 },
            SessionIdError::DotName,
            SessionIdError::InvalidChar {
                found: '/',
                position: 3,
            },
        ];
        for error in &all {
            let json = serde_json::to_value(error).unwrap();
            assert_eq!(json["kind"], error.code(), "{json}");
        }
        assert_eq!(
            serde_json::to_value(&all[3]).unwrap(),
            serde_json::json!({ "kind": "invalid_char", "found": "/", "position": 3 })
        );
    }
}
