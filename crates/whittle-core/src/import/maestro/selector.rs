//! The element selector of `tapOn` and `longPressOn`: what Whittle's element tools can
//! match as Maestro does (a text or id pattern with `index`, `enabled`, `checked`,
//! `selected`, `focused`; plan/maestro_match.rs) and what they cannot (positions
//! relative to other elements, children, traits, sizes, a point inside an element, an
//! id and a text together, a pattern only Java's engine evaluates).

use saphyr::MarkedYaml;

use super::yaml::{key_text, line_of, mapping, scalar_text, Doc};
use crate::import::{ElementKey, ImportError, ImportProblem};
use crate::plan::maestro_match::MaestroPattern;
use crate::plan::MaestroSelector;

/// Where a tap lands, as far as Whittle can tell.
pub(super) enum Target {
    Element(ElementKey),
    /// The selector narrows its match in a way `tap_element` cannot (words for the step).
    Inexpressible(String),
}

/// Every key of Maestro's `YamlElementSelector`. Anything else is a typo Maestro itself
/// refuses, so it is an error here too.
const SELECTOR_KEYS: &[&str] = &[
    "text",
    "id",
    "width",
    "height",
    "tolerance",
    "optional",
    "retryTapIfNoChange",
    "waitUntilVisible",
    "point",
    "start",
    "end",
    "below",
    "above",
    "leftOf",
    "rightOf",
    "containsChild",
    "containsDescendants",
    "traits",
    "index",
    "enabled",
    "selected",
    "checked",
    "focused",
    "repeat",
    "delay",
    "waitToSettleTimeoutMs",
    "childOf",
    "label",
];

/// Keys that pick one element among several matches by where it is, what it holds or its
/// size: the element tools have no way to say them.
const RELATIVE_KEYS: &[&str] = &[
    "below",
    "above",
    "leftOf",
    "rightOf",
    "containsChild",
    "containsDescendants",
    "childOf",
    "traits",
    "width",
    "height",
    "tolerance",
];

/// The parts of a selector a tap cares about.
pub(super) struct Selector {
    pub target: Target,
    pub optional: bool,
    pub repeat: i64,
}

/// Reads `node` (a bare string is a text selector). `resolve` substitutes `${NAME}`
/// from the flow's env and answers `None` for a value it cannot know.
pub(super) fn read(
    doc: &Doc,
    node: &MarkedYaml,
    field: &str,
    resolve: &dyn Fn(&str) -> Option<String>,
) -> Result<Selector, ImportError> {
    if let Some(text) = scalar_text(node) {
        let target = pattern_target(
            doc,
            node,
            field,
            resolve,
            &text,
            false,
            MaestroSelector::default(),
        )?;
        return Ok(Selector {
            target,
            optional: false,
            repeat: 1,
        });
    }
    let map = mapping(doc, node, field)?;
    let mut id = None;
    let mut text = None;
    let mut point = None;
    let mut relative = None;
    let mut optional = false;
    let mut repeat = 1;
    let mut narrowing = MaestroSelector::default();
    for (key, value) in map.iter() {
        let name = key_text(doc, key, field)?;
        let at = format!("{field}.{name}");
        if !SELECTOR_KEYS.contains(&name.as_str()) {
            return Err(doc.error(
                Some(line_of(key)),
                Some(at),
                ImportProblem::BadValue(format!(
                    "unknown selector key {name:?} (a selector names an element by id, text, \
                     point, …)"
                )),
            ));
        }
        let scalar = || {
            scalar_text(value).ok_or_else(|| {
                doc.error(
                    Some(line_of(value)),
                    Some(at.clone()),
                    ImportProblem::BadValue(format!("{name} must be a single value")),
                )
            })
        };
        match name.as_str() {
            "id" => id = Some(scalar()?),
            "text" => text = Some(scalar()?),
            "point" => point = Some(scalar()?),
            "optional" => optional = super::yaml::as_bool(value).unwrap_or(false),
            "repeat" => repeat = super::yaml::as_int(value).unwrap_or(1),
            "index" => {
                let index = scalar()?;
                // Maestro reads the index as a number and truncates it (`"2.0"` is 2).
                match index.trim().parse::<f64>() {
                    Ok(n) if n >= 0.0 && n < f64::from(u32::MAX) => {
                        narrowing.index = Some(n as u32)
                    }
                    _ => relative = relative.or(Some("index".to_owned())),
                }
            }
            "enabled" => narrowing.enabled = flag(doc, value, &at)?,
            "checked" => narrowing.checked = flag(doc, value, &at)?,
            "selected" => narrowing.selected = flag(doc, value, &at)?,
            "focused" => narrowing.focused = flag(doc, value, &at)?,
            n if RELATIVE_KEYS.contains(&n) => relative = relative.or(Some(name.clone())),
            // label, delays, retries: how Maestro taps, not which element.
            _ => {}
        }
    }
    let target = if let Some(key) = relative {
        let words = super::yaml::words(&key);
        let article = if words.starts_with(['a', 'e', 'i', 'o', 'u']) {
            "an"
        } else {
            "a"
        };
        Target::Inexpressible(format!("{article} {words} selector"))
    } else if point.is_some() && (id.is_some() || text.is_some()) {
        Target::Inexpressible("a point in an element".into())
    } else if let Some(point) = point {
        Target::Element(ElementKey::Position(point))
    } else if id.is_some() && text.is_some() {
        Target::Inexpressible("id and text together".into())
    } else if let Some(id) = id {
        pattern_target(doc, node, field, resolve, &id, true, narrowing)?
    } else if let Some(text) = text {
        pattern_target(doc, node, field, resolve, &text, false, narrowing)?
    } else {
        return Err(doc.error(
            Some(line_of(node)),
            Some(field.to_owned()),
            ImportProblem::BadValue(
                "the selector names no element (give id, text or point)".into(),
            ),
        ));
    };
    Ok(Selector {
        target,
        optional,
        repeat,
    })
}

/// A text or id as Maestro matches it, or why it cannot be.
fn pattern_target(
    doc: &Doc,
    node: &MarkedYaml,
    field: &str,
    resolve: &dyn Fn(&str) -> Option<String>,
    written: &str,
    by_id: bool,
    selector: MaestroSelector,
) -> Result<Target, ImportError> {
    let Some(pattern) = resolve(written) else {
        return Ok(Target::Inexpressible("an unknown variable".into()));
    };
    if pattern.trim().is_empty() {
        return Err(empty(doc, node, field));
    }
    if MaestroPattern::compile(&pattern).is_err() {
        return Ok(Target::Inexpressible("a Java-only pattern".into()));
    }
    Ok(Target::Element(ElementKey::Maestro {
        by_id,
        pattern,
        selector,
    }))
}

/// A state filter: `true`/`false`, or an error naming the field.
fn flag(doc: &Doc, value: &MarkedYaml, at: &str) -> Result<Option<bool>, ImportError> {
    super::yaml::as_bool(value).map(Some).ok_or_else(|| {
        doc.error(
            Some(line_of(value)),
            Some(at.to_owned()),
            ImportProblem::BadValue("expected true or false".into()),
        )
    })
}

fn empty(doc: &Doc, node: &MarkedYaml, field: &str) -> ImportError {
    doc.error(
        Some(line_of(node)),
        Some(field.to_owned()),
        ImportProblem::BadValue("the selector is empty".into()),
    )
}
