//! Pixels the app under test does not account for: surfaces the system draws over its
//! window. The app's hierarchy says what the app drew; a soft keyboard (whose suggestion
//! strip shows what is being typed), a heads-up notification, a toast, an autofill or
//! clipboard chip are other windows. Two rules, at every privacy level:
//!
//! - **Another window in the dump** (a node whose package is not the app's — the IME,
//!   System UI, the autofill service): each of its nodes is masked, its root (the
//!   window's whole area) included, whatever they say, since the app does not vouch for
//!   those pixels.
//! - **A field has focus and no keyboard is in the dump**: the keyboard may still be
//!   drawn over the app (edge-to-edge layouts, the default from Android 15, keep the
//!   app's root under it, so nothing in the app's hierarchy shows it). The band it can
//!   cover — from below the focused field, and never higher than [`KEYBOARD_TOP_SHARE`]
//!   of the screen from the top, down to the bottom — is masked.
//!
//! What neither rule sees is a surface that is in no dump and covers no focused field's
//! keyboard band (a toast the dump leaves out): docs/SECURITY.md lists it.

use whittle_contract::ui::{Hierarchy, UiElement};

use super::frame::frame_of;
use super::MaskRect;

/// The highest a soft keyboard reaches, as a share of the screen's height from its top:
/// keyboards take up to about half of a portrait screen and up to about 60 % of a
/// landscape one; 35 % leaves a margin for a suggestion strip and an autofill row above.
pub(crate) const KEYBOARD_TOP_SHARE: f64 = 0.35;

/// The masks for surfaces drawn over `package`'s window in `h`.
pub(crate) fn overlay_masks(h: &Hierarchy, package: &str) -> Vec<MaskRect> {
    let visible =
        |e: &&UiElement| e.visible && e.bounds[2] > e.bounds[0] && e.bounds[3] > e.bounds[1];
    // Every node of another window, its root (the window's whole area) included. Not one
    // box per package: System UI's notification and its toast are two windows apart.
    let foreign: Vec<[i32; 4]> = h
        .elements
        .iter()
        .filter(visible)
        .filter(|e| e.package.as_deref().is_some_and(|p| p != package))
        .map(|e| e.bounds)
        .collect();
    let mut masks: Vec<MaskRect> = foreign
        .iter()
        .filter_map(|b| MaskRect::from_bounds(*b, "another window over the app"))
        .collect();
    let (Some(frame), Some(field)) = (frame_of(h), focused_field(h, package)) else {
        return masks;
    };
    let [left, top, right, bottom] = frame.map(|v| v.min(i64::from(i32::MAX)) as i32);
    // A keyboard in the dump is another window reaching the bottom of the screen.
    let keyboard_listed = foreign.iter().any(|b| b[3] >= bottom);
    if !keyboard_listed {
        let highest = top + ((bottom - top) as f64 * KEYBOARD_TOP_SHARE).round() as i32;
        let band_top = field.bounds[3].max(highest).min(bottom);
        masks.extend(MaskRect::from_bounds(
            [left, band_top, right, bottom],
            "where the soft keyboard is drawn while a field has focus",
        ));
    }
    masks
}

/// The app's focused editable field, if one has focus.
fn focused_field<'a>(h: &'a Hierarchy, package: &str) -> Option<&'a UiElement> {
    h.elements.iter().find(|e| {
        e.focused
            && e.visible
            && e.package.as_deref().is_none_or(|p| p == package)
            && (e.class.contains("EditText") || e.class.contains("AutoCompleteTextView"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const APP: &str = "com.example.shop";

    fn node(package: &str, class: &str, bounds: [i32; 4]) -> UiElement {
        UiElement {
            class: class.into(),
            bounds,
            package: Some(package.into()),
            ..UiElement::default()
        }
    }

    fn login(focused: bool) -> Vec<UiElement> {
        let mut field = node(APP, "android.widget.EditText", [40, 300, 1040, 420]);
        field.focused = focused;
        vec![
            node(APP, "android.widget.FrameLayout", [0, 0, 1080, 2400]),
            field,
        ]
    }

    #[test]
    fn every_node_of_another_window_is_masked() {
        let mut elements = login(false);
        let ui = "com.android.systemui";
        elements.push(node(ui, "android.widget.FrameLayout", [0, 0, 1080, 200]));
        elements.push(node(ui, "android.widget.TextView", [20, 20, 800, 90]));
        // A toast of the same package far below is a window of its own.
        elements.push(node(ui, "android.widget.TextView", [300, 2000, 780, 2080]));
        let masks = overlay_masks(&Hierarchy { elements }, APP);
        let boxes: Vec<_> = masks.iter().map(|m| (m.x, m.y, m.w, m.h)).collect();
        assert_eq!(
            boxes,
            [(0, 0, 1080, 200), (20, 20, 780, 70), (300, 2000, 480, 80)]
        );
    }

    #[test]
    fn a_focused_field_without_a_listed_keyboard_masks_the_keyboard_band() {
        let masks = overlay_masks(
            &Hierarchy {
                elements: login(true),
            },
            APP,
        );
        // The field ends at 420, above 35 % of 2400 (840): the band starts at 840.
        let boxes: Vec<_> = masks.iter().map(|m| (m.x, m.y, m.w, m.h)).collect();
        assert_eq!(boxes, [(0, 840, 1080, 1560)]);
        // No focus, no band.
        assert!(overlay_masks(
            &Hierarchy {
                elements: login(false)
            },
            APP
        )
        .is_empty());
    }

    #[test]
    fn a_listed_keyboard_is_masked_as_its_window_and_adds_no_band() {
        let mut elements = login(true);
        let ime = "com.google.android.inputmethod.latin";
        elements.push(node(
            ime,
            "android.widget.FrameLayout",
            [0, 1500, 1080, 2400],
        ));
        elements.push(node(ime, "android.widget.TextView", [0, 1500, 360, 1600]));
        let masks = overlay_masks(&Hierarchy { elements }, APP);
        let boxes: Vec<_> = masks.iter().map(|m| (m.x, m.y, m.w, m.h)).collect();
        assert_eq!(boxes, [(0, 1500, 1080, 900), (0, 1500, 360, 100)]);
    }

    #[test]
    fn a_field_low_on_the_screen_starts_the_band_below_itself() {
        let mut elements = login(true);
        elements[1].bounds = [40, 1800, 1040, 1900];
        let masks = overlay_masks(&Hierarchy { elements }, APP);
        assert_eq!((masks[0].y, masks[0].h), (1900, 500));
    }
}
