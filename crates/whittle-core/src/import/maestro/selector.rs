//! `tapOn`'s element selector: what Whittle's `tap_element` can express (an id or a
//! text) and what it cannot (relations, positions, indexes).

use saphyr::MarkedYaml;

use super::yaml::{key_text, line_of, mapping, scalar_text, Doc};
use crate::import::{ElementKey, ImportError, ImportProblem};

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

/// Keys that pick one element among several matches by where it is or what it holds.
const RELATIVE_KEYS: &[&str] = &[
    "below",
    "above",
    "leftOf",
    "rightOf",
    "containsChild",
    "containsDescendants",
    "childOf",
    "index",
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
    let unknown = || Target::Inexpressible("tap on an element named by an unknown variable".into());
    if let Some(text) = scalar_text(node) {
        let target = match resolve(&text) {
            Some(text) if !text.trim().is_empty() => Target::Element(ElementKey::Text(text)),
            Some(_) => return Err(empty(doc, node, field)),
            None => unknown(),
        };
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
            n if RELATIVE_KEYS.contains(&n) => relative = relative.or(Some(name.clone())),
            // label, delays, retries, state filters: how Maestro taps, not which element.
            _ => {}
        }
    }
    let target = if let Some(key) = relative {
        Target::Inexpressible(format!("tap with a {} selector", super::yaml::words(&key)))
    } else if let Some(point) = point {
        Target::Element(ElementKey::Position(point))
    } else if let Some(id) = id {
        match resolve(&id) {
            Some(id) if !id.trim().is_empty() => Target::Element(ElementKey::Id(id)),
            Some(_) => return Err(empty(doc, node, field)),
            None => unknown(),
        }
    } else if let Some(text) = text {
        match resolve(&text) {
            Some(text) if !text.trim().is_empty() => Target::Element(ElementKey::Text(text)),
            Some(_) => return Err(empty(doc, node, field)),
            None => unknown(),
        }
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

fn empty(doc: &Doc, node: &MarkedYaml, field: &str) -> ImportError {
    doc.error(
        Some(line_of(node)),
        Some(field.to_owned()),
        ImportProblem::BadValue("the selector is empty".into()),
    )
}
