//! The `session_dir` argument: given by the client, so only a plain absolute path is taken.
use std::path::{Component, Path, PathBuf};

use super::error::AnalyzerError;

/// Accepts an absolute path with no `..`/`.` components (and no NUL byte).
pub fn checked_session_dir(raw: &str) -> Result<PathBuf, AnalyzerError> {
    let path = Path::new(raw);
    let plain = path.components().all(|c| {
        matches!(
            c,
            Component::RootDir | Component::Prefix(_) | Component::Normal(_)
        )
    });
    if raw.contains('\0') || !path.is_absolute() || !plain {
        return Err(AnalyzerError::BadSessionDir(raw.to_string()));
    }
    Ok(path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::checked_session_dir;

    #[test]
    fn only_plain_absolute_paths_pass() {
        assert!(checked_session_dir("/w/sessions/a").is_ok());
        for bad in ["sessions/a", "/w/sessions/../../etc", "./a", "", "/w/a\0b"] {
            assert!(checked_session_dir(bad).is_err(), "{bad:?}");
        }
    }
}
