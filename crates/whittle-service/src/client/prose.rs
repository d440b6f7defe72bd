//! The public mobile-mcp server answers its tools in prose, not JSON
//! (`tests/fixtures/mobile_mcp/`). Where the mobile role needs a value back, the prose is
//! read in that server's format, and the read is a tolerated deviation like any other.
//! Used only when an answer holds no JSON object at all: a JSON answer with a broken
//! field stays a strict failure.

use std::sync::LazyLock;

use regex::Regex;
use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::{json, Value};
use whittle_contract::mobile::{AppList, SavedScreenshot};

use super::decode::{decode, decode_value, Decoded};
use super::tolerance::{Leniency, Tolerated};
use super::{BadAnswer, McpErrorKind};

/// Larger screenshot files are not measured (the masker refuses them too).
const MAX_SCREENSHOT_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// `mobile_list_apps`: `Found these apps on device: <name> (<package>), …`.
const APPS_PREFIX: &str = "Found these apps on device:";

/// A package in parentheses that ends a list item. An app name may hold parentheses
/// of its own ("Maps (beta)"); only a dotted package name counts.
static PACKAGE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\(([A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)+)\)(?:,\s|\s*$)")
        .expect("the package pattern is valid")
});

/// The app list, from JSON or from mobile-mcp's prose.
pub(crate) fn read_apps(result: &CallToolResult) -> Result<Decoded<AppList>, McpErrorKind> {
    or_prose(decode(result), || apps_from_prose(result))
}

/// The saved screenshot, from JSON or — for a prose answer ("Screenshot saved to: …") —
/// from the header of the image the tool wrote to `save_to`, in whichever format its bytes
/// are (a server may write JPEG or WebP under the `.png` name it is given; the masker
/// reads it the same way, `mask/decode.rs`).
pub(crate) fn read_screenshot(
    result: &CallToolResult,
    save_to: &str,
) -> Result<Decoded<SavedScreenshot>, McpErrorKind> {
    or_prose(decode(result), || {
        // A JPEG's header is read with the whole file: the size is bounded first, as
        // the masker bounds it (`mask/decode.rs`, `MAX_SCREENSHOT_FILE_BYTES`).
        if std::fs::metadata(save_to).ok()?.len() > MAX_SCREENSHOT_FILE_BYTES {
            return None;
        }
        let (width, height) = image::ImageReader::open(save_to)
            .ok()?
            .with_guessed_format()
            .ok()?
            .into_dimensions()
            .ok()?;
        Some(Decoded {
            value: SavedScreenshot {
                path: save_to.to_string(),
                width,
                height,
            },
            tolerated: vec![Tolerated::answer(Leniency::ReadFromFile)],
        })
    })
}

/// `decoded`, unless it failed only for want of any JSON object; then the prose reading.
fn or_prose<T>(
    decoded: Result<Decoded<T>, McpErrorKind>,
    prose: impl FnOnce() -> Option<Decoded<T>>,
) -> Result<Decoded<T>, McpErrorKind> {
    match decoded {
        Err(e @ McpErrorKind::BadResult(BadAnswer { field: None, .. })) => prose().ok_or(e),
        other => other,
    }
}

fn apps_from_prose(result: &CallToolResult) -> Option<Decoded<AppList>> {
    let listing = result
        .content
        .iter()
        .filter_map(ContentBlock::as_text)
        .find_map(|t| t.text.trim().strip_prefix(APPS_PREFIX))?;
    let apps: Vec<Value> = PACKAGE
        .captures_iter(listing)
        .map(|c| json!({ "package": &c[1] }))
        .collect();
    decode_value(
        &json!({ "apps": apps }),
        vec![Tolerated::answer(Leniency::Prose)],
    )
    .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prose(text: &str) -> CallToolResult {
        CallToolResult::success(vec![ContentBlock::text(text)])
    }

    #[test]
    fn reads_packages_and_ignores_parentheses_in_names() {
        let r = prose("Found these apps on device: Maps (beta) (com.google.android.apps.maps), Shop, 2 (com.example.shop), Clock (com.android.deskclock)");
        let d = read_apps(&r).unwrap();
        let packages: Vec<_> = d.value.apps.iter().map(|a| a.package.as_str()).collect();
        assert_eq!(
            packages,
            [
                "com.google.android.apps.maps",
                "com.example.shop",
                "com.android.deskclock"
            ]
        );
        let said: Vec<_> = d.tolerated.iter().map(ToString::to_string).collect();
        assert!(
            said.contains(&"(answer) prose instead of JSON, read in mobile-mcp's format".into())
        );
        assert!(
            said.contains(&"apps[].system: missing, default used".into()),
            "{said:?}"
        );
    }

    #[test]
    fn an_empty_listing_is_no_apps_and_other_prose_is_an_error() {
        let d = read_apps(&prose("Found these apps on device: ")).unwrap();
        assert!(d.value.apps.is_empty());
        assert!(matches!(
            read_apps(&prose("Apps: com.example.shop")),
            Err(McpErrorKind::BadResult(_))
        ));
    }

    #[test]
    fn a_json_answer_with_a_broken_field_stays_a_strict_failure() {
        let r = CallToolResult::structured(json!({"apps": [{"package": 3}]}));
        match read_apps(&r) {
            Err(McpErrorKind::BadResult(bad)) => {
                assert_eq!(bad.field.as_deref(), Some("apps[0].package"))
            }
            other => panic!("{other:?}"),
        }
        let r = CallToolResult::structured(json!({"path": "/x.png", "width": "wide", "height": 1}));
        assert!(matches!(
            read_screenshot(&r, "/nonexistent.png"),
            Err(McpErrorKind::BadResult(BadAnswer { field: Some(_), .. }))
        ));
    }

    #[test]
    fn a_prose_screenshot_is_measured_from_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("shot.png");
        image::RgbImage::new(36, 64).save(&path).unwrap();
        let path = path.to_string_lossy().to_string();
        let r = prose(&format!("Screenshot saved to: {path}"));
        let d = read_screenshot(&r, &path).unwrap();
        assert_eq!((d.value.width, d.value.height), (36, 64));
        assert_eq!(d.tolerated, [Tolerated::answer(Leniency::ReadFromFile)]);
        assert!(read_screenshot(&r, "/nonexistent/shot.png").is_err());
    }

    #[test]
    fn a_prose_screenshot_saved_as_jpeg_or_webp_is_measured_by_its_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("shot.png");
        let path = path.to_string_lossy().to_string();
        let r = prose(&format!("Screenshot saved to: {path}"));
        for format in [image::ImageFormat::Jpeg, image::ImageFormat::WebP] {
            image::RgbImage::new(36, 64)
                .save_with_format(&path, format)
                .unwrap();
            let d = read_screenshot(&r, &path).unwrap();
            assert_eq!((d.value.width, d.value.height), (36, 64), "{format:?}");
        }
        // A file over the limit is not read (sparse: a valid header, then nothing).
        let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        file.set_len(MAX_SCREENSHOT_FILE_BYTES + 1).unwrap();
        assert!(read_screenshot(&r, &path).is_err());
    }
}
