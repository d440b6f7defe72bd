//! The filmstrip of the minimal path: during the final confirmation replays (replays the
//! engine asked for anyway), a masked screenshot after the launch and after each step,
//! taken with the same capture, masking rules and privacy level as every screenshot.
//! Frames go to `filmstrip/attempt-NNN/step-NN.png`; `filmstrip/filmstrip.json` says
//! which attempt each strip belongs to, whether that replay reproduced the crash, and
//! how much device time the frames cost.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::mask_record::record_path;
use super::picture::PictureName;
use super::screenshot::{archive_to, ArchivedShot, HubScreen};
use super::shot_name::shot_path;
use crate::atomic::{write_atomic, FileMode};
use crate::client::Hub;
use crate::config::MaskingConfig;
use crate::export::{BundleFrame, FilmstripInput};
use crate::mask::ShotOmission;
use crate::replay::ReplayObserver;

// Defined with the picture names; named here too, where frames are archived.
pub use super::picture::FILMSTRIP_DIR;
const RECORD_FILE: &str = "filmstrip.json";

/// `filmstrip/filmstrip.json`: every strip taken, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FilmstripRecord {
    pub strips: Vec<Strip>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Strip {
    pub attempt: u32,
    /// The replayed steps after launch.
    pub candidate: Vec<u32>,
    pub reproduced: bool,
    pub frames: Vec<StripFrame>,
    /// Device time the frames added to the replay.
    pub extra_ms: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StripFrame {
    /// The step of the original session the frame follows (the launch step for the
    /// first frame; `None` when the path has no launch step of its own).
    pub step: Option<u32>,
    /// Relative to the evidence session; `None` when the frame was omitted.
    pub src: Option<String>,
    #[serde(default, deserialize_with = "ShotOmission::read_compat")]
    pub omitted: Option<ShotOmission>,
    /// The frame shows the screen right before `step`'s action, not after it: the step
    /// crashed the app, so nothing could be masked after it, and the replay's masked
    /// frame before its last action stands in (as it does for the attempt's screenshot).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub before_action: bool,
}

impl FilmstripRecord {
    pub fn read(evidence_dir: &Path) -> FilmstripRecord {
        std::fs::read_to_string(evidence_dir.join(FILMSTRIP_DIR).join(RECORD_FILE))
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default()
    }

    /// Whether a strip of `candidate` that reproduced the crash is already there.
    pub fn has_reproduced(&self, candidate: &[u32]) -> bool {
        self.strips
            .iter()
            .any(|s| s.reproduced && s.candidate == candidate)
    }

    /// All device time frames cost in this run.
    pub fn extra_ms(&self) -> u64 {
        self.strips.iter().map(|s| s.extra_ms).sum()
    }

    fn append(evidence_dir: &Path, strip: Strip) -> std::io::Result<()> {
        let mut record = FilmstripRecord::read(evidence_dir);
        record.strips.push(strip);
        record.write(evidence_dir)
    }

    /// Records that the reviewer omitted frame `picture` (its file is already gone), so
    /// every reader of the strip says why the frame is missing.
    pub(crate) fn note_omitted(evidence_dir: &Path, picture: PictureName) -> std::io::Result<()> {
        let mut record = FilmstripRecord::read(evidence_dir);
        let name = picture.to_string();
        let mut changed = false;
        for frame in record.strips.iter_mut().flat_map(|s| s.frames.iter_mut()) {
            if frame.src.as_deref() == Some(name.as_str()) {
                frame.src = None;
                frame.omitted = Some(ShotOmission::ByReviewer);
                changed = true;
            }
        }
        if changed {
            record.write(evidence_dir)?;
        }
        Ok(())
    }

    fn write(&self, evidence_dir: &Path) -> std::io::Result<()> {
        let dir = evidence_dir.join(FILMSTRIP_DIR);
        std::fs::create_dir_all(&dir)?;
        let bytes = serde_json::to_vec_pretty(self).map_err(std::io::Error::other)?;
        write_atomic(&dir.join(RECORD_FILE), &bytes, FileMode::Private)
    }
}

/// Where a recorder's frames come from and where they go: the device showing the app,
/// and the evidence session they are archived in, masked.
pub struct FilmSource<'a> {
    pub hub: &'a Hub,
    pub device: &'a str,
    pub package: &'a str,
    pub evidence_dir: &'a Path,
    pub masking: &'a MaskingConfig,
}

impl FilmSource<'_> {
    /// One masked frame of the device's screen into `<evidence>/<folder>/<name>`, with
    /// the capture, masking and omission rules of every screenshot.
    pub async fn archive(&self, folder: &str, name: &str) -> ArchivedShot {
        let span = tracing::info_span!("filmstrip_frame", device = self.device, name);
        let screen = HubScreen::new(self.hub, self.device);
        tracing::Instrument::instrument(
            archive_to(
                &screen,
                self.package,
                self.evidence_dir,
                folder,
                name,
                self.masking,
            ),
            span,
        )
        .await
    }
}

/// Takes the frames of one replay. A disabled recorder looks at nothing, so every
/// replay can carry one and only the confirmation replays pay for frames.
pub struct FilmRecorder<'a> {
    source: FilmSource<'a>,
    attempt: u32,
    candidate: Vec<u32>,
    launch_step: Option<u32>,
    enabled: bool,
    frames: Vec<StripFrame>,
    extra: Duration,
}

impl<'a> FilmRecorder<'a> {
    pub fn new(
        source: FilmSource<'a>,
        attempt: u32,
        candidate: &[u32],
        launch_step: Option<u32>,
        enabled: bool,
    ) -> Self {
        FilmRecorder {
            source,
            attempt,
            candidate: candidate.to_vec(),
            launch_step,
            enabled,
            frames: Vec::new(),
            extra: Duration::ZERO,
        }
    }

    async fn frame(&mut self, step: Option<u32>) {
        if !self.enabled {
            return;
        }
        let started = Instant::now();
        let picture = PictureName::Frame {
            attempt: self.attempt,
            frame: u32::try_from(self.frames.len() + 1).unwrap_or(u32::MAX),
        };
        let shot = self
            .source
            .archive(&picture.folder(), &picture.file_name())
            .await;
        self.extra += started.elapsed();
        self.frames.push(StripFrame {
            step,
            src: shot.src,
            omitted: shot.omitted_because,
            before_action: false,
        });
    }

    /// The last step's frame, when it could not be kept (the step crashed the app, so
    /// there was no hierarchy to mask by), becomes a copy of the attempt's masked frame
    /// before that step's action (`before_last`: the step and the picture, relative to
    /// the evidence session), when the attempt has one (`before_frame.rs`). Never an
    /// unmasked picture: the copy is of a file the masking already wrote, with its mask
    /// record.
    fn stand_in_before_action(&mut self, before_last: Option<(u32, &str)>) {
        let Some((step, src)) = before_last else {
            return;
        };
        let Some((index, frame)) = self.frames.iter_mut().enumerate().next_back() else {
            return;
        };
        if frame.step != Some(step) || frame.src.is_some() {
            return;
        }
        let picture = PictureName::Frame {
            attempt: self.attempt,
            frame: u32::try_from(index + 1).unwrap_or(u32::MAX),
        };
        let from = self.source.evidence_dir.join(src);
        let to = picture.path_in(self.source.evidence_dir);
        let copied = std::fs::copy(&from, &to).and_then(|_| {
            match std::fs::copy(record_path(&from), record_path(&to)) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
                _ => Ok(()),
            }
        });
        match copied {
            Ok(()) => {
                frame.src = Some(picture.to_string());
                frame.omitted = None;
                frame.before_action = true;
            }
            Err(e) => {
                let _ = std::fs::remove_file(&to);
                tracing::warn!(error = %e, "the frame before the crashing action was not copied into the filmstrip");
            }
        }
    }

    /// Records the strip (with the replay's verdict) in `filmstrip.json`, the last step's
    /// frame standing in from the attempt's frame before its last action where it must;
    /// returns the device time the frames cost.
    pub fn finish(mut self, reproduced: bool, before_last: Option<(u32, &str)>) -> Duration {
        if !self.enabled || self.frames.is_empty() {
            return Duration::ZERO;
        }
        self.stand_in_before_action(before_last);
        let strip = Strip {
            attempt: self.attempt,
            candidate: self.candidate,
            reproduced,
            frames: self.frames,
            extra_ms: u64::try_from(self.extra.as_millis()).unwrap_or(u64::MAX),
        };
        if let Err(e) = FilmstripRecord::append(self.source.evidence_dir, strip) {
            // The frames are evidence extras; the run goes on without them.
            tracing::warn!(error = %e, "filmstrip record not written");
        }
        self.extra
    }
}

impl ReplayObserver for FilmRecorder<'_> {
    fn after_launch(&mut self) -> impl std::future::Future<Output = ()> + Send {
        let step = self.launch_step;
        self.frame(step)
    }

    fn after_action(&mut self, step: u32) -> impl std::future::Future<Output = ()> + Send {
        self.frame(Some(step))
    }
}

/// The frame file `src` names: a filmstrip frame's name (the record is evidence, so
/// untrusted), there as a regular file reached through real folders, as the checklist
/// lists it. Anything else is not exported.
pub(crate) fn frame_file(evidence_dir: &Path, src: &str) -> Option<(PictureName, PathBuf)> {
    let picture = src.parse::<PictureName>().ok()?;
    picture.frame()?;
    let path = shot_path(evidence_dir, picture).ok()?;
    Some((picture, path))
}

/// The strip to export: the first one of the minimal path that reproduced the crash
/// (its frames resolved to the files of the pictures the review covers).
pub(crate) fn for_export(evidence_dir: &Path, minimal_path: &[u32]) -> Option<FilmstripInput> {
    let record = FilmstripRecord::read(evidence_dir);
    let strip = record
        .strips
        .iter()
        .find(|s| s.reproduced && s.candidate.iter().all(|i| minimal_path.contains(i)))?;
    let frames = strip
        .frames
        .iter()
        .map(|f| BundleFrame {
            step: f.step,
            before_action: f.before_action,
            path: f
                .src
                .as_deref()
                .and_then(|src| frame_file(evidence_dir, src))
                .map(|(_, path)| path),
            // The bundle is English: the reason as the CLI words it.
            omitted: f.omitted.as_ref().map(ShotOmission::to_string),
        })
        .collect();
    Some(FilmstripInput {
        attempt: strip.attempt,
        frames,
        extra_device_ms: record.extra_ms(),
    })
}

#[cfg(test)]
mod tests {
    use image::{Rgba, RgbaImage};

    use super::*;

    /// A reproducing strip of attempt 5 whose frames name `srcs`, recorded in `dir`.
    fn record(dir: &Path, srcs: &[&str]) {
        let frames = srcs
            .iter()
            .map(|src| StripFrame {
                step: Some(1),
                src: Some((*src).to_owned()),
                omitted: None,
                before_action: false,
            })
            .collect();
        let strip = Strip {
            attempt: 5,
            candidate: vec![2],
            reproduced: true,
            frames,
            extra_ms: 10,
        };
        FilmstripRecord::append(dir, strip).unwrap();
    }

    /// The record is evidence: a frame it names outside the filmstrip's own pictures
    /// (which the review checklist lists) is not exported, whatever file it points at.
    #[test]
    fn only_frames_the_checklist_lists_are_exported() {
        let dir = tempfile::tempdir().unwrap();
        let kept = PictureName::Frame {
            attempt: 5,
            frame: 1,
        };
        for picture in [kept, PictureName::Screenshot { attempt: 5 }] {
            let path = picture.path_in(dir.path());
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            RgbaImage::from_pixel(4, 4, Rgba([1, 2, 3, 255]))
                .save(path)
                .unwrap();
        }
        std::fs::write(dir.path().join("result.json"), b"{}").unwrap();
        record(
            dir.path(),
            &[
                "filmstrip/attempt-005/step-01.png",
                "screenshots/attempt-005.png",
                "result.json",
                "filmstrip/attempt-005/../attempt-005/step-01.png",
                "filmstrip/attempt-5/step-01.png",
            ],
        );
        let film = for_export(dir.path(), &[1, 2]).unwrap();
        let paths: Vec<Option<PathBuf>> = film.frames.into_iter().map(|f| f.path).collect();
        assert_eq!(
            paths,
            [Some(kept.path_in(dir.path())), None, None, None, None]
        );
    }

    #[test]
    fn an_omitted_frame_is_missing_from_the_record_with_the_reason() {
        let dir = tempfile::tempdir().unwrap();
        record(
            dir.path(),
            &[
                "filmstrip/attempt-005/step-01.png",
                "filmstrip/attempt-005/step-02.png",
            ],
        );
        let gone = PictureName::Frame {
            attempt: 5,
            frame: 2,
        };
        FilmstripRecord::note_omitted(dir.path(), gone).unwrap();
        let frames = &FilmstripRecord::read(dir.path()).strips[0].frames;
        assert!(frames[0].src.is_some() && frames[0].omitted.is_none());
        assert_eq!(frames[1].src, None);
        assert_eq!(frames[1].omitted, Some(ShotOmission::ByReviewer));
    }
}
