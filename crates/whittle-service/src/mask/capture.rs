use whittle_contract::ui::{Hierarchy, UiElement};

/// What the masker knows about the moment a screenshot was taken: the UI hierarchy read
/// right before it and right after it (`None` when a read failed), and the package of
/// the app under test.
#[derive(Debug, Clone, Copy)]
pub struct ShotMoment<'a> {
    pub before: Option<&'a Hierarchy>,
    pub after: Option<&'a Hierarchy>,
    pub package: &'a str,
}

impl<'a> ShotMoment<'a> {
    /// One reading standing for both sides: for a screen known to be still (a test, a
    /// benchmark), never for a live device, where the two reads are the only evidence
    /// that the pixels and the hierarchy show the same moment.
    pub fn still(hierarchy: Option<&'a Hierarchy>, package: &'a str) -> ShotMoment<'a> {
        ShotMoment {
            before: hierarchy,
            after: hierarchy,
            package,
        }
    }
}

/// Do two readings show the same screen, as far as masking is concerned? Every field
/// that decides where a mask goes or whether it is needed must agree: the element list,
/// ids, classes, text, hints, descriptions, bounds, flags, package and
/// depth. Only `focused` may differ: focus moves without changing what is drawn (a
/// blinking caret, a field gaining focus on settle), and the masker masks what either
/// reading marks as focused, so a focus change alone costs no privacy.
pub(crate) fn same_screen(a: &Hierarchy, b: &Hierarchy) -> bool {
    a.elements.len() == b.elements.len()
        && a.elements
            .iter()
            .zip(&b.elements)
            .all(|(x, y)| same_element(x, y))
}

fn same_element(x: &UiElement, y: &UiElement) -> bool {
    let UiElement {
        resource_id,
        text,
        content_desc,
        class,
        bounds,
        password,
        focused: _,
        hint,
        clickable,
        enabled,
        checked,
        selected,
        visible,
        package,
        depth,
    } = x;
    *resource_id == y.resource_id
        && *text == y.text
        && *content_desc == y.content_desc
        && *class == y.class
        && *bounds == y.bounds
        && *password == y.password
        && *visible == y.visible
        && *package == y.package
        && *depth == y.depth
        && *hint == y.hint
        && *clickable == y.clickable
        && *enabled == y.enabled
        && *checked == y.checked
        && *selected == y.selected
}

#[cfg(test)]
mod tests {
    use super::*;

    fn screen(text: &str, focused: bool) -> Hierarchy {
        Hierarchy {
            elements: vec![UiElement {
                text: text.into(),
                focused,
                bounds: [0, 0, 10, 10],
                ..UiElement::default()
            }],
        }
    }

    #[test]
    fn focus_alone_is_not_a_change_but_text_bounds_and_count_are() {
        assert!(same_screen(&screen("a", false), &screen("a", true)));
        assert!(!same_screen(&screen("a", false), &screen("b", false)));
        let mut moved = screen("a", false);
        moved.elements[0].bounds[3] = 11;
        assert!(!same_screen(&screen("a", false), &moved));
        let mut more = screen("a", false);
        more.elements.push(UiElement::default());
        assert!(!same_screen(&screen("a", false), &more));
        let mut other_app = screen("a", false);
        other_app.elements[0].package = Some("com.other".into());
        assert!(!same_screen(&screen("a", false), &other_app));
    }
}
