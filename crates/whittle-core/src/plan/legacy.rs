//! Fallback reading of sessions recorded before `notes.replay` existed.
//!
//! Accepted forms (case-insensitive verbs; anything else is not guessed):
//! - `action`: first word `launch`/`open`/`start` → launch; `tap`/`click`/`touch` → tap;
//!   `type`/`input`/`enter`/`fill`/`input_text` → input_text; `back`, `press back`,
//!   `press_button BACK` → press_button BACK; `press <BUTTON>` with a known Android
//!   button name → press_button; `press <other>` → tap. Another first word is kept as
//!   an unsupported action type (e.g. `swipe`).
//! - `notes` text: `element_key=<value>`, `input_value=<value>`, `button=<value>`, each
//!   a bare word (up to whitespace, `;` or `,`) or a double-quoted string with `\"`
//!   escapes. A field given twice with different values counts as absent: ambiguous
//!   data does not drive a replay.
//! - the typed value may also be the first double-quoted string of `action`
//!   (`type "search shoes" into search`); the element key never comes from `action`.

pub(crate) const ACTION_LAUNCH: &str = "launch";
pub(crate) const ACTION_TAP: &str = "tap";
pub(crate) const ACTION_INPUT_TEXT: &str = "input_text";
pub(crate) const ACTION_PRESS_BUTTON: &str = "press_button";
// Written by imports (and recorders that know them), never read from legacy text.
pub(crate) const ACTION_LONG_PRESS: &str = "long_press";
pub(crate) const ACTION_RELAUNCH: &str = "relaunch";

const ANDROID_BUTTONS: &[&str] = &[
    "BACK",
    "HOME",
    "ENTER",
    "MENU",
    "APP_SWITCH",
    "POWER",
    "VOLUME_UP",
    "VOLUME_DOWN",
    "DPAD_UP",
    "DPAD_DOWN",
    "DPAD_LEFT",
    "DPAD_RIGHT",
    "DPAD_CENTER",
];

/// The action type named by a legacy `action` text, and the button it names if any.
pub(crate) fn parse_action(action: &str) -> (Option<String>, Option<String>) {
    let mut words = action.split_whitespace();
    let Some(first) = words.next() else {
        return (None, None);
    };
    let verb = first.to_ascii_lowercase();
    let next = words.next();
    match verb.as_str() {
        "launch" | "open" | "start" | "launch_app" => (Some(ACTION_LAUNCH.into()), None),
        "tap" | "click" | "touch" => (Some(ACTION_TAP.into()), None),
        "type" | "input" | "enter" | "fill" | "input_text" => {
            (Some(ACTION_INPUT_TEXT.into()), None)
        }
        "back" => (Some(ACTION_PRESS_BUTTON.into()), Some("BACK".into())),
        "press" | "press_button" => match next.map(button_name) {
            Some(Some(button)) => (Some(ACTION_PRESS_BUTTON.into()), Some(button)),
            _ if verb == "press_button" => (Some(ACTION_PRESS_BUTTON.into()), None),
            _ => (Some(ACTION_TAP.into()), None),
        },
        _ => (Some(verb), None),
    }
}

fn button_name(word: &str) -> Option<String> {
    let upper = word
        .trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .to_ascii_uppercase();
    ANDROID_BUTTONS.contains(&upper.as_str()).then_some(upper)
}

/// `name=value` from legacy notes text; `None` when absent, unterminated or ambiguous.
pub(crate) fn field(notes: &str, name: &str) -> Option<String> {
    let pattern = format!("{name}=");
    let mut found: Option<String> = None;
    let mut search_from = 0;
    while let Some(offset) = notes[search_from..].find(&pattern) {
        let start = search_from + offset;
        let value_start = start + pattern.len();
        search_from = value_start;
        let at_word_start = notes[..start]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        if !at_word_start {
            continue;
        }
        let value = read_value(&notes[value_start..])?;
        match &found {
            Some(previous) if *previous != value => return None,
            _ => found = Some(value),
        }
    }
    found.filter(|v| !v.is_empty())
}

/// The first double-quoted string of a legacy `action`, as the typed value.
pub(crate) fn quoted_value(action: &str) -> Option<String> {
    let open = action.find('"')?;
    read_value(&action[open..])
}

fn read_value(rest: &str) -> Option<String> {
    let Some(quoted) = rest.strip_prefix('"') else {
        let end = rest
            .find(|c: char| c.is_whitespace() || c == ';' || c == ',')
            .unwrap_or(rest.len());
        return Some(rest[..end].to_owned());
    };
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(value),
            '\\' => value.push(chars.next()?),
            other => value.push(other),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions() {
        let cases: &[(&str, Option<&str>, Option<&str>)] = &[
            ("launch app", Some("launch"), None),
            ("Open com.x", Some("launch"), None),
            ("tap btn_login", Some("tap"), None),
            ("Click Checkout", Some("tap"), None),
            ("type \"shoes\" into search", Some("input_text"), None),
            ("Press BACK", Some("press_button"), Some("BACK")),
            ("back", Some("press_button"), Some("BACK")),
            ("press home", Some("press_button"), Some("HOME")),
            ("press_button", Some("press_button"), None),
            ("press the big button", Some("tap"), None),
            ("swipe left", Some("swipe"), None),
            ("", None, None),
        ];
        for (action, kind, button) in cases {
            let (k, b) = parse_action(action);
            assert_eq!(k.as_deref(), *kind, "{action}");
            assert_eq!(b.as_deref(), *button, "{action}");
        }
    }

    #[test]
    fn fields() {
        let notes =
            "element_key=com.x:id/btn_login input_value=\"search \\\"red\\\" shoes\"; button=BACK,";
        assert_eq!(
            field(notes, "element_key").as_deref(),
            Some("com.x:id/btn_login")
        );
        assert_eq!(
            field(notes, "input_value").as_deref(),
            Some("search \"red\" shoes")
        );
        assert_eq!(field(notes, "button").as_deref(), Some("BACK"));
        assert_eq!(field(notes, "missing"), None);
        assert_eq!(field("my_element_key=x", "element_key"), None);
        assert_eq!(
            field("element_key=a element_key=a", "element_key").as_deref(),
            Some("a")
        );
        assert_eq!(field("element_key=a element_key=b", "element_key"), None);
        assert_eq!(field("input_value=\"unterminated", "input_value"), None);
        assert_eq!(field("element_key=", "element_key"), None);
        assert_eq!(
            quoted_value("type \"hello world\" into box").as_deref(),
            Some("hello world")
        );
        assert_eq!(quoted_value("type hello"), None);
    }
}
