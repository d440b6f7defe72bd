//! The UI elements the masking tests build their screens from.

use whittle_contract::ui::UiElement;

/// A visible, unfocused, non-password element whose package the hierarchy does not name.
pub fn element(id: &str, class: &str, text: &str, bounds: [i32; 4]) -> UiElement {
    UiElement {
        resource_id: id.into(),
        text: text.into(),
        class: class.into(),
        bounds,
        ..UiElement::default()
    }
}

/// A text field (`EditText`) holding `text`.
pub fn field(id: &str, text: &str, bounds: [i32; 4]) -> UiElement {
    element(id, "android.widget.EditText", text, bounds)
}
