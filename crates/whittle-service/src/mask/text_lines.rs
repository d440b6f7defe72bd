use serde::{Deserialize, Serialize};
use whittle_contract::ui::Hierarchy;

/// Where the UI hierarchy says text is drawn: the boxes of elements that carry text, a
/// description, or an input field. Pixelate and Blur make their blocks at least as tall
/// as the tallest of these under a mask, so no block is small enough to keep a letter's
/// shape. Kept next to each archived screenshot, so masks a reviewer adds later are
/// sized by the same rule.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(transparent)]
pub struct TextLines(Vec<[u32; 4]>);

impl TextLines {
    /// `[left, top, right, bottom]` boxes, in image pixels.
    pub fn new(boxes: Vec<[u32; 4]>) -> TextLines {
        TextLines(
            boxes
                .into_iter()
                .filter(|b| b[2] > b[0] && b[3] > b[1])
                .collect(),
        )
    }

    /// Every element that shows text (its text or description is not empty, or it is an
    /// input field, whose text a recorder may not report). Invisible elements count too:
    /// a larger block only hides more.
    pub fn from_hierarchy(h: &Hierarchy) -> TextLines {
        TextLines::new(
            h.elements
                .iter()
                .filter(|e| {
                    !e.text.trim().is_empty()
                        || !e.content_desc.trim().is_empty()
                        || e.class.contains("EditText")
                })
                .map(|e| e.bounds.map(|v| v.max(0) as u32))
                .collect(),
        )
    }

    pub fn boxes(&self) -> &[[u32; 4]] {
        &self.0
    }

    /// The height of the tallest text box that overlaps `(x0, y0, x1, y1)`; 0 if none.
    pub fn tallest_over(&self, region: (u32, u32, u32, u32)) -> u32 {
        self.tallest_box_over(region)
            .map_or(0, |[_, t, _, b]| b - t)
    }

    /// The tallest text box that overlaps `(x0, y0, x1, y1)` (the first of equals).
    pub fn tallest_box_over(&self, (x0, y0, x1, y1): (u32, u32, u32, u32)) -> Option<[u32; 4]> {
        self.0
            .iter()
            .filter(|[l, t, r, b]| *l < x1 && *r > x0 && *t < y1 && *b > y0)
            .fold(None, |best: Option<[u32; 4]>, b| match best {
                Some(kept) if kept[3] - kept[1] >= b[3] - b[1] => Some(kept),
                _ => Some(*b),
            })
    }
}

#[cfg(test)]
mod tests {
    use whittle_contract::ui::UiElement;

    use super::*;

    fn element(text: &str, class: &str, bounds: [i32; 4]) -> UiElement {
        UiElement {
            resource_id: String::new(),
            text: text.into(),
            content_desc: String::new(),
            class: class.into(),
            bounds,
            password: false,
            focused: false,
            visible: true,
            ..UiElement::default()
        }
    }

    #[test]
    fn text_inputs_count_containers_do_not_and_only_overlaps_matter() {
        let h = Hierarchy {
            elements: vec![
                element(
                    "Example Shop",
                    "android.widget.TextView",
                    [40, 100, 600, 160],
                ),
                element("", "android.widget.EditText", [40, 400, 1040, 520]),
                element("", "android.widget.FrameLayout", [0, 0, 1080, 2400]),
                element("Off screen", "android.widget.TextView", [-20, -50, 10, -10]),
            ],
        };
        let lines = TextLines::from_hierarchy(&h);
        assert_eq!(lines.boxes(), &[[40, 100, 600, 160], [40, 400, 1040, 520]]);
        assert_eq!(lines.tallest_over((0, 0, 1080, 2400)), 120);
        assert_eq!(lines.tallest_over((100, 120, 200, 140)), 60);
        assert_eq!(lines.tallest_over((0, 600, 1080, 700)), 0);
        // Touching edges do not overlap.
        assert_eq!(lines.tallest_over((600, 100, 700, 160)), 0);
    }
}
