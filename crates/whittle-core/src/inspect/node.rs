//! One node of the hierarchy archived next to a screenshot.
use serde::{Deserialize, Serialize};

use crate::plan::element_match::Target;

/// A node of an archived hierarchy, in the order of the dump (a pre-order walk of the
/// view tree).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct InspectNode {
    pub resource_id: String,
    pub text: String,
    pub content_desc: String,
    pub class: String,
    /// [left, top, right, bottom] in the picture's pixels.
    pub bounds: [i32; 4],
    #[serde(default)]
    pub depth: Option<u32>,
    /// Its text, description and hint were private and are blanked here.
    #[serde(default)]
    pub masked: bool,
}

/// The archive keeps only what was on screen, so every node is visible. A masked node
/// shows the matchers an empty text and label whatever placeholder the archive wrote:
/// a blanked value is not the value the app showed, and no locator may match it.
impl Target for InspectNode {
    fn resource_id(&self) -> &str {
        &self.resource_id
    }
    fn text(&self) -> &str {
        if self.masked {
            ""
        } else {
            &self.text
        }
    }
    fn label(&self) -> &str {
        if self.masked {
            ""
        } else {
            &self.content_desc
        }
    }
    fn bounds(&self) -> [i32; 4] {
        self.bounds
    }
    fn visible(&self) -> bool {
        true
    }
    fn depth(&self) -> Option<u32> {
        self.depth
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::plan::element_match::{find_index, is_target};
    use crate::plan::{By, Strategy};

    /// A node with the given id, text and description, unmasked, depth unknown.
    pub(crate) fn node(id: &str, text: &str, desc: &str, bounds: [i32; 4]) -> InspectNode {
        InspectNode {
            resource_id: id.into(),
            text: text.into(),
            content_desc: desc.into(),
            class: "android.widget.TextView".into(),
            bounds,
            depth: None,
            masked: false,
        }
    }

    #[test]
    fn a_masked_node_is_found_by_its_id_but_never_by_its_blanked_text() {
        let mut masked = node("com.x:id/pin", "***", "***", [0, 0, 10, 10]);
        masked.masked = true;
        let nodes = [masked];
        assert_eq!(
            find_index(&nodes, &[Strategy::new(By::Identifier, "pin")]),
            Some(0)
        );
        assert_eq!(find_index(&nodes, &[Strategy::new(By::Text, "***")]), None);
        assert_eq!(find_index(&nodes, &[Strategy::new(By::Label, "***")]), None);
    }

    #[test]
    fn every_archived_node_is_visible_and_a_target_when_it_has_area() {
        assert!(is_target(&node("", "a", "", [0, 0, 1, 1])));
        assert!(!is_target(&node("", "a", "", [5, 5, 5, 9])));
    }

    #[test]
    fn reads_the_archived_json_with_depth_and_masked_optional() {
        let json =
            r#"{"resource_id":"id/a","text":"A","content_desc":"","class":"V","bounds":[1,2,3,4]}"#;
        let parsed: Result<InspectNode, _> = serde_json::from_str(json);
        let mut expected = node("id/a", "A", "", [1, 2, 3, 4]);
        expected.class = "V".into();
        assert_eq!(parsed.ok(), Some(expected));
    }
}
