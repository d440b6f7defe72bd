//! The fail-closed decision for one screenshot: either the masks that make it safe to
//! archive, or why it must be omitted. Pure (no pixels, no files), so each rule can be
//! tested alone; `screenshot.rs` applies it to the image. The rules are listed, with
//! their reasons, in `docs/SECURITY.md` §4.

use regex::Regex;
use whittle_contract::ui::Hierarchy;

use super::capture::same_screen;
use super::frame::{fit, frame_of};
use super::opaque::opaque_masks;
use super::overlay::overlay_masks;
use super::strict::strict_masks;
use super::{auto_masks, MaskRect, OmitReason, ShotMoment, TextLines};
use crate::config::PrivacyLevel;

/// What to burn into an image the hierarchy accounts for, in image pixels.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct MaskPlan {
    /// Masks for the elements (and views) the hierarchy names.
    pub masks: Vec<MaskRect>,
    /// Strips of the image the hierarchy does not reach; the caller masks the ones that
    /// show anything (a flat status bar has nothing to hide).
    pub outside: Vec<MaskRect>,
    /// Where the hierarchy says text is drawn, in image pixels (sizes Pixelate and Blur).
    pub text_lines: TextLines,
    /// Image pixels per screen pixel (the hierarchy's nodes on the picture).
    pub scale: f64,
}

/// Decides how a `width` x `height` screenshot taken between `capture.before` and
/// `capture.after` is masked, or why it is omitted. A blank image needs none of this:
/// the caller archives it without asking.
pub(crate) fn plan_masks(
    capture: &ShotMoment<'_>,
    width: u32,
    height: u32,
    level: PrivacyLevel,
    patterns: &[Regex],
) -> Result<MaskPlan, OmitReason> {
    let (Some(before), Some(after)) = (capture.before, capture.after) else {
        return Err(OmitReason::NoHierarchy);
    };
    if !same_screen(before, after) {
        return Err(OmitReason::ScreenChanged);
    }
    let Some(frame) = frame_of(after) else {
        return Err(OmitReason::EmptyHierarchy);
    };
    check_app(after, capture.package)?;
    let fit = fit(frame, width, height)?;
    let screen_area = ((frame[2] - frame[0]) * (frame[3] - frame[1])) as f64;

    // Both readings agree on everything but focus; masking what either one marks
    // (a focused field with text) covers a focus change between them.
    let mut masks: Vec<MaskRect> = Vec::new();
    for h in [before, after] {
        let mut screen_masks = auto_masks(h, patterns);
        screen_masks.extend(opaque_masks(h, screen_area));
        screen_masks.extend(overlay_masks(h, capture.package));
        if level == PrivacyLevel::Strict {
            screen_masks.extend(strict_masks(h));
        }
        for m in screen_masks.iter().map(|m| fit.on_image(m)) {
            // One mask per rectangle, with the first reason found for it.
            let same = |o: &MaskRect| (o.x, o.y, o.w, o.h) == (m.x, m.y, m.w, m.h);
            if !masks.iter().any(same) {
                masks.push(m);
            }
        }
    }
    let text_lines = TextLines::new(
        TextLines::from_hierarchy(after)
            .boxes()
            .iter()
            .filter_map(|b| MaskRect::from_bounds(b.map(|v| v.min(i32::MAX as u32) as i32), ""))
            .map(|m| fit.on_image(&m))
            .map(|m| [m.x, m.y, m.x.saturating_add(m.w), m.y.saturating_add(m.h)])
            .collect(),
    );
    Ok(MaskPlan {
        masks,
        outside: fit.outside(width, height),
        text_lines,
        scale: fit.scale,
    })
}

/// The screen must be the app's: at least one visible node of `package`. A hierarchy
/// that names no package at all cannot show that, so it fails the same way; a server
/// that leaves the package out gets its screenshots omitted, never archived unchecked.
fn check_app(h: &Hierarchy, package: &str) -> Result<(), OmitReason> {
    let visible = || {
        h.elements
            .iter()
            .filter(|e| e.visible && e.bounds[2] > e.bounds[0] && e.bounds[3] > e.bounds[1])
    };
    if visible().any(|e| e.package.as_deref() == Some(package)) {
        return Ok(());
    }
    let mut shown: Vec<&str> = Vec::new();
    for p in visible().filter_map(|e| e.package.as_deref()) {
        if !shown.contains(&p) {
            shown.push(p);
        }
    }
    if shown.is_empty() && h.elements.iter().all(|e| e.package.is_none()) {
        return Err(OmitReason::NoPackageInfo {
            app: package.to_string(),
        });
    }
    Err(OmitReason::NotTheApp {
        app: package.to_string(),
        shown: describe_packages(&shown),
    })
}

/// Up to three package names, each clipped: they come from the device and end up in the
/// evidence, so their length is bounded.
fn describe_packages(shown: &[&str]) -> String {
    if shown.is_empty() {
        return "no visible node with a package".into();
    }
    let clip = |p: &str| p.chars().take(80).collect::<String>();
    let mut list: Vec<String> = shown.iter().take(3).map(|p| clip(p)).collect();
    if shown.len() > 3 {
        list.push(format!("{} more", shown.len() - 3));
    }
    list.join(", ")
}

#[cfg(test)]
mod tests {
    use whittle_contract::ui::UiElement;

    use super::*;

    const APP: &str = "com.example.shop";

    fn node(class: &str, text: &str, bounds: [i32; 4], depth: u32) -> UiElement {
        UiElement {
            class: class.into(),
            text: text.into(),
            bounds,
            package: Some(APP.into()),
            depth: Some(depth),
            ..UiElement::default()
        }
    }

    fn login() -> Hierarchy {
        let mut password = node("android.widget.EditText", "", [40, 700, 1040, 820], 1);
        password.password = true;
        Hierarchy {
            elements: vec![
                node("android.widget.FrameLayout", "", [0, 0, 1080, 2400], 0),
                node(
                    "android.widget.TextView",
                    "Welcome back",
                    [40, 100, 1040, 200],
                    1,
                ),
                password,
            ],
        }
    }

    fn plan(
        before: &Hierarchy,
        after: &Hierarchy,
        w: u32,
        h: u32,
        level: PrivacyLevel,
    ) -> Result<MaskPlan, OmitReason> {
        let capture = ShotMoment {
            before: Some(before),
            after: Some(after),
            package: APP,
        };
        plan_masks(&capture, w, h, level, &[])
    }

    #[test]
    fn standard_masks_the_password_strict_also_the_text() {
        let h = login();
        let standard = plan(&h, &h, 1080, 2400, PrivacyLevel::Standard).unwrap();
        assert_eq!(standard.masks.len(), 1);
        assert_eq!(standard.masks[0].reason, "password field");
        assert!(standard.outside.is_empty());
        let strict = plan(&h, &h, 1080, 2400, PrivacyLevel::Strict).unwrap();
        let reasons: Vec<_> = strict.masks.iter().map(|m| m.reason.as_str()).collect();
        assert_eq!(reasons, ["password field", "text (strict)"]);
    }

    #[test]
    fn a_focus_change_masks_what_either_reading_focused() {
        let before = login();
        let mut after = login();
        after.elements[1].class = "android.widget.EditText".into();
        let mut before_typed = before.clone();
        before_typed.elements[1].class = "android.widget.EditText".into();
        before_typed.elements[1].focused = true;
        let p = plan(&before_typed, &after, 1080, 2400, PrivacyLevel::Standard).unwrap();
        assert!(
            p.masks
                .iter()
                .any(|m| m.reason == "focused input with text"),
            "{p:?}"
        );
    }

    #[test]
    fn each_failure_is_its_own_reason() {
        let h = login();
        let none = ShotMoment {
            before: None,
            after: Some(&h),
            package: APP,
        };
        assert_eq!(
            plan_masks(&none, 1080, 2400, PrivacyLevel::Standard, &[]),
            Err(OmitReason::NoHierarchy)
        );
        let mut changed = login();
        changed.elements[1].text = "Welcome back, Jane".into();
        assert_eq!(
            plan(&h, &changed, 1080, 2400, PrivacyLevel::Standard),
            Err(OmitReason::ScreenChanged)
        );
        let empty = Hierarchy { elements: vec![] };
        assert_eq!(
            plan(&empty, &empty, 1080, 2400, PrivacyLevel::Standard),
            Err(OmitReason::EmptyHierarchy)
        );
        let mut launcher = login();
        for e in &mut launcher.elements {
            e.package = Some("com.google.android.apps.nexuslauncher".into());
        }
        assert!(matches!(
            plan(&launcher, &launcher, 1080, 2400, PrivacyLevel::Standard),
            Err(OmitReason::NotTheApp { shown, .. }) if shown == "com.google.android.apps.nexuslauncher"
        ));
        let mut anonymous = login();
        for e in &mut anonymous.elements {
            e.package = None;
        }
        assert!(matches!(
            plan(&anonymous, &anonymous, 1080, 2400, PrivacyLevel::Standard),
            Err(OmitReason::NoPackageInfo { .. })
        ));
        assert!(matches!(
            plan(&h, &h, 600, 1024, PrivacyLevel::Standard),
            Err(OmitReason::ExtentMismatch {
                width: 600,
                height: 1024,
                ..
            })
        ));
    }

    #[test]
    fn a_downscaled_image_gets_scaled_masks() {
        let h = login();
        let p = plan(&h, &h, 540, 1200, PrivacyLevel::Standard).unwrap();
        let m = &p.masks[0];
        // [40,700][1040,820] at half size, rounded outward with a 2 px margin.
        assert_eq!((m.x, m.y, m.x + m.w, m.y + m.h), (18, 348, 522, 412));
    }
}
