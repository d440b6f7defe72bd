//! Filmstrip frames are reviewed like every other picture of the evidence (issue 28),
//! after a live run on the simulator: the checklist lists and counts them, a mask
//! applied to all the pictures reaches the exported `filmstrip/step-NN.png` and every
//! frame of `filmstrip.gif`, and a frame the reviewer omitted is exported neither as a
//! file nor in the GIF; the manifest records which frames nobody checked.

use crate::{client_support, live_support};

use std::path::{Path, PathBuf};

use client_support::servers_bin;
use image::codecs::gif::GifDecoder;
use image::{AnimationDecoder, RgbaImage};
use live_support::{evidence_id, fast, run_fresh};
use whittle_service::api::{export_evidence, ExportDir};
use whittle_service::evidence::{
    apply_masks, mark_reviewed, omit_shot, review_checklist, FilmstripRecord, PictureName,
    ReviewChecklist,
};
use whittle_service::export::{read_bundle, Bundle, FrameRef, FILMSTRIP_GIF};
use whittle_service::mask::{MaskRect, MaskStyle};
use whittle_service::run::RunEnd;

/// Below the app's views (`client_support::MODEL` lays them out in 1080×1920 of the
/// simulator's 1080×2400 screen), where the automatic masks leave the screen as it is,
/// so every frame has something under it that is not the mask.
fn mask() -> MaskRect {
    MaskRect {
        x: 100,
        y: 2000,
        w: 800,
        h: 300,
        reason: "reviewer".into(),
    }
}

/// The mask's interior in an image `scale` times the frame's size, a margin in from its
/// edges (scaling blends the edges with the pixels beside them).
fn inside(scale: f64, margin: u32) -> impl Iterator<Item = (u32, u32)> {
    let r = mask();
    let at = |v: u32| (f64::from(v) * scale) as u32;
    let (x0, y0) = (at(r.x) + margin, at(r.y) + margin);
    let (x1, y1) = (at(r.x + r.w) - margin, at(r.y + r.h) - margin);
    (y0..y1).flat_map(move |y| (x0..x1).map(move |x| (x, y)))
}

/// Every pixel under the mask is the solid mask's black (a GIF's palette may shift it a
/// little).
fn masked(img: &RgbaImage, scale: f64, margin: u32) -> bool {
    inside(scale, margin).all(|(x, y)| img.get_pixel(x, y).0[..3].iter().all(|&c| c <= 24))
}

fn frames(checklist: &ReviewChecklist) -> Vec<PictureName> {
    checklist
        .shots
        .iter()
        .filter(|s| s.frame.is_some() && !s.omitted)
        .map(|s| s.name.parse().unwrap())
        .collect()
}

fn export(workspace: &Path, evidence: &Path, name: &str) -> (PathBuf, Bundle) {
    let out = evidence.parent().unwrap().join("bundles");
    let out = ExportDir::create(&out).unwrap();
    let dir = export_evidence(workspace, &evidence_id(evidence), &out, name).unwrap();
    let bundle = read_bundle(&dir).unwrap();
    (dir, bundle)
}

fn gif_frames(bundle_dir: &Path) -> Vec<RgbaImage> {
    let bytes = std::fs::read(bundle_dir.join(FILMSTRIP_GIF)).unwrap();
    GifDecoder::new(std::io::Cursor::new(bytes))
        .unwrap()
        .into_frames()
        .collect_frames()
        .unwrap()
        .into_iter()
        .map(|f| f.into_buffer())
        .collect()
}

#[tokio::test(flavor = "current_thread")]
async fn every_kept_frame_is_reviewed_masked_and_exported_only_as_reviewed() {
    let Some(bin) = servers_bin() else { return };
    let s = fast(&bin);
    let outcome = run_fresh(&s).await;
    assert_eq!(outcome.summary.end, RunEnd::Minimized, "{}", outcome.report);
    let evidence = outcome.evidence_dir.clone().unwrap();
    let workspace = s.config.workspace.clone();

    // The checklist lists every frame the strips kept, beside the screenshots.
    let checklist = review_checklist(&evidence);
    let taken: Vec<String> = FilmstripRecord::read(&evidence)
        .strips
        .iter()
        .flat_map(|s| s.frames.iter().filter_map(|f| f.src.clone()))
        .collect();
    let listed = frames(&checklist);
    assert!(listed.len() >= 3, "frames of the minimal path: {listed:?}");
    let mut names: Vec<String> = listed.iter().map(|p| p.to_string()).collect();
    names.sort();
    let mut taken_sorted = taken.clone();
    taken_sorted.sort();
    assert_eq!(names, taken_sorted);
    let screenshots = checklist.shots.iter().filter(|s| s.frame.is_none()).count();
    assert_eq!(
        checklist.summary.total as usize,
        screenshots + listed.len(),
        "{checklist:?}"
    );

    // The crash step's frame: after the crashing tap nothing could be masked (the app is
    // gone), so the strip holds the attempt's masked frame from right before that tap —
    // a copy of the attempt's screenshot, never a capture of its own.
    let record = FilmstripRecord::read(&evidence);
    let strip = record
        .strips
        .iter()
        .find(|s| s.reproduced)
        .expect("a strip");
    let (crash_frame, others) = strip.frames.split_last().unwrap();
    assert!(crash_frame.before_action, "{strip:?}");
    assert!(others.iter().all(|f| !f.before_action), "{strip:?}");
    assert_eq!(crash_frame.step, strip.candidate.last().copied());
    let src = crash_frame
        .src
        .as_deref()
        .expect("the crash step's frame is kept");
    let shot = evidence.join(format!("screenshots/attempt-{:03}.png", strip.attempt));
    assert_eq!(
        std::fs::read(evidence.join(src)).unwrap(),
        std::fs::read(&shot).unwrap()
    );
    // The element the crashing tap was about to act on is outlined in it (magenta, from
    // the hierarchy read with its pixels), and its mask record is beside it.
    let pixels = image::open(&shot).unwrap().to_rgba8();
    assert!(
        pixels.pixels().any(|p| p.0 == [255, 0, 200, 255]),
        "no outline in {}",
        shot.display()
    );
    assert!(shot.with_extension("masks.json").exists());

    // Before: every frame shows its button where the mask will go.
    for frame in &listed {
        let img = image::open(frame.path_in(&evidence)).unwrap().to_rgba8();
        assert!(!masked(&img, 1.0, 0), "{frame} is already black there");
    }

    // Apply to all: every picture on the checklist.
    let all: Vec<PictureName> = checklist
        .shots
        .iter()
        .map(|s| s.name.parse().unwrap())
        .collect();
    let changed = apply_masks(&evidence, &all, &[mask()], MaskStyle::Solid).unwrap();
    assert_eq!(changed as usize, all.len());

    // Every frame but the last checked; the manifest names the one left.
    let (last, checked) = listed.split_last().unwrap();
    for &frame in checked {
        mark_reviewed(&evidence, frame, true).unwrap();
    }
    let (dir, bundle) = export(&workspace, &evidence, "masked");
    let film = bundle.manifest.filmstrip.clone().expect("a filmstrip");
    let exported: Vec<&str> = film
        .frames
        .iter()
        .filter_map(|f| f.path.as_deref())
        .collect();
    assert!(exported.len() >= 3, "{film:?}");
    let last_frame = film.frames.last().unwrap();
    assert!(
        last_frame.before_action && last_frame.path.is_some(),
        "{film:?}"
    );
    let width = image::open(dir.join(exported[0])).unwrap().width();
    for path in &exported {
        let img = image::open(dir.join(path)).unwrap().to_rgba8();
        assert!(masked(&img, 1.0, 0), "{path} shows what the mask hides");
    }
    let gif = gif_frames(&dir);
    // One per frame, and the last again with the red border.
    assert_eq!(gif.len(), exported.len() + 1);
    let scale = f64::from(gif[0].width()) / f64::from(width);
    for (i, img) in gif.iter().enumerate() {
        assert!(
            masked(img, scale, 2),
            "GIF frame {} shows what the mask hides",
            i + 1
        );
    }
    let review = bundle.manifest.review.clone().expect("the review");
    assert_eq!(review.total, checklist.summary.total);
    assert_eq!(
        review.not_reviewed_frames,
        [FrameRef {
            attempt: last.attempt(),
            frame: last.frame().unwrap(),
        }]
    );

    // Omitted: neither its file nor a GIF frame of it is exported.
    let gone = PictureName::Frame {
        attempt: film.attempt,
        frame: 2,
    };
    omit_shot(&evidence, gone).unwrap();
    let after = review_checklist(&evidence);
    assert_eq!(after.summary.total, checklist.summary.total);
    assert_eq!(after.summary.omitted, 1);
    let (dir, bundle) = export(&workspace, &evidence, "omitted");
    let film = bundle.manifest.filmstrip.expect("a filmstrip");
    let position = film
        .frames
        .iter()
        .position(|f| f.path.is_none())
        .expect("the omitted frame is listed without a file");
    assert_eq!(
        film.frames[position].omitted.as_deref(),
        Some("omitted by the reviewer")
    );
    let kept = film.frames.iter().filter(|f| f.path.is_some()).count();
    assert_eq!(kept, exported.len() - 1);
    assert!(!dir
        .join(format!("filmstrip/step-{:02}.png", position + 1))
        .exists());
    assert_eq!(
        gif_frames(&dir).len(),
        kept + 1,
        "the GIF is built without it"
    );
}
