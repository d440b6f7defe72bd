//! What the current screen shows: element text after state substitution and typing.
//! Shared by the hierarchy and the screenshot, so both always agree.
use std::collections::BTreeMap;
use std::sync::LazyLock;

use regex::{Captures, Regex};
use serde_json::Value;
use whittle_contract::ui::{Strategy, UiElement};

use super::device::AppProcess;
use super::model::{AppModel, Element};
use whittle_core::plan::element_match::{self, ElementFlag, Target};

static STATE_REF: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\$([A-Za-z_][A-Za-z0-9_]*)").expect("valid regex"));

#[derive(Debug, Clone)]
pub struct ElementView<'m> {
    pub index: usize,
    pub model: &'m Element,
    pub text: String,
    pub focused: bool,
}

impl ElementView<'_> {
    /// This element as the ui role reports it: a child (depth 1) of the app's window.
    pub fn to_ui(&self, package: &str) -> UiElement {
        UiElement {
            resource_id: self.model.id.clone(),
            text: self.text.clone(),
            content_desc: self.model.desc.clone(),
            class: self.model.class.clone(),
            bounds: self.model.bounds,
            password: self.model.password,
            focused: self.focused,
            hint: self.model.hint.clone(),
            clickable: Some(self.model.tap.is_some() || self.model.long_press.is_some()),
            enabled: Some(self.model.enabled),
            checked: self.model.checked,
            selected: None,
            visible: self.model.visible,
            package: Some(package.to_string()),
            depth: Some(1),
        }
    }
}

/// The simulator matches its elements exactly as the adb server matches a real dump.
impl Target for ElementView<'_> {
    fn resource_id(&self) -> &str {
        &self.model.id
    }
    fn text(&self) -> &str {
        &self.text
    }
    fn label(&self) -> &str {
        &self.model.desc
    }
    fn bounds(&self) -> [i32; 4] {
        self.model.bounds
    }
    fn visible(&self) -> bool {
        self.model.visible
    }
    fn hint(&self) -> &str {
        &self.model.hint
    }
    fn flag(&self, flag: ElementFlag) -> Option<bool> {
        match flag {
            ElementFlag::Focused => Some(self.focused),
            ElementFlag::Enabled => Some(self.model.enabled),
            ElementFlag::Checked => self.model.checked,
            ElementFlag::Clickable => {
                Some(self.model.tap.is_some() || self.model.long_press.is_some())
            }
            ElementFlag::Selected => None,
        }
    }
    fn depth(&self) -> Option<u32> {
        Some(1)
    }
}

/// The app's screen as `uiautomator dump` would list it: the window's root view
/// (covering the screen, as a real app window does) first, then each element as its
/// child, all tagged with the app's package. Masking relies on both: the root tells it
/// the hierarchy spans the whole screenshot, the package that the screen is the app's.
pub fn app_hierarchy(model: &AppModel, app: &AppProcess) -> Vec<UiElement> {
    let [w, h] = model
        .screen_size
        .map(|v| i32::try_from(v).unwrap_or(i32::MAX));
    let root = UiElement {
        class: "android.widget.FrameLayout".into(),
        bounds: [0, 0, w, h],
        package: Some(model.package.clone()),
        depth: Some(0),
        ..UiElement::default()
    };
    std::iter::once(root)
        .chain(
            current_elements(model, app)
                .iter()
                .map(|e| e.to_ui(&model.package)),
        )
        .collect()
}

/// Every element of the app's current screen, hidden ones included (flagged).
pub fn current_elements<'m>(model: &'m AppModel, app: &AppProcess) -> Vec<ElementView<'m>> {
    let Some(screen) = model.screen(&app.screen) else {
        return Vec::new();
    };
    screen
        .elements
        .iter()
        .enumerate()
        .map(|(index, el)| {
            let key = (app.screen.clone(), index);
            let text = match app.entered.get(&key) {
                Some(typed) => typed.clone(),
                None => substitute(&el.text, &app.state),
            };
            ElementView {
                index,
                model: el,
                text,
                focused: app.focused.as_ref() == Some(&key),
            }
        })
        .collect()
}

/// The element the strategies find, by the rules shared with the adb server
/// (`whittle_core::plan::element_match`): whitespace-normalized text, ids with or without the
/// package, visible targets only, exact before normalized, then model order.
pub fn find<'a, 'm>(
    elements: &'a [ElementView<'m>],
    strategies: &[Strategy],
) -> Option<&'a ElementView<'m>> {
    element_match::find(elements, strategies)
}

fn substitute(text: &str, state: &BTreeMap<String, Value>) -> String {
    STATE_REF
        .replace_all(text, |c: &Captures| match state.get(&c[1]) {
            Some(Value::String(s)) => s.clone(),
            Some(v) => v.to_string(),
            None => c[0].to_string(),
        })
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn state_references_are_filled_in_and_unknown_ones_kept() {
        let state = BTreeMap::from([("cart".to_string(), json!(2))]);
        assert_eq!(substitute("Cart ($cart)", &state), "Cart (2)");
        assert_eq!(substitute("Pay $total", &state), "Pay $total");
    }
}
