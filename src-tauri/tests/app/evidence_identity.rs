//! Every image the window shows is addressed by evidence session and attempt: two real
//! minimizes of two different sessions (a real `whittle-servers` process) archive
//! screenshots under the same attempt names, and each thumbnail and view the app serves
//! must be its own session's file, pixel for pixel — never the other run's attempt with
//! the same number. Also: the review checklist and the mask preview on real evidence.

use crate::common;

use std::path::Path;
use std::sync::Arc;

use base64::Engine;
use common::*;
use image::RgbaImage;
use whittle_app::runs::WindowRuns;
use whittle_service::api::pictures::{self as screenshots, MaskPreviewRequest, MaskRequest};
use whittle_service::mask::{MaskRect, MaskStyle};
use whittle_service::run::{RunEnd, RunEvent};

const LOGIN: &str = "2026-05-13_170000_legacy-login";

fn decode_data_url(url: &str) -> RgbaImage {
    let b64 = url
        .strip_prefix("data:image/png;base64,")
        .expect("a PNG data URL");
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(b64)
        .unwrap();
    image::load_from_memory(&bytes).unwrap().to_rgba8()
}

/// The mean absolute channel difference of two images of the same size.
fn distance(a: &RgbaImage, b: &RgbaImage) -> f64 {
    assert_eq!(a.dimensions(), b.dimensions());
    let total: u64 = a
        .as_raw()
        .iter()
        .zip(b.as_raw())
        .map(|(x, y)| u64::from(x.abs_diff(*y)))
        .sum();
    total as f64 / a.as_raw().len() as f64
}

/// The file on disk, scaled to `size` independently of the app's thumbnail code.
fn file_scaled(path: &Path, (w, h): (u32, u32)) -> RgbaImage {
    let img = image::open(path).unwrap().to_rgba8();
    image::imageops::resize(&img, w, h, image::imageops::FilterType::Triangle)
}

/// One attempt's screenshot and whether it reproduced the crash.
type Shot = (u32, String, bool);

/// Runs one minimize of `session` and returns its runs, its evidence session and the
/// screenshot of each attempt, in attempt order.
fn minimize(setup: &Setup, session: &str) -> (Arc<WindowRuns>, String, Vec<Shot>) {
    let runs = Arc::new(WindowRuns::default());
    let (send, rx) = updates();
    let mut request = setup.request(30);
    request.session_id = session.into();
    whittle_app::run_control::start(Some(&setup.config()), &runs, request, send).unwrap();
    let (events, result) = drain(&rx);
    assert_eq!(
        result.summary.end,
        RunEnd::Minimized,
        "{session}: {}",
        result.report
    );
    let shots = events
        .iter()
        .filter_map(|e| match e {
            RunEvent::AttemptFinished(a) => a
                .screenshot
                .clone()
                .map(|s| (a.attempt, s, a.verdict.reproduced())),
            _ => None,
        })
        .collect();
    (runs, result.summary.evidence_session.unwrap(), shots)
}

#[test]
fn two_runs_thumbnails_and_views_are_each_their_own_sessions_files() {
    let setup = Setup::new();
    let ws = setup.workspace();
    copy_dir(
        &repo().join("demo/workspace/sessions").join(LOGIN),
        &ws.join("sessions").join(LOGIN),
    );
    let (_, first, first_shots) = minimize(&setup, SESSION);
    let (_, second, second_shots) = minimize(&setup, LOGIN);
    assert_ne!(first, second);
    let ws_text = ws.display().to_string();

    let mut shared_names = 0;
    let mut told_apart = 0;
    for (evidence, shots, other) in [
        (&first, &first_shots, &second),
        (&second, &second_shots, &first),
    ] {
        assert!(!shots.is_empty(), "{evidence} archived screenshots");
        for (attempt, name, _) in shots {
            assert_eq!(name, &format!("screenshots/attempt-{attempt:03}.png"));
            let own = ws.join("sessions").join(evidence).join(name);
            let thumb = decode_data_url(&screenshots::thumbnail(&ws_text, evidence, name).unwrap());
            let own_distance = distance(&thumb, &file_scaled(&own, thumb.dimensions()));
            assert!(
                own_distance < 4.0,
                "{evidence} {name}: the thumbnail is not its file ({own_distance:.1})"
            );
            let view = screenshots::view(&ws_text, evidence, name).unwrap();
            assert_eq!(&view.evidence_session, evidence);
            assert_eq!(
                decode_data_url(&view.data_url),
                image::open(&own).unwrap().to_rgba8(),
                "{evidence} {name}: the viewer shows another image"
            );

            let theirs = ws.join("sessions").join(other).join(name);
            if theirs.is_file() {
                shared_names += 1;
                let other_distance = distance(&thumb, &file_scaled(&theirs, thumb.dimensions()));
                if other_distance > own_distance + 4.0 {
                    told_apart += 1;
                }
            }
        }
    }
    assert!(
        shared_names > 0,
        "both runs have an attempt of the same number"
    );
    assert!(
        told_apart > 0,
        "some same-numbered attempts show different screens, so a mix-up would be seen"
    );
}

#[test]
fn the_checklist_the_mask_preview_and_the_export_work_on_real_evidence() {
    let setup = Setup::new();
    let ws = setup.workspace().display().to_string();
    let (runs, evidence, shots) = minimize(&setup, SESSION);
    let fresh = screenshots::checklist(&ws, &evidence).unwrap();
    // The filmstrip's frames are on the checklist beside the attempts' screenshots, and
    // the viewer opens each by the name the result's filmstrip gives it.
    let frames: Vec<String> = fresh
        .shots
        .iter()
        .filter(|s| s.frame.is_some())
        .map(|s| s.name.clone())
        .collect();
    let film = whittle_app::formats::filmstrip(&ws, &evidence)
        .unwrap()
        .expect("the final confirmation took frames");
    let shown: Vec<String> = film
        .frames
        .iter()
        .filter_map(|f| f.name.map(|n| n.to_string()))
        .collect();
    assert!(!shown.is_empty() && shown.iter().all(|n| frames.contains(n)));
    assert_eq!(
        screenshots::view(&ws, &evidence, &shown[0]).unwrap().name,
        shown[0]
    );
    let total = (shots.len() + frames.len()) as u32;
    assert_eq!((fresh.summary.total, fresh.summary.reviewed), (total, 0));

    let (_, first, _) = &shots[0];
    let (_, last, _) = shots.last().unwrap();
    screenshots::mark(&ws, &evidence, first, true).unwrap();
    screenshots::mark(&ws, &evidence, &shown[0], true).unwrap();
    screenshots::omit(&ws, &evidence, last).unwrap();
    let list = screenshots::checklist(&ws, &evidence).unwrap();
    assert_eq!(list.summary.total, total);
    assert_eq!(list.summary.reviewed, 3);
    assert_eq!(list.summary.omitted, 1);
    for bad in [
        "screenshots/../result.json",
        "filmstrip/filmstrip.json",
        "filmstrip/attempt-1/step-01.png",
    ] {
        assert!(
            screenshots::mark(&ws, &evidence, bad, true).is_err(),
            "{bad}"
        );
    }

    // The preview is what Apply burns.
    let rect = MaskRect {
        x: 40,
        y: 180,
        w: 600,
        h: 160,
        reason: "reviewer".into(),
    };
    let patches = screenshots::preview(&MaskPreviewRequest {
        workspace: ws.clone(),
        evidence_session: evidence.clone(),
        screenshot: first.clone(),
        rects: vec![rect.clone()],
        style: MaskStyle::Pixelate,
    })
    .unwrap();
    assert_eq!(patches.len(), 1);
    let shown = decode_data_url(&patches[0].data_url);
    screenshots::apply(&MaskRequest {
        workspace: ws.clone(),
        evidence_session: evidence.clone(),
        screenshots: vec![first.clone()],
        rects: vec![rect],
        style: MaskStyle::Pixelate,
    })
    .unwrap();
    let burned = decode_data_url(&screenshots::view(&ws, &evidence, first).unwrap().data_url);
    let p = &patches[0];
    assert_eq!(
        shown,
        image::imageops::crop_imm(&burned, p.x, p.y, p.w, p.h).to_image()
    );

    // The bundle a developer gets: device and Android version from the device server,
    // the crash's stack, the verify command, and each screenshot named by attempt and
    // verdict, with the review recorded.
    let out = setup.root.path().join("exports");
    let bundle = export(&runs, &evidence, &out.display().to_string()).unwrap();
    let bundle = Path::new(&bundle);
    let md = std::fs::read_to_string(bundle.join("repro.md")).unwrap();
    for needle in [
        "- Device: Simulated Pixel (sim-1) (`sim-1`)",
        "- Android version: 14",
        "## Stack trace (the target crash)",
        "java.lang.NullPointerException",
        "at com.example.shop.checkout.ShippingQuote.forCart(ShippingQuote.kt:41)",
        "--runs 3",
        "3 of",
        "· 1 omitted",
    ] {
        assert!(md.contains(needle), "repro.md lacks {needle:?}:\n{md}");
    }
    assert_eq!(md.matches("Launch").count(), 1, "launch once:\n{md}");
    let read = whittle_service::export::read_bundle(bundle).unwrap();
    let review = read
        .manifest
        .review
        .clone()
        .expect("the review is recorded");
    assert_eq!(
        (review.total, review.reviewed, review.omitted),
        (total, 3, 1)
    );
    let kept: Vec<&Shot> = shots.iter().filter(|(_, n, _)| n != last).collect();
    assert_eq!(read.manifest.screenshots.len(), kept.len());
    for ((attempt, _, reproduced), listed) in kept.iter().zip(&read.manifest.screenshots) {
        let verdict = if *reproduced {
            "reproduced"
        } else {
            "not-reproduced"
        };
        assert_eq!(
            listed.path,
            format!("screenshots/attempt-{attempt:03}-{verdict}.png")
        );
        assert!(bundle.join(&listed.path).is_file());
        assert!(
            md.contains(&format!("| `{}` | {attempt} |", listed.path)),
            "{md}"
        );
    }
}
