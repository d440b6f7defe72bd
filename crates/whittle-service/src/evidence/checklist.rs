//! The reviewer's checklist over an evidence session's screenshots, kept in the session
//! as `review.json` (written atomically): which screenshots a person has checked, and
//! which they omitted. It survives a restart, the window shows it ("16 of 17 reviewed ·
//! 1 omitted"), and an export records it in its manifest.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::review_error::ReviewError;
use super::screenshot::SCREENSHOTS_DIR;
use super::shot_name::{shot_path, validate_shot_name};
use crate::atomic::{write_atomic, FileMode};
use crate::export::ReviewSummary;

pub const REVIEW_FILE: &str = "review.json";
const REVIEW_SCHEMA: u32 = 1;

/// `review.json`. Names are `screenshots/attempt-NNN.png`; anything else in the file
/// (it is evidence, so untrusted) is ignored.
#[derive(Debug, Default, Serialize, Deserialize)]
struct ReviewFile {
    schema: u32,
    #[serde(default)]
    reviewed: BTreeSet<String>,
    #[serde(default)]
    omitted: BTreeSet<String>,
}

/// One screenshot on the checklist.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ShotReview {
    pub name: String,
    pub attempt: u32,
    pub reviewed: bool,
    /// Deleted from the evidence by the reviewer (so also reviewed).
    pub omitted: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ReviewChecklist {
    /// In attempt order.
    pub shots: Vec<ShotReview>,
    pub summary: ReviewSummary,
}

fn file_path(evidence_dir: &Path) -> PathBuf {
    evidence_dir.join(REVIEW_FILE)
}

fn attempt_of(name: &str) -> Option<u32> {
    validate_shot_name(name)
        .ok()?
        .strip_prefix("attempt-")?
        .strip_suffix(".png")?
        .parse()
        .ok()
}

fn read_file(evidence_dir: &Path) -> ReviewFile {
    let path = file_path(evidence_dir);
    let Ok(bytes) = std::fs::read(&path) else {
        return ReviewFile::default();
    };
    let mut file: ReviewFile = serde_json::from_slice(&bytes).unwrap_or_else(|e| {
        tracing::warn!(path = %path.display(), error = %e, "review checklist unreadable; starting over");
        ReviewFile::default()
    });
    file.reviewed.retain(|n| attempt_of(n).is_some());
    file.omitted.retain(|n| attempt_of(n).is_some());
    file
}

fn write_file(evidence_dir: &Path, file: &ReviewFile) -> Result<(), ReviewError> {
    let path = file_path(evidence_dir);
    let save = |source| ReviewError::Save {
        path: path.clone(),
        source,
    };
    let bytes = serde_json::to_vec_pretty(file).map_err(|e| save(std::io::Error::other(e)))?;
    write_atomic(&path, &bytes, FileMode::Private).map_err(save)
}

/// The archived screenshots on disk (regular files only: a symlink is not evidence).
fn archived(evidence_dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(evidence_dir.join(SCREENSHOTS_DIR))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| {
            e.file_name()
                .to_str()
                .map(|n| format!("{SCREENSHOTS_DIR}/{n}"))
        })
        .filter(|n| attempt_of(n).is_some())
        .collect()
}

fn checklist(evidence_dir: &Path, file: &ReviewFile) -> ReviewChecklist {
    let on_disk = archived(evidence_dir);
    let mut shots: Vec<ShotReview> = on_disk
        .iter()
        .map(|name| ShotReview {
            name: name.clone(),
            attempt: attempt_of(name).unwrap_or_default(),
            reviewed: file.reviewed.contains(name),
            omitted: false,
        })
        .chain(
            file.omitted
                .iter()
                .filter(|n| !on_disk.contains(*n))
                .map(|name| ShotReview {
                    name: name.clone(),
                    attempt: attempt_of(name).unwrap_or_default(),
                    reviewed: true,
                    omitted: true,
                }),
        )
        .collect();
    shots.sort_by_key(|s| s.attempt);
    let summary = ReviewSummary {
        total: shots.len() as u32,
        reviewed: shots.iter().filter(|s| s.reviewed).count() as u32,
        omitted: shots.iter().filter(|s| s.omitted).count() as u32,
        not_reviewed: shots
            .iter()
            .filter(|s| !s.reviewed)
            .map(|s| s.attempt)
            .collect(),
    };
    ReviewChecklist { shots, summary }
}

/// The checklist of an evidence session (empty before any screenshot was archived).
pub fn review_checklist(evidence_dir: &Path) -> ReviewChecklist {
    checklist(evidence_dir, &read_file(evidence_dir))
}

/// Marks one archived screenshot as checked (or not) and returns the new checklist.
pub fn mark_reviewed(
    evidence_dir: &Path,
    name: &str,
    reviewed: bool,
) -> Result<ReviewChecklist, ReviewError> {
    shot_path(evidence_dir, name)?;
    let mut file = read_file(evidence_dir);
    file.schema = REVIEW_SCHEMA;
    if reviewed {
        file.reviewed.insert(name.to_owned());
    } else {
        file.reviewed.remove(name);
    }
    write_file(evidence_dir, &file)?;
    Ok(checklist(evidence_dir, &file))
}

/// Records that the reviewer omitted `name` (after it was deleted).
pub(crate) fn note_omitted(evidence_dir: &Path, name: &str) -> Result<(), ReviewError> {
    let mut file = read_file(evidence_dir);
    file.schema = REVIEW_SCHEMA;
    file.reviewed.remove(name);
    file.omitted.insert(name.to_owned());
    write_file(evidence_dir, &file)
}

#[cfg(test)]
mod tests {
    use image::{Rgba, RgbaImage};

    use super::*;
    use crate::evidence::omit_shot;

    fn evidence(attempts: &[u32]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let shots = dir.path().join(SCREENSHOTS_DIR);
        std::fs::create_dir_all(&shots).unwrap();
        for a in attempts {
            RgbaImage::from_pixel(4, 4, Rgba([1, 2, 3, 255]))
                .save(shots.join(format!("attempt-{a:03}.png")))
                .unwrap();
        }
        dir
    }

    fn name(a: u32) -> String {
        format!("screenshots/attempt-{a:03}.png")
    }

    #[test]
    fn marks_and_omissions_survive_a_reload_and_are_counted() {
        let dir = evidence(&[1, 2, 3, 4]);
        let fresh = review_checklist(dir.path());
        assert_eq!(fresh.summary.total, 4);
        assert_eq!(fresh.summary.reviewed, 0);
        assert_eq!(fresh.summary.not_reviewed, [1, 2, 3, 4]);

        mark_reviewed(dir.path(), &name(1), true).unwrap();
        mark_reviewed(dir.path(), &name(3), true).unwrap();
        mark_reviewed(dir.path(), &name(3), false).unwrap();
        omit_shot(dir.path(), &name(2)).unwrap();

        // A new read (as after a restart) sees the same thing.
        let after = review_checklist(dir.path());
        assert_eq!(
            after.summary,
            ReviewSummary {
                total: 4,
                reviewed: 2,
                omitted: 1,
                not_reviewed: vec![3, 4],
            }
        );
        assert_eq!(
            after.shots.iter().map(|s| s.attempt).collect::<Vec<_>>(),
            [1, 2, 3, 4]
        );
        assert!(after.shots[1].omitted && after.shots[1].reviewed);
        assert!(dir.path().join(REVIEW_FILE).is_file());
    }

    #[test]
    fn only_archived_screenshots_can_be_marked() {
        let dir = evidence(&[1]);
        for bad in [
            "screenshots/attempt-009.png",
            "screenshots/../result.json",
            "review.json",
        ] {
            assert!(mark_reviewed(dir.path(), bad, true).is_err(), "{bad}");
        }
        assert!(!dir.path().join(REVIEW_FILE).exists());
    }

    #[test]
    fn a_tampered_or_broken_file_is_read_safely() {
        let dir = evidence(&[1, 2]);
        std::fs::write(
            dir.path().join(REVIEW_FILE),
            r#"{"schema":1,"reviewed":["../../etc/passwd","screenshots/attempt-002.png"],"omitted":["x"]}"#,
        )
        .unwrap();
        let list = review_checklist(dir.path());
        assert_eq!(list.summary.total, 2);
        assert_eq!(list.summary.reviewed, 1);
        assert_eq!(list.summary.omitted, 0);
        std::fs::write(dir.path().join(REVIEW_FILE), b"not json").unwrap();
        assert_eq!(review_checklist(dir.path()).summary.reviewed, 0);
    }
}
