//! Which archived screenshot a request names: the name comes from the UI, so it is
//! checked before any path is built, and the path is refused if it is not a plain file.

use std::path::{Path, PathBuf};

use super::review_error::ReviewError;
use super::screenshot::SCREENSHOTS_DIR;

/// `screenshots/attempt-NNN.png` and nothing else: the name comes from the UI, so
/// anything that could leave the folder is refused before a path is built.
pub fn validate_shot_name(name: &str) -> Result<&str, ReviewError> {
    let bad = || ReviewError::BadName(name.to_owned());
    let file = name
        .strip_prefix(SCREENSHOTS_DIR)
        .and_then(|rest| rest.strip_prefix('/'))
        .ok_or_else(bad)?;
    let digits = file
        .strip_prefix("attempt-")
        .and_then(|rest| rest.strip_suffix(".png"))
        .ok_or_else(bad)?;
    if digits.is_empty() || digits.len() > 6 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    Ok(file)
}

/// The archived screenshot `name` of `evidence_dir`, which must be a plain file.
pub(crate) fn shot_path(evidence_dir: &Path, name: &str) -> Result<PathBuf, ReviewError> {
    let file = validate_shot_name(name)?;
    let path = evidence_dir.join(SCREENSHOTS_DIR).join(file);
    // A symlink could point the viewer (or a rewrite) outside the evidence session.
    match std::fs::symlink_metadata(&path) {
        Ok(meta) if meta.file_type().is_file() => Ok(path),
        Ok(_) => Err(ReviewError::BadName(name.to_owned())),
        Err(_) => Err(ReviewError::Missing(name.to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_attempt_pngs_in_the_screenshots_folder_are_names() {
        for good in [
            "screenshots/attempt-001.png",
            "screenshots/attempt-1234.png",
        ] {
            assert!(validate_shot_name(good).is_ok(), "{good}");
        }
        for bad in [
            "screenshots/../result.json",
            "/etc/passwd",
            "screenshots/attempt-001.png/..",
            "screenshots/attempt-.png",
            "screenshots/attempt-00a.png",
            "screenshots/attempt-001.PNG",
            "screenshots/sub/attempt-001.png",
            "screenshots/attempt-001.png\0",
            "other/attempt-001.png",
        ] {
            assert!(
                matches!(validate_shot_name(bad), Err(ReviewError::BadName(_))),
                "{bad:?}"
            );
        }
    }
}
