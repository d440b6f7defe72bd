//! The capture protocol of `archive`: hierarchy, screenshot, hierarchy; a retake when
//! the two reads differ; the level in the record. Driven by a scripted screen so the
//! screen changes exactly between two reads.

use std::collections::VecDeque;
use std::sync::Mutex;

use image::{Rgb, RgbImage};
use whittle_contract::ui::{Hierarchy, UiElement};

use super::*;
use crate::config::PrivacyLevel;
use crate::evidence::ShotOmission;

const APP: &str = "com.example.shop";

struct Scripted {
    /// What each successive hierarchy read returns.
    readings: Mutex<VecDeque<Option<Hierarchy>>>,
    image: RgbImage,
    /// What the server writes instead of `image` as a PNG (its own encoding, or garbage).
    bytes: Option<Vec<u8>>,
    shots: Mutex<u32>,
}

impl Scripted {
    fn new(readings: Vec<Option<Hierarchy>>) -> Scripted {
        Scripted {
            readings: Mutex::new(readings.into()),
            image: RgbImage::from_fn(100, 200, |x, y| Rgb([x as u8, y as u8, 99])),
            bytes: None,
            shots: Mutex::new(0),
        }
    }

    fn shots(&self) -> u32 {
        *self.shots.lock().unwrap()
    }
}

impl DeviceScreen for Scripted {
    type ScreenshotError = image::ImageError;

    async fn hierarchy(&self) -> Option<Hierarchy> {
        self.readings.lock().unwrap().pop_front().flatten()
    }

    async fn screenshot(&self, save_to: &str) -> Result<(), image::ImageError> {
        *self.shots.lock().unwrap() += 1;
        if let Some(bytes) = &self.bytes {
            return std::fs::write(save_to, bytes).map_err(image::ImageError::from);
        }
        self.image
            .save_with_format(save_to, image::ImageFormat::Png)
    }
}

fn profile(email: &str) -> Hierarchy {
    let node = |class: &str, text: &str, bounds: [i32; 4], depth: u32| UiElement {
        class: class.into(),
        text: text.into(),
        bounds,
        package: Some(APP.into()),
        depth: Some(depth),
        ..UiElement::default()
    };
    Hierarchy {
        elements: vec![
            node("android.widget.FrameLayout", "", [0, 0, 100, 200], 0),
            node("android.widget.TextView", email, [10, 10, 90, 40], 1),
        ],
    }
}

fn masking(level: PrivacyLevel) -> MaskingConfig {
    MaskingConfig {
        level,
        ..MaskingConfig::default()
    }
}

/// `archive` of attempt `attempt` at the standard level.
async fn archive_standard(screen: &Scripted, dir: &std::path::Path, attempt: u32) -> ArchivedShot {
    archive(screen, APP, dir, attempt, &masking(PrivacyLevel::Standard)).await
}

#[tokio::test]
async fn a_still_screen_is_archived_once_with_its_level_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let h = profile("jane.doe@example.com");
    let screen = Scripted::new(vec![Some(h.clone()), Some(h)]);
    let shot = archive(&screen, APP, dir.path(), 7, &masking(PrivacyLevel::Strict)).await;
    assert_eq!(shot.src.as_deref(), Some("screenshots/attempt-007.png"));
    assert_eq!(screen.shots(), 1);
    let record: MaskRecord = serde_json::from_slice(
        &std::fs::read(dir.path().join("screenshots/attempt-007.masks.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(record.level, Some(PrivacyLevel::Strict));
    assert_eq!(record.masks.len(), 1, "{record:?}");
    let archived = image::open(dir.path().join("screenshots/attempt-007.png"))
        .unwrap()
        .to_rgb8();
    assert_eq!(
        *archived.get_pixel(50, 25),
        Rgb([0, 0, 0]),
        "the e-mail is masked"
    );
}

#[tokio::test]
async fn a_screen_that_changed_during_the_shot_is_retaken_once() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (profile("Loading"), profile("jane.doe@example.com"));
    let screen = Scripted::new(vec![Some(a), Some(b.clone()), Some(b.clone()), Some(b)]);
    let shot = archive_standard(&screen, dir.path(), 1).await;
    assert!(shot.src.is_some(), "{shot:?}");
    assert_eq!(screen.shots(), 2);
}

#[tokio::test]
async fn a_screen_still_changing_on_the_retake_is_omitted() {
    let dir = tempfile::tempdir().unwrap();
    let readings = ["a", "b", "c", "d"].map(|t| Some(profile(t))).to_vec();
    let screen = Scripted::new(readings);
    let shot = archive_standard(&screen, dir.path(), 1).await;
    assert_eq!(screen.shots(), 2, "one retake, no more");
    assert!(shot.redacted && shot.src.is_none());
    assert_eq!(shot.omitted_because, Some(ShotOmission::ScreenChanged));
    assert!(!dir.path().join("screenshots/attempt-001.png").exists());
}

/// Issue 15, failure #2: the app crashes between the screenshot and the dump. The
/// screenshot still shows its last frame (the e-mail), the hierarchy read after it is
/// empty. Archiving it unmasked was the bug; it must be omitted.
#[tokio::test]
async fn a_crash_between_the_shot_and_the_dump_omits_the_shot() {
    let dir = tempfile::tempdir().unwrap();
    let empty = Hierarchy { elements: vec![] };
    let screen = Scripted::new(vec![
        Some(profile("jane.doe@example.com")),
        Some(empty.clone()),
        Some(empty.clone()),
        Some(empty),
    ]);
    let shot = archive_standard(&screen, dir.path(), 3).await;
    assert!(shot.redacted && shot.src.is_none(), "{shot:?}");
    assert!(!dir.path().join("screenshots/attempt-003.png").exists());
    // The retake sees the empty hierarchy on both sides: omitted for that reason.
    assert_eq!(shot.omitted_because, Some(ShotOmission::EmptyHierarchy));
}

#[tokio::test]
async fn an_unreadable_hierarchy_omits_the_shot() {
    let dir = tempfile::tempdir().unwrap();
    let screen = Scripted::new(vec![None, None]);
    let shot = archive_standard(&screen, dir.path(), 1).await;
    assert_eq!(shot.omitted_because, Some(ShotOmission::NoHierarchy));
}

/// A server that saves JPEG under the `.png` name it is given: archived (as a PNG) and
/// masked; one that writes garbage: omitted, the reason saying why.
#[tokio::test]
async fn a_jpeg_is_archived_as_png_and_garbage_is_omitted_with_why() {
    let dir = tempfile::tempdir().unwrap();
    let h = profile("jane.doe@example.com");
    let mut screen = Scripted::new(vec![Some(h.clone()), Some(h.clone())]);
    let mut jpeg = Vec::new();
    screen
        .image
        .write_to(
            &mut std::io::Cursor::new(&mut jpeg),
            image::ImageFormat::Jpeg,
        )
        .unwrap();
    screen.bytes = Some(jpeg);
    let shot = archive_standard(&screen, dir.path(), 2).await;
    assert_eq!(
        shot.src.as_deref(),
        Some("screenshots/attempt-002.png"),
        "{shot:?}"
    );
    let bytes = std::fs::read(dir.path().join("screenshots/attempt-002.png")).unwrap();
    assert_eq!(
        image::guess_format(&bytes).unwrap(),
        image::ImageFormat::Png
    );
    let archived = image::load_from_memory(&bytes).unwrap().to_rgb8();
    assert_eq!(
        *archived.get_pixel(50, 25),
        Rgb([0, 0, 0]),
        "the e-mail is masked"
    );

    let mut screen = Scripted::new(vec![Some(h.clone()), Some(h)]);
    screen.bytes = Some(b"adb: device offline".to_vec());
    let shot = archive_standard(&screen, dir.path(), 3).await;
    assert!(shot.redacted && shot.src.is_none(), "{shot:?}");
    assert_eq!(
        shot.omitted_because,
        Some(ShotOmission::Undecodable {
            detail: "its bytes are not a PNG, JPEG or WebP image".into()
        })
    );
}
