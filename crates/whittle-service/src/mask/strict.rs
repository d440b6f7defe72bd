//! The `strict` privacy level: mask every node that bears text and every image, whether
//! or not it looks private (what session-replay products such as Sentry's mask by
//! default), so that only layout, colours and unlabeled controls remain visible.

use whittle_contract::ui::{Hierarchy, UiElement};

use super::MaskRect;

pub(crate) fn strict_masks(h: &Hierarchy) -> Vec<MaskRect> {
    h.elements
        .iter()
        .filter_map(|e| {
            let reason = if bears_text(e) {
                "text (strict)"
            } else if is_image(&e.class) {
                "image (strict)"
            } else {
                return None;
            };
            MaskRect::from_bounds(e.bounds, reason)
        })
        .collect()
}

/// Text, a description, or an input field (which may show a hint or typed text the
/// dump leaves out).
fn bears_text(e: &UiElement) -> bool {
    let simple = simple_name(&e.class);
    !e.text.trim().is_empty()
        || !e.content_desc.trim().is_empty()
        || simple.contains("EditText")
        || simple.contains("TextField")
        || simple.contains("TextInput")
}

/// `ImageView`, `ImageButton`, Compose's and WebView's `Image` role, and their wrappers
/// (`AppCompatImageView`, `ShapeableImageView`).
fn is_image(class: &str) -> bool {
    simple_name(class).contains("Image")
}

fn simple_name(class: &str) -> &str {
    class.rsplit('.').next().unwrap_or(class)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(class: &str, text: &str, desc: &str) -> UiElement {
        UiElement {
            class: class.into(),
            text: text.into(),
            content_desc: desc.into(),
            bounds: [0, 0, 10, 10],
            ..UiElement::default()
        }
    }

    #[test]
    fn text_descriptions_inputs_and_images_are_masked_plain_containers_are_not() {
        let h = Hierarchy {
            elements: vec![
                node("android.widget.TextView", "Jane Doe", ""),
                node("android.view.View", "", "Profile photo"),
                node("android.widget.EditText", "", ""),
                node("androidx.appcompat.widget.AppCompatImageView", "", ""),
                node("android.widget.ImageButton", "", ""),
                node("android.widget.FrameLayout", "", ""),
                node("android.widget.TextView", "  ", ""),
            ],
        };
        let reasons: Vec<_> = strict_masks(&h).into_iter().map(|m| m.reason).collect();
        assert_eq!(
            reasons,
            [
                "text (strict)",
                "text (strict)",
                "text (strict)",
                "image (strict)",
                "image (strict)"
            ]
        );
    }
}
