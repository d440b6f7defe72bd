//! The reviewer's checklist over an evidence session's pictures (each attempt's
//! screenshot and each filmstrip frame), kept in the session as `review.json` (written
//! atomically): which pictures a person has checked, and which they omitted. It survives
//! a restart, the window shows it ("16 of 17 reviewed · 1 omitted"), and an export
//! records it in its manifest.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::picture::{PictureName, FILMSTRIP_DIR, SCREENSHOTS_DIR};
use super::review_error::ReviewError;
use super::shot_name::shot_path;
use crate::atomic::{write_atomic, FileMode};
use crate::export::{FrameRef, ReviewSummary};

pub const REVIEW_FILE: &str = "review.json";
const REVIEW_SCHEMA: u32 = 1;

/// `review.json`. Names are picture names (`screenshots/attempt-NNN.png`,
/// `filmstrip/attempt-NNN/step-NN.png`); anything else in the file (it is evidence, so
/// untrusted) is ignored.
#[derive(Debug, Default, Serialize, Deserialize)]
struct ReviewFile {
    schema: u32,
    #[serde(default)]
    reviewed: BTreeSet<String>,
    #[serde(default)]
    omitted: BTreeSet<String>,
}

/// `review.json` as read: only the names that are pictures.
#[derive(Debug, Default)]
struct Review {
    reviewed: BTreeSet<PictureName>,
    omitted: BTreeSet<PictureName>,
}

/// One picture on the checklist.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ShotReview {
    pub name: String,
    pub attempt: u32,
    /// The frame's place in the filmstrip attempt `attempt` took (1 = after the launch);
    /// `None` for the attempt's own screenshot.
    pub frame: Option<u32>,
    pub reviewed: bool,
    /// Deleted from the evidence by the reviewer (so also reviewed).
    pub omitted: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ReviewChecklist {
    /// In attempt order; an attempt's screenshot before its frames.
    pub shots: Vec<ShotReview>,
    pub summary: ReviewSummary,
}

fn file_path(evidence_dir: &Path) -> PathBuf {
    evidence_dir.join(REVIEW_FILE)
}

fn pictures(names: BTreeSet<String>) -> BTreeSet<PictureName> {
    names.iter().filter_map(|n| n.parse().ok()).collect()
}

fn read_file(evidence_dir: &Path) -> Review {
    let path = file_path(evidence_dir);
    let Ok(bytes) = std::fs::read(&path) else {
        return Review::default();
    };
    let file: ReviewFile = serde_json::from_slice(&bytes).unwrap_or_else(|e| {
        tracing::warn!(path = %path.display(), error = %e, "review checklist unreadable; starting over");
        ReviewFile::default()
    });
    Review {
        reviewed: pictures(file.reviewed),
        omitted: pictures(file.omitted),
    }
}

fn write_file(evidence_dir: &Path, review: &Review) -> Result<(), ReviewError> {
    let path = file_path(evidence_dir);
    let save = |source| ReviewError::Save {
        path: path.clone(),
        source,
    };
    let names = |set: &BTreeSet<PictureName>| set.iter().map(|p| p.to_string()).collect();
    let file = ReviewFile {
        schema: REVIEW_SCHEMA,
        reviewed: names(&review.reviewed),
        omitted: names(&review.omitted),
    };
    let bytes = serde_json::to_vec_pretty(&file).map_err(|e| save(std::io::Error::other(e)))?;
    write_atomic(&path, &bytes, FileMode::Private).map_err(save)
}

/// The names of the entries of `dir` that are folders (`folders`) or regular files, as
/// `read_dir` sees them (a symlink is neither).
fn entries(dir: &Path, folders: bool) -> Vec<String> {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| {
            e.file_type()
                .is_ok_and(|t| if folders { t.is_dir() } else { t.is_file() })
        })
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .collect()
}

/// The pictures kept on disk: every one the viewer can open (a regular file reached
/// through real folders, under its one name), so nothing can be exported that the
/// checklist does not list.
fn archived(evidence_dir: &Path) -> BTreeSet<PictureName> {
    let screenshots = entries(&evidence_dir.join(SCREENSHOTS_DIR), false)
        .into_iter()
        .map(|file| format!("{SCREENSHOTS_DIR}/{file}"));
    let film = evidence_dir.join(FILMSTRIP_DIR);
    let frames = entries(&film, true).into_iter().flat_map(|strip| {
        entries(&film.join(&strip), false)
            .into_iter()
            .map(move |file| format!("{FILMSTRIP_DIR}/{strip}/{file}"))
    });
    screenshots
        .chain(frames)
        .filter_map(|name| name.parse().ok())
        .filter(|&picture| shot_path(evidence_dir, picture).is_ok())
        .collect()
}

fn checklist(evidence_dir: &Path, review: &Review) -> ReviewChecklist {
    let on_disk = archived(evidence_dir);
    let entry = |picture: PictureName, reviewed: bool, omitted: bool| ShotReview {
        name: picture.to_string(),
        attempt: picture.attempt(),
        frame: picture.frame(),
        reviewed,
        omitted,
    };
    let mut listed: Vec<(PictureName, ShotReview)> = on_disk
        .iter()
        .map(|&p| (p, entry(p, review.reviewed.contains(&p), false)))
        .chain(
            review
                .omitted
                .iter()
                .filter(|p| !on_disk.contains(*p))
                .map(|&p| (p, entry(p, true, true))),
        )
        .collect();
    listed.sort_by_key(|(picture, _)| *picture);
    let shots: Vec<ShotReview> = listed.into_iter().map(|(_, shot)| shot).collect();
    let unchecked = || shots.iter().filter(|s| !s.reviewed);
    let summary = ReviewSummary {
        total: shots.len() as u32,
        reviewed: shots.iter().filter(|s| s.reviewed).count() as u32,
        omitted: shots.iter().filter(|s| s.omitted).count() as u32,
        not_reviewed: unchecked()
            .filter(|s| s.frame.is_none())
            .map(|s| s.attempt)
            .collect(),
        not_reviewed_frames: unchecked()
            .filter_map(|s| {
                Some(FrameRef {
                    attempt: s.attempt,
                    frame: s.frame?,
                })
            })
            .collect(),
    };
    ReviewChecklist { shots, summary }
}

/// The checklist of an evidence session (empty before any picture was archived).
pub fn review_checklist(evidence_dir: &Path) -> ReviewChecklist {
    checklist(evidence_dir, &read_file(evidence_dir))
}

/// Marks one archived picture as checked (or not) and returns the new checklist.
pub fn mark_reviewed(
    evidence_dir: &Path,
    picture: PictureName,
    reviewed: bool,
) -> Result<ReviewChecklist, ReviewError> {
    shot_path(evidence_dir, picture)?;
    let mut review = read_file(evidence_dir);
    if reviewed {
        review.reviewed.insert(picture);
    } else {
        review.reviewed.remove(&picture);
    }
    write_file(evidence_dir, &review)?;
    Ok(checklist(evidence_dir, &review))
}

/// Records that the reviewer omitted `picture` (after it was deleted).
pub(crate) fn note_omitted(evidence_dir: &Path, picture: PictureName) -> Result<(), ReviewError> {
    let mut review = read_file(evidence_dir);
    review.reviewed.remove(&picture);
    review.omitted.insert(picture);
    write_file(evidence_dir, &review)
}

#[cfg(test)]
mod tests {
    use image::{Rgba, RgbaImage};

    use super::*;
    use crate::evidence::omit_shot;

    fn save(dir: &Path, picture: PictureName) {
        let path = picture.path_in(dir);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        RgbaImage::from_pixel(4, 4, Rgba([1, 2, 3, 255]))
            .save(path)
            .unwrap();
    }

    fn evidence(attempts: &[u32]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for &attempt in attempts {
            save(dir.path(), shot(attempt));
        }
        dir
    }

    fn shot(attempt: u32) -> PictureName {
        PictureName::Screenshot { attempt }
    }

    fn frame(attempt: u32, frame: u32) -> PictureName {
        PictureName::Frame { attempt, frame }
    }

    #[test]
    fn marks_and_omissions_survive_a_reload_and_are_counted() {
        let dir = evidence(&[1, 2, 3, 4]);
        let fresh = review_checklist(dir.path());
        assert_eq!(fresh.summary.total, 4);
        assert_eq!(fresh.summary.reviewed, 0);
        assert_eq!(fresh.summary.not_reviewed, [1, 2, 3, 4]);

        mark_reviewed(dir.path(), shot(1), true).unwrap();
        mark_reviewed(dir.path(), shot(3), true).unwrap();
        mark_reviewed(dir.path(), shot(3), false).unwrap();
        omit_shot(dir.path(), shot(2)).unwrap();

        // A new read (as after a restart) sees the same thing.
        let after = review_checklist(dir.path());
        assert_eq!(
            after.summary,
            ReviewSummary {
                total: 4,
                reviewed: 2,
                omitted: 1,
                not_reviewed: vec![3, 4],
                not_reviewed_frames: vec![],
            }
        );
        assert_eq!(
            after.shots.iter().map(|s| s.attempt).collect::<Vec<_>>(),
            [1, 2, 3, 4]
        );
        assert!(after.shots[1].omitted && after.shots[1].reviewed);
        assert!(dir.path().join(REVIEW_FILE).is_file());
    }

    /// Filmstrip frames are pictures like the screenshots: listed after their attempt's
    /// screenshot, counted, checked and omitted the same way.
    #[test]
    fn filmstrip_frames_are_on_the_checklist() {
        let dir = evidence(&[1, 2]);
        for n in 1..=3 {
            save(dir.path(), frame(2, n));
        }
        // Not pictures: the strip's record, a mask record, a stray file.
        std::fs::write(dir.path().join("filmstrip/filmstrip.json"), b"{}").unwrap();
        std::fs::write(
            dir.path().join("filmstrip/attempt-002/step-01.masks.json"),
            b"{}",
        )
        .unwrap();
        std::fs::write(dir.path().join("filmstrip/attempt-002/notes.png"), b"x").unwrap();

        let fresh = review_checklist(dir.path());
        assert_eq!(
            fresh
                .shots
                .iter()
                .map(|s| (s.name.as_str(), s.attempt, s.frame))
                .collect::<Vec<_>>(),
            [
                ("screenshots/attempt-001.png", 1, None),
                ("screenshots/attempt-002.png", 2, None),
                ("filmstrip/attempt-002/step-01.png", 2, Some(1)),
                ("filmstrip/attempt-002/step-02.png", 2, Some(2)),
                ("filmstrip/attempt-002/step-03.png", 2, Some(3)),
            ]
        );
        assert_eq!(fresh.summary.total, 5);

        mark_reviewed(dir.path(), frame(2, 1), true).unwrap();
        mark_reviewed(dir.path(), shot(1), true).unwrap();
        omit_shot(dir.path(), frame(2, 3)).unwrap();
        let after = review_checklist(dir.path());
        assert_eq!(
            after.summary,
            ReviewSummary {
                total: 5,
                reviewed: 3,
                omitted: 1,
                not_reviewed: vec![2],
                not_reviewed_frames: vec![FrameRef {
                    attempt: 2,
                    frame: 2
                }],
            }
        );
        let saved = std::fs::read_to_string(dir.path().join(REVIEW_FILE)).unwrap();
        assert!(
            saved.contains("filmstrip/attempt-002/step-01.png"),
            "{saved}"
        );
        assert!(
            saved.contains("filmstrip/attempt-002/step-03.png"),
            "{saved}"
        );
    }

    #[test]
    fn only_archived_pictures_can_be_marked() {
        let dir = evidence(&[1]);
        for missing in [shot(9), frame(1, 1)] {
            assert!(
                mark_reviewed(dir.path(), missing, true).is_err(),
                "{missing}"
            );
        }
        assert!(!dir.path().join(REVIEW_FILE).exists());
    }

    #[test]
    fn a_tampered_or_broken_file_is_read_safely() {
        let dir = evidence(&[1, 2]);
        std::fs::write(
            dir.path().join(REVIEW_FILE),
            r#"{"schema":1,"reviewed":["../../etc/passwd","screenshots/attempt-002.png","screenshots/attempt-2.png"],"omitted":["x","filmstrip/attempt-002/../step-01.png"]}"#,
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
