//! A selector matched as Maestro matches it, so that a flow imported from Maestro taps on a
//! replay what it tapped under Maestro. The rules are those of Maestro's `Filters.kt` and
//! `Orchestra.buildFilter` (mobile-dev-inc/maestro, maestro-client and
//! maestro-orchestra; tests/fixtures/SOURCES.md names the commit read):
//!
//! - A text or id is a **regular expression** with the flags Maestro compiles it with
//!   (case-insensitive, `.` matching line breaks, multi-line), and must match the
//!   **whole** value. A pattern that is not a valid regular expression is taken
//!   literally (Maestro escapes it); one that uses what only Java's engine knows
//!   (look-around, back-references, possessive or atomic groups) cannot be evaluated
//!   faithfully here, so [`PatternProblem`] makes the import skip the step.
//! - **Text** matches the element's text, its hint, or its accessibility text (the
//!   content description), each also with its line breaks read as spaces, and also when
//!   the value equals the pattern as written.
//! - An **id** matches the whole resource id or the part after its last `/`.
//! - `enabled`, `checked`, `selected` and `focused` keep the elements whose flag is as
//!   asked; an element whose server does not report the flag is not kept.
//! - Of the elements left, a match that contains another match is dropped for it (Maestro
//!   takes the deepest matching element). Then `index` picks the n-th by position (top,
//!   then left); without one, clickable elements come first, then document order.
use std::cmp::Reverse;

use super::element::{is_target, ElementFlag, Target};
use super::locator::{By, MaestroSelector, Strategy};
use regex::{Regex, RegexBuilder};

/// Why a pattern cannot be evaluated as Maestro would.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatternProblem {
    /// Look-around, a back-reference, an atomic group, a possessive quantifier or a
    /// `\Q…\E` quote: valid for Maestro's engine (Java's), unknown to Whittle's.
    JavaOnly,
}

/// Maestro's pattern, compiled: a regular expression, or the literal text when the
/// pattern is not a valid expression.
#[derive(Debug, Clone)]
pub struct MaestroPattern {
    written: String,
    regex: Regex,
}

/// The regex engine's compiled-size limit for one pattern: a flow's selector is short;
/// a hostile one must not cost the server memory.
const PATTERN_SIZE_LIMIT: usize = 1 << 20;

/// Constructs of Java's regular expressions that Rust's `regex` refuses: a pattern that
/// fails to compile and holds one of them is one Maestro runs and Whittle cannot.
const JAVA_ONLY: &[&str] = &[
    "(?=", "(?!", "(?<=", "(?<!", "(?>", "\\Q", "\\k<", "*+", "++", "?+", "}+",
];

impl MaestroPattern {
    pub fn compile(pattern: &str) -> Result<MaestroPattern, PatternProblem> {
        let build = |p: &str| {
            RegexBuilder::new(&format!(r"\A(?:{p})\z"))
                .case_insensitive(true)
                .dot_matches_new_line(true)
                .multi_line(true)
                .size_limit(PATTERN_SIZE_LIMIT)
                .build()
        };
        let regex = match build(pattern) {
            Ok(regex) => regex,
            Err(_) if is_java_only(pattern) => return Err(PatternProblem::JavaOnly),
            // Maestro's `toRegexSafe`: an invalid expression is matched as literal text.
            Err(_) => build(&regex::escape(pattern)).map_err(|_| PatternProblem::JavaOnly)?,
        };
        Ok(MaestroPattern {
            written: pattern.to_owned(),
            regex,
        })
    }

    /// Whether `value` matches: the whole of it, as written or with its line breaks read
    /// as spaces, or equal to the pattern as written.
    pub fn matches(&self, value: &str) -> bool {
        let stripped = value.replace('\n', " ");
        self.regex.is_match(value)
            || self.written == value
            || self.regex.is_match(&stripped)
            || self.written == stripped
    }

    /// Whether a resource id matches: whole, or the part after its last `/`.
    pub fn matches_id(&self, id: &str) -> bool {
        let name = id.rsplit_once('/').map_or(id, |(_, name)| name);
        self.regex.is_match(id) || self.regex.is_match(name)
    }
}

fn is_java_only(pattern: &str) -> bool {
    let backreference = pattern
        .as_bytes()
        .windows(2)
        .any(|w| w[0] == b'\\' && w[1].is_ascii_digit() && w[1] != b'0');
    backreference || JAVA_ONLY.iter().any(|c| pattern.contains(c))
}

/// Whether `element`'s flags are as `selector` asks.
fn keeps<T: Target + ?Sized>(selector: &MaestroSelector, element: &T) -> bool {
    [
        (selector.enabled, ElementFlag::Enabled),
        (selector.checked, ElementFlag::Checked),
        (selector.selected, ElementFlag::Selected),
        (selector.focused, ElementFlag::Focused),
    ]
    .into_iter()
    .all(|(wanted, flag)| wanted.is_none_or(|w| element.flag(flag) == Some(w)))
}

/// The index of the element `strategy` (with its Maestro selector) finds, by the rules in
/// the module docs; `None` when nothing matches or the pattern cannot be evaluated.
pub fn find_index<T: Target>(
    elements: &[T],
    strategy: &Strategy,
    selector: &MaestroSelector,
) -> Option<usize> {
    let pattern = MaestroPattern::compile(&strategy.value).ok()?;
    let matches = |e: &T| match strategy.by {
        By::Text | By::Label => {
            pattern.matches(e.text()) || pattern.matches(e.hint()) || pattern.matches(e.label())
        }
        By::Identifier => pattern.matches_id(e.resource_id()),
        By::Focused => e.flag(ElementFlag::Focused) == Some(true),
    };
    let matched: Vec<usize> = (0..elements.len())
        .filter(|&i| matches(&elements[i]))
        .collect();
    let mut kept: Vec<usize> = matched
        .iter()
        .copied()
        .filter(|&i| !has_matching_descendant(elements, i, &matched))
        .filter(|&i| is_target(&elements[i]) && keeps(selector, &elements[i]))
        .collect();
    match selector.index {
        Some(n) => {
            kept.sort_by_key(|&i| {
                let [left, top, ..] = elements[i].bounds();
                (top, left)
            });
            kept.get(usize::try_from(n).ok()?).copied()
        }
        None => {
            // A stable sort: document order among equally clickable elements.
            kept.sort_by_key(|&i| Reverse(elements[i].flag(ElementFlag::Clickable) == Some(true)));
            kept.first().copied()
        }
    }
}

/// Whether an element after `i` in document order, and deeper than it, is in `matched`:
/// the elements are listed in a pre-order walk, so `i`'s descendants are the run of
/// deeper elements right after it. Without depths nothing counts as nested.
fn has_matching_descendant<T: Target>(elements: &[T], i: usize, matched: &[usize]) -> bool {
    let Some(depth) = elements[i].depth() else {
        return false;
    };
    elements[i + 1..]
        .iter()
        .enumerate()
        .take_while(|(_, e)| e.depth().is_some_and(|d| d > depth))
        .any(|(offset, _)| matched.contains(&(i + 1 + offset)))
}

#[cfg(test)]
#[path = "maestro_match_tests.rs"]
mod tests;
