//! How a tap, an input or a wait finds its element, shared by the simulated device and the
//! adb server so that one plan behaves the same on both, and by the application layer
//! (which element a frame before an action outlines). A rule of the domain, so the
//! core's. Devices report text as the app
//! set it, not as a tester reads it (`"SIGN UP "`, `"12\u{a0}€"`), and resource ids with
//! or without their package, so an exact string compare misses elements that are plainly
//! on screen.
//!
//! The rules (docs/real-devices.md restates them for users):
//! - **Text and label** compare after [`normalize`]: white space at both ends is dropped
//!   and every inner run of it becomes one space. White space is Unicode's: the no-break
//!   space U+00A0, the figure space U+2007, the narrow no-break space U+202F, U+3000,
//!   tabs and line breaks included. Zero-width characters that draw nothing (U+200B,
//!   U+2060, U+FEFF) are dropped. Case and every other character must be equal.
//! - **Identifiers** match with or without the package prefix: `com.x:id/btn`, `id/btn`
//!   and `btn` all name the view `btn`, and a React Native testID (no prefix at all, such
//!   as `precipitation-summary`) matches itself. When both sides name a package the
//!   packages must be equal: `com.x:id/title` never matches `android:id/title`.
//! - Only **visible** elements with a non-empty area are targets; a zero-size or hidden
//!   node is skipped even when it matches.
//! - Among several targets, an **exact** match (the strings are equal as sent) beats a
//!   normalized one, and among equals the **first in document order** wins: the order of
//!   the dump (a pre-order walk of the view tree), which is also the order UiAutomator's
//!   `findObject` and Appium search in, so a plan written against them picks the same
//!   element here.
//! - **The focused field** (`By::Focused`) is the first target whose server reports it
//!   focused.
//! - Strategies are tried in order; the first one that finds a target decides.
//! - A strategy imported from a Maestro selector (`maestro` set) is matched by Maestro's
//!   rules instead, which plan/maestro_match.rs states.
pub use super::element::{is_target, ElementFlag, Target};
use super::locator::{By, Strategy};
use super::maestro_match;

/// Characters that take no room and mean nothing between words.
const ZERO_WIDTH: [char; 3] = ['\u{200B}', '\u{2060}', '\u{FEFF}'];

/// How closely an element matched; the derived order puts the better match first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Closeness {
    /// The strings are equal as sent.
    Exact,
    /// Equal after whitespace normalization, or the same view id across a package prefix.
    Normalized,
}

/// `s` trimmed, inner white space collapsed to one ASCII space, zero-width characters
/// dropped (see the module docs for which characters count).
pub fn normalize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space_pending = false;
    for ch in s.chars() {
        if ZERO_WIDTH.contains(&ch) {
            continue;
        }
        if ch.is_whitespace() {
            space_pending = !out.is_empty();
            continue;
        }
        if space_pending {
            out.push(' ');
            space_pending = false;
        }
        out.push(ch);
    }
    out
}

/// Whether `found` (what the device reports) and `wanted` (what the plan asks for) name
/// the same text or label; an empty or all-blank `wanted` names nothing.
pub fn text_matches(found: &str, wanted: &str) -> Option<Closeness> {
    let normalized = normalize(wanted);
    if normalized.is_empty() {
        None
    } else if found == wanted {
        Some(Closeness::Exact)
    } else {
        (normalize(found) == normalized).then_some(Closeness::Normalized)
    }
}

/// `pkg:id/name` → (`Some(pkg)`, `name`); `id/name` → (`None`, `name`); any other string
/// is a bare name (a testID), kept whole even when it holds `:` or `/`.
fn split_id(id: &str) -> (Option<&str>, &str) {
    if let Some((package, rest)) = id.split_once(':') {
        match rest.strip_prefix("id/") {
            Some(name) if !package.is_empty() && !name.is_empty() => return (Some(package), name),
            _ => return (None, id),
        }
    }
    match id.strip_prefix("id/") {
        Some(name) if !name.is_empty() => (None, name),
        _ => (None, id),
    }
}

/// Whether resource id `found` and the plan's `wanted` name the same view.
pub fn identifier_matches(found: &str, wanted: &str) -> Option<Closeness> {
    let (found, wanted) = (found.trim(), wanted.trim());
    if wanted.is_empty() || found.is_empty() {
        return None;
    }
    if found == wanted {
        return Some(Closeness::Exact);
    }
    let (found_package, found_name) = split_id(found);
    let (wanted_package, wanted_name) = split_id(wanted);
    if found_name != wanted_name {
        return None;
    }
    match (found_package, wanted_package) {
        (Some(a), Some(b)) if a != b => None,
        _ => Some(Closeness::Normalized),
    }
}

/// How `element` matches `strategy`, if it does (visibility is not considered here).
pub fn closeness<T: Target + ?Sized>(element: &T, strategy: &Strategy) -> Option<Closeness> {
    match strategy.by {
        By::Identifier => identifier_matches(element.resource_id(), &strategy.value),
        By::Text => text_matches(element.text(), &strategy.value),
        By::Label => text_matches(element.label(), &strategy.value),
        By::Focused => {
            (element.flag(ElementFlag::Focused) == Some(true)).then_some(Closeness::Exact)
        }
    }
}

/// The index of the element the strategies find, by the rules in the module docs.
pub fn find_index<T: Target>(elements: &[T], strategies: &[Strategy]) -> Option<usize> {
    strategies.iter().find_map(|strategy| {
        if let Some(selector) = &strategy.maestro {
            return maestro_match::find_index(elements, strategy, selector);
        }
        elements
            .iter()
            .enumerate()
            .filter(|(_, e)| is_target(*e))
            .filter_map(|(i, e)| closeness(e, strategy).map(|c| (c, i)))
            .min()
            .map(|(_, i)| i)
    })
}

/// The element the strategies find, by the rules in the module docs.
pub fn find<'a, T: Target>(elements: &'a [T], strategies: &[Strategy]) -> Option<&'a T> {
    find_index(elements, strategies).map(|i| &elements[i])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a device reports of an element, as far as matching reads it.
    #[derive(Debug, Clone, Default)]
    struct UiElement {
        resource_id: String,
        text: String,
        content_desc: String,
        bounds: [i32; 4],
        visible: bool,
    }

    impl Target for UiElement {
        fn resource_id(&self) -> &str {
            &self.resource_id
        }
        fn text(&self) -> &str {
            &self.text
        }
        fn label(&self) -> &str {
            &self.content_desc
        }
        fn bounds(&self) -> [i32; 4] {
            self.bounds
        }
        fn visible(&self) -> bool {
            self.visible
        }
    }

    fn el(id: &str, text: &str, label: &str, bounds: [i32; 4]) -> UiElement {
        UiElement {
            resource_id: id.into(),
            text: text.into(),
            content_desc: label.into(),
            bounds,
            visible: true,
        }
    }

    fn by(by: By, value: &str) -> Strategy {
        Strategy::new(by, value)
    }

    #[test]
    fn normalize_trims_collapses_and_drops_zero_width() {
        assert_eq!(normalize("SIGN UP "), "SIGN UP");
        assert_eq!(normalize("\u{a0} Pay\u{a0}\u{a0}now\t\n"), "Pay now");
        assert_eq!(normalize("1\u{2007}234\u{202f}€"), "1 234 €");
        // Full-width space (U+3000) between CJK words, written as escapes: the core
        // holds no CJK text (crates/whittle-core/tests/core/architecture.rs).
        assert_eq!(
            normalize("\u{3000}\u{5168}\u{89d2}\u{3000}\u{30b9}\u{30da}\u{30fc}\u{30b9}"),
            "\u{5168}\u{89d2} \u{30b9}\u{30da}\u{30fc}\u{30b9}"
        );
        assert_eq!(normalize("Sign\u{200b}Up\u{feff}"), "SignUp");
        assert_eq!(normalize(" \u{a0}\u{200b} "), "");
        assert_eq!(
            normalize("Café"),
            "Café",
            "other characters are kept as they are"
        );
    }

    #[test]
    fn text_compares_normalized_but_never_matches_blank() {
        assert_eq!(text_matches("SIGN UP", "SIGN UP"), Some(Closeness::Exact));
        assert_eq!(
            text_matches("SIGN UP ", "SIGN UP"),
            Some(Closeness::Normalized)
        );
        assert_eq!(
            text_matches("SIGN UP", " SIGN\u{a0}UP"),
            Some(Closeness::Normalized)
        );
        assert_eq!(text_matches("Sign up", "SIGN UP"), None, "case counts");
        assert_eq!(text_matches("SIGNUP", "SIGN UP"), None);
        assert_eq!(text_matches("", ""), None);
        assert_eq!(text_matches(" ", " "), None);
        assert_eq!(text_matches("\u{a0}", " "), None);
        assert_eq!(text_matches("\u{200b}", "\u{200b}"), None);
    }

    #[test]
    fn identifiers_match_across_the_package_prefix_but_not_across_packages() {
        let same = [
            ("com.x:id/btn", "com.x:id/btn", Closeness::Exact),
            ("com.x:id/btn", "btn", Closeness::Normalized),
            ("com.x:id/btn", "id/btn", Closeness::Normalized),
            ("btn", "com.x:id/btn", Closeness::Normalized),
            ("id/btn", "com.x:id/btn", Closeness::Normalized),
            (
                "precipitation-summary",
                "precipitation-summary",
                Closeness::Exact,
            ),
            ("login:submit", "login:submit", Closeness::Exact),
        ];
        for (found, wanted, closeness) in same {
            assert_eq!(
                identifier_matches(found, wanted),
                Some(closeness),
                "{found} vs {wanted}"
            );
        }
        let different = [
            ("com.x:id/title", "android:id/title"),
            ("com.x:id/btn", "com.x:id/btn2"),
            ("com.x:id/btn", "x:id/btn"),
            ("precipitation-summary", "com.x:id/summary"),
            ("login:submit", "submit"),
            ("com.x:id/btn", ""),
            ("", "btn"),
            ("com.x:id/", "id/"),
        ];
        for (found, wanted) in different {
            assert_eq!(
                identifier_matches(found, wanted),
                None,
                "{found} vs {wanted}"
            );
        }
    }

    #[test]
    fn exact_beats_normalized_then_document_order_and_hidden_or_empty_never_win() {
        let mut hidden = el("com.x:id/a", "Go", "", [0, 0, 100, 100]);
        hidden.visible = false;
        let zero = el("com.x:id/b", "Go", "", [50, 50, 50, 90]);
        let loose = el("com.x:id/c", "Go ", "", [0, 100, 100, 200]);
        let exact = el("com.x:id/d", "Go", "", [0, 200, 100, 300]);
        let later = el("com.x:id/e", "Go", "", [0, 300, 100, 400]);
        let els = [hidden, zero, loose.clone(), exact, later];
        assert_eq!(find_index(&els, &[by(By::Text, "Go")]), Some(3));
        assert_eq!(find_index(&els, &[by(By::Text, "Go\u{a0}")]), Some(2));
        assert_eq!(find_index(&els[..3], &[by(By::Text, "Go")]), Some(2));
        assert_eq!(find_index(&els[..2], &[by(By::Text, "Go")]), None);
        assert_eq!(find_index(&els, &[by(By::Identifier, "a")]), None);
        assert_eq!(
            find_index(
                &els,
                &[
                    by(By::Identifier, "zzz"),
                    by(By::Label, ""),
                    by(By::Identifier, "e")
                ]
            ),
            Some(4),
            "strategies in order; the first that finds decides"
        );
        let same_id = [loose.clone(), el("com.x:id/c", "", "", [0, 0, 10, 10])];
        assert_eq!(find_index(&same_id, &[by(By::Identifier, "c")]), Some(0));
    }

    #[test]
    fn bounds_at_the_edges_of_i32_do_not_overflow() {
        let wide = el("id/w", "W", "", [i32::MIN, i32::MIN, i32::MAX, i32::MAX]);
        assert!(is_target(&wide));
        let inverted = el("id/w", "W", "", [i32::MAX, 0, i32::MIN, 10]);
        assert!(!is_target(&inverted));
    }
}
