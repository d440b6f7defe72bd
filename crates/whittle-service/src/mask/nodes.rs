//! The hierarchy kept with a masked picture, for the inspector (`whittle_core::inspect`):
//! every visible node with an area, its bounds in the picture's pixels, and its text and
//! description blanked wherever the picture hides something of it. The same masks that
//! are burned into the pixels decide, so a node never says in words what its picture
//! covers; a password field or private-looking text is blanked even where no mask lies
//! (fail closed: the list is shared with the picture).

use whittle_contract::ui::{Hierarchy, UiElement};
use whittle_core::inspect::InspectNode;
use whittle_core::sensitive::looks_sensitive_text;

use super::MaskRect;

/// The nodes of `h` on a picture drawn at `scale` picture pixels per screen pixel, under
/// `masks` (picture pixels: everything burned into it).
pub(crate) fn picture_nodes(h: &Hierarchy, scale: f64, masks: &[MaskRect]) -> Vec<InspectNode> {
    h.elements
        .iter()
        .filter(|e| e.visible && e.bounds[2] > e.bounds[0] && e.bounds[3] > e.bounds[1])
        .map(|e| {
            let mut node = InspectNode {
                resource_id: e.resource_id.clone(),
                text: e.text.clone(),
                content_desc: e.content_desc.clone(),
                class: e.class.clone(),
                bounds: on_picture(e.bounds, scale),
                depth: e.depth,
                masked: false,
            };
            if private(e) {
                blank(&mut node);
            }
            node
        })
        .map(|mut node| {
            blank_under(std::slice::from_mut(&mut node), masks);
            node
        })
        .collect()
}

/// Blanks the nodes a mask now covers any part of (a reviewer's masks, added after the
/// picture was archived).
pub(crate) fn blank_under(nodes: &mut [InspectNode], masks: &[MaskRect]) {
    for node in nodes.iter_mut() {
        if masks.iter().any(|m| overlaps(node.bounds, m)) {
            blank(node);
        }
    }
}

fn private(e: &UiElement) -> bool {
    e.password
        || [&e.text, &e.content_desc, &e.hint]
            .iter()
            .any(|s| looks_sensitive_text(s))
}

fn blank(node: &mut InspectNode) {
    // Only a node that said something is marked: an empty one hid nothing.
    if !node.text.is_empty() || !node.content_desc.is_empty() {
        node.masked = true;
    }
    node.text.clear();
    node.content_desc.clear();
}

/// Screen bounds as picture pixels, rounded outward (as masks are).
fn on_picture(bounds: [i32; 4], scale: f64) -> [i32; 4] {
    if scale == 1.0 {
        return bounds;
    }
    let [l, t, r, b] = bounds.map(|v| f64::from(v) * scale);
    // Saturating float-to-int casts: the device's numbers are untrusted.
    [l.floor(), t.floor(), r.ceil(), b.ceil()].map(|v| v as i32)
}

fn overlaps(bounds: [i32; 4], m: &MaskRect) -> bool {
    let [l, t, r, b] = bounds.map(i64::from);
    let (x, y) = (i64::from(m.x), i64::from(m.y));
    let (x1, y1) = (x + i64::from(m.w), y + i64::from(m.h));
    l < x1 && x < r && t < y1 && y < b
}

#[cfg(test)]
mod tests {
    use super::*;

    fn element(text: &str, bounds: [i32; 4]) -> UiElement {
        UiElement {
            resource_id: "com.example:id/field".into(),
            text: text.into(),
            class: "android.widget.TextView".into(),
            bounds,
            ..UiElement::default()
        }
    }

    fn mask(x: u32, y: u32, w: u32, h: u32) -> MaskRect {
        MaskRect {
            x,
            y,
            w,
            h,
            reason: "test".into(),
        }
    }

    #[test]
    fn a_node_under_a_mask_loses_its_words_but_keeps_its_id_and_place() {
        let h = Hierarchy {
            elements: vec![
                element("Checkout", [0, 0, 100, 50]),
                element("Hello", [0, 100, 100, 150]),
            ],
        };
        let nodes = picture_nodes(&h, 1.0, &[mask(10, 110, 5, 5)]);
        assert_eq!(nodes[0].text, "Checkout");
        assert!(!nodes[0].masked);
        assert_eq!(nodes[1].text, "");
        assert!(nodes[1].masked);
        assert_eq!(nodes[1].resource_id, "com.example:id/field");
        assert_eq!(nodes[1].bounds, [0, 100, 100, 150]);
    }

    #[test]
    fn private_values_are_blanked_without_any_mask() {
        let mut password = element("hunter2", [0, 0, 10, 10]);
        password.password = true;
        let h = Hierarchy {
            elements: vec![password, element("jane.doe@example.com", [0, 20, 10, 30])],
        };
        let nodes = picture_nodes(&h, 1.0, &[]);
        assert!(nodes.iter().all(|n| n.masked && n.text.is_empty()));
    }

    #[test]
    fn bounds_follow_the_picture_scale_and_invisible_nodes_are_left_out() {
        let mut hidden = element("x", [0, 0, 10, 10]);
        hidden.visible = false;
        let h = Hierarchy {
            elements: vec![hidden, element("Pay", [10, 21, 31, 41])],
        };
        let nodes = picture_nodes(&h, 0.5, &[]);
        assert_eq!(nodes.len(), 1);
        assert_eq!(nodes[0].bounds, [5, 10, 16, 21]);
    }

    #[test]
    fn a_reviewer_mask_added_later_blanks_what_it_touches() {
        let h = Hierarchy {
            elements: vec![
                element("Ann", [0, 0, 10, 10]),
                element("Bob", [20, 0, 30, 10]),
            ],
        };
        let mut nodes = picture_nodes(&h, 1.0, &[]);
        blank_under(&mut nodes, &[mask(9, 0, 1, 1)]);
        assert!(nodes[0].masked);
        assert_eq!(nodes[1].text, "Bob");
    }
}
