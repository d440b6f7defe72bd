//! The locator a tester copies from a node of the inspector.
use super::node::InspectNode;
use crate::plan::element_match::normalize;
use crate::plan::{By, Strategy};

/// The locator a tester would copy for this node: By::Identifier with its resource id
/// when it has one, else By::Text with its text, else By::Label with its content
/// description; `None` when it has none of them (or only masked ones).
///
/// The id comes first because it survives translations and copy changes. Values are
/// copied as the dump has them, so Whittle's matcher finds the node with them exactly;
/// a value that is only white space (or zero-width characters) counts as none, since the
/// matcher finds nothing with it.
pub fn locator_of(node: &InspectNode) -> Option<Strategy> {
    if !node.resource_id.trim().is_empty() {
        return Some(Strategy::new(By::Identifier, node.resource_id.as_str()));
    }
    if node.masked {
        return None;
    }
    [(By::Text, &node.text), (By::Label, &node.content_desc)]
        .into_iter()
        .find(|(_, value)| !normalize(value).is_empty())
        .map(|(by, value)| Strategy::new(by, value.as_str()))
}

#[cfg(test)]
mod tests {
    use super::super::node::tests::node;
    use super::*;

    #[test]
    fn id_then_text_then_label() {
        let n = node("com.x:id/go", "Go", "Go button", [0, 0, 1, 1]);
        assert_eq!(
            locator_of(&n),
            Some(Strategy::new(By::Identifier, "com.x:id/go"))
        );
        let n = node(" ", "Go ", "Go button", [0, 0, 1, 1]);
        assert_eq!(locator_of(&n), Some(Strategy::new(By::Text, "Go ")));
        let n = node("", "\u{200b}", "Go button", [0, 0, 1, 1]);
        assert_eq!(locator_of(&n), Some(Strategy::new(By::Label, "Go button")));
        assert_eq!(locator_of(&node("", "", " ", [0, 0, 1, 1])), None);
    }

    #[test]
    fn masked_values_are_never_offered() {
        let mut n = node("", "1234", "PIN", [0, 0, 1, 1]);
        n.masked = true;
        assert_eq!(locator_of(&n), None);
        n.resource_id = "com.x:id/pin".into();
        assert_eq!(
            locator_of(&n),
            Some(Strategy::new(By::Identifier, "com.x:id/pin"))
        );
    }
}
