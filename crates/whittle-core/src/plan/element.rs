//! What the matchers read of an element, whoever holds it: the simulator's view of its
//! model, a parsed dump node, a contract element.

/// A flag of an element a selector may ask about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ElementFlag {
    Enabled,
    Checked,
    Selected,
    Focused,
    Clickable,
}

/// An element as the matchers (plan/element_match.rs, plan/maestro_match.rs) read it. The
/// methods with a default are facts not every holder knows; a matcher that needs one
/// treats "not known" as "not so".
pub trait Target {
    fn resource_id(&self) -> &str;
    fn text(&self) -> &str;
    fn label(&self) -> &str;
    fn bounds(&self) -> [i32; 4];
    fn visible(&self) -> bool;
    /// The hint an empty field shows (`EditText`'s `hint`).
    fn hint(&self) -> &str {
        ""
    }
    /// A flag's value, `None` when the holder does not know it.
    fn flag(&self, _flag: ElementFlag) -> Option<bool> {
        None
    }
    /// Nesting depth in the view tree (0 = the root), when known.
    fn depth(&self) -> Option<u32> {
        None
    }
}

/// Whether an element can be tapped or typed into at all: shown, with some area. Bounds
/// come from the device, so the sizes are compared in i64.
pub fn is_target<T: Target + ?Sized>(element: &T) -> bool {
    let [l, t, r, b] = element.bounds().map(i64::from);
    element.visible() && r > l && b > t
}
