//! Which archived picture a request names, and its file: a name comes from the UI or
//! from the evidence (untrusted), so it is parsed as a [`PictureName`] before any path is
//! built, and the path is refused unless it is a plain file reached through real
//! folders.

use std::path::{Path, PathBuf};

use super::picture::PictureName;
use super::review_error::ReviewError;

/// An attempt's screenshot (`screenshots/attempt-NNN.png`) and nothing else: the one
/// kind of picture a step of the evidence names.
pub fn validate_shot_name(name: &str) -> Result<PictureName, ReviewError> {
    match name.parse()? {
        picture @ PictureName::Screenshot { .. } => Ok(picture),
        PictureName::Frame { .. } => Err(ReviewError::BadName(name.to_owned())),
    }
}

/// The file of `picture` in `evidence_dir`, when it is there as a regular file reached
/// through real folders: a symlink anywhere on the way could point the viewer (or a
/// rewrite) outside the evidence session.
pub(crate) fn shot_path(evidence_dir: &Path, picture: PictureName) -> Result<PathBuf, ReviewError> {
    let name = picture.to_string();
    let mut path = evidence_dir.to_path_buf();
    let parts: Vec<&str> = name.split('/').collect();
    for (i, part) in parts.iter().enumerate() {
        path.push(part);
        let last = i + 1 == parts.len();
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if last && meta.file_type().is_file() => {}
            Ok(meta) if !last && meta.file_type().is_dir() => {}
            Ok(_) => return Err(ReviewError::BadName(name)),
            Err(_) => return Err(ReviewError::Missing(name)),
        }
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_names_only_an_attempts_screenshot() {
        assert_eq!(
            validate_shot_name("screenshots/attempt-001.png").unwrap(),
            PictureName::Screenshot { attempt: 1 }
        );
        for bad in [
            "filmstrip/attempt-002/step-01.png",
            "screenshots/../result.json",
            "screenshots/attempt-1.png",
            "/etc/passwd",
            "screenshots/attempt-001.png\0",
        ] {
            assert!(
                matches!(validate_shot_name(bad), Err(ReviewError::BadName(_))),
                "{bad:?}"
            );
        }
    }
}
