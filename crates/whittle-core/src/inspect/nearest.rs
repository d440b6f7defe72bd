//! The nodes that came closest to a locator that found nothing on a screen: what a
//! tester reads on an attempt that stopped with "element not found".
//!
//! A node Whittle's own matcher would find with the locator (plan/element_match.rs, or
//! plan/maestro_match.rs for a Maestro selector) scores exactly 1.0; every other node
//! scores below 1.0, so a node the matcher would find is never listed below one it
//! would not. The rules:
//! - **By::Identifier** compares resource ids, whole and by view name (the part after
//!   `:id/`), case-insensitively. Ids are not private: a masked node is compared too.
//! - **By::Text / By::Label** compare the value with the node's text and its content
//!   description, both; `matched_on` names the closer one. Only the locator's own field
//!   can score 1.0 (Whittle matches text against text, label against label), so a node
//!   whose description equals a By::Text value scores just under 1.0 with
//!   `matched_on: Label`: the tester learns which locator would have found it. A
//!   Maestro selector matches text against both fields, and so does its 1.0 here.
//! - A **masked** node's text and description are blanked: they are never compared.
//! - **By::Focused** lists nothing. The archive does not record which field had the
//!   focus, and an `EditText` is not "close" to the focus by any measure a score could
//!   state; the UI may list the editable fields itself from `class`.
//! - A blank value (on either side) is never compared: element_match finds nothing with
//!   a blank locator, and a blank node field is the same as none.
//! - A Maestro selector's state filters (`enabled`, `checked`, …) and `index` are not
//!   applied: the archive holds no flags. Its pattern decides the 1.0; the distance is
//!   measured to the pattern as written. A pattern Whittle cannot evaluate matches
//!   nothing, as in maestro_match.
use serde::Serialize;

use super::node::InspectNode;
use super::similarity::{id_similarity, text_similarity};
use crate::plan::element_match::{
    identifier_matches, is_target, normalize, text_matches, Closeness, Target,
};
use crate::plan::maestro_match::MaestroPattern;
use crate::plan::{By, Strategy};

/// Below this a node has too little in common with the locator to be worth showing:
/// at 0.4 more than half the characters of the longer value differ.
pub const MIN_NEAR_SCORE: f64 = 0.4;

/// The most a node the matcher would not find can score, however alike the values
/// (a case slip, the same view name in another package, the other field).
const NEAR_MISS_CEILING: f64 = 0.99;

/// A node close to a locator that found nothing.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct NearMatch {
    pub index: usize,
    /// 0.0..=1.0, 1 = same value
    pub score: f64,
    pub matched_on: By,
}

/// How a node's value is decided to be "the same": Whittle's rules, or a Maestro
/// pattern (`None` when it cannot be evaluated, which then matches nothing).
enum Rules {
    Whittle,
    Maestro(Option<MaestroPattern>),
}

/// One scored node, with what orders equal scores.
struct Scored {
    near: NearMatch,
    target: bool,
    closeness: Option<Closeness>,
}

/// The nodes closest to `missing`, a locator that found nothing on this screen, best
/// first, at most `limit`, only those scoring at least [`MIN_NEAR_SCORE`] (the module
/// docs state the rules). Equal scores keep the matcher's own preferences: a node with
/// area before one without, an exact match before a normalized one, then the dump's
/// order.
pub fn nearest_nodes(nodes: &[InspectNode], missing: &Strategy, limit: usize) -> Vec<NearMatch> {
    if limit == 0 || missing.by == By::Focused || normalize(&missing.value).is_empty() {
        return Vec::new();
    }
    let rules = match missing.maestro {
        Some(_) => Rules::Maestro(MaestroPattern::compile(&missing.value).ok()),
        None => Rules::Whittle,
    };
    let mut scored: Vec<Scored> = nodes
        .iter()
        .enumerate()
        .filter_map(|(index, node)| score(node, index, missing, &rules))
        .filter(|s| s.near.score >= MIN_NEAR_SCORE)
        .collect();
    scored.sort_by(|a, b| {
        b.near
            .score
            .total_cmp(&a.near.score)
            .then(b.target.cmp(&a.target))
            .then(closeness_rank(a.closeness).cmp(&closeness_rank(b.closeness)))
            .then(a.near.index.cmp(&b.near.index))
    });
    scored.truncate(limit);
    scored.into_iter().map(|s| s.near).collect()
}

/// Exact before normalized before no match at all.
fn closeness_rank(closeness: Option<Closeness>) -> u8 {
    match closeness {
        Some(Closeness::Exact) => 0,
        Some(Closeness::Normalized) => 1,
        None => 2,
    }
}

/// `node`'s score against `missing`, `None` when it has nothing to compare.
fn score(node: &InspectNode, index: usize, missing: &Strategy, rules: &Rules) -> Option<Scored> {
    let wanted = missing.value.as_str();
    // Read through `Target`: a masked node's text and label are blank there.
    let (matched_on, closeness, similarity) = match missing.by {
        By::Identifier => {
            let found = node.resource_id();
            if found.trim().is_empty() {
                return None;
            }
            let closeness = match rules {
                Rules::Whittle => identifier_matches(found, wanted),
                Rules::Maestro(pattern) => exact_if(pattern.as_ref(), |p| p.matches_id(found)),
            };
            (By::Identifier, closeness, id_similarity(found, wanted)?)
        }
        By::Text | By::Label => [(By::Text, node.text()), (By::Label, node.label())]
            .into_iter()
            .filter(|(_, found)| !normalize(found).is_empty())
            .filter_map(|(field, found)| {
                let closeness = match rules {
                    Rules::Whittle if field == missing.by => text_matches(found, wanted),
                    Rules::Whittle => None,
                    Rules::Maestro(pattern) => exact_if(pattern.as_ref(), |p| p.matches(found)),
                };
                Some((field, closeness, text_similarity(found, wanted)?))
            })
            // The better field; on a tie the locator's own.
            .max_by(|a, b| {
                field_score(a)
                    .total_cmp(&field_score(b))
                    .then((a.0 == missing.by).cmp(&(b.0 == missing.by)))
            })?,
        By::Focused => return None,
    };
    Some(Scored {
        near: NearMatch {
            index,
            score: field_score(&(matched_on, closeness, similarity)),
            matched_on,
        },
        target: is_target(node),
        closeness,
    })
}

/// 1.0 when the matcher finds the value, else its similarity kept under 1.0.
fn field_score(&(_, closeness, similarity): &(By, Option<Closeness>, f64)) -> f64 {
    if closeness.is_some() {
        1.0
    } else {
        similarity.clamp(0.0, NEAR_MISS_CEILING)
    }
}

/// `Some(Exact)` when a pattern exists and `matches` says so.
fn exact_if(
    pattern: Option<&MaestroPattern>,
    matches: impl Fn(&MaestroPattern) -> bool,
) -> Option<Closeness> {
    pattern.is_some_and(matches).then_some(Closeness::Exact)
}

#[cfg(test)]
mod tests {
    use super::super::node::tests::node;
    use super::*;
    use crate::plan::element_match::find_index;
    use crate::plan::MaestroSelector;

    fn by(by: By, value: &str) -> Strategy {
        Strategy::new(by, value)
    }

    fn indexes(near: &[NearMatch]) -> Vec<usize> {
        near.iter().map(|n| n.index).collect()
    }

    #[test]
    fn a_misspelled_id_finds_the_view_whatever_its_package() {
        let nodes = [
            node("com.shop:id/checkout_button", "", "", [0, 0, 10, 10]),
            node("com.shop:id/cart", "", "", [0, 10, 10, 20]),
            node("com.shop:id/toolbar_title", "", "", [0, 20, 10, 30]),
        ];
        let near = nearest_nodes(&nodes, &by(By::Identifier, "chekout_button"), 5);
        assert_eq!(indexes(&near), vec![0]);
        assert!(near[0].score > 0.9 && near[0].score < 1.0, "{near:?}");
        assert_eq!(near[0].matched_on, By::Identifier);
        let near = nearest_nodes(&nodes, &by(By::Identifier, "com.shop:id/Cart"), 5);
        assert_eq!(indexes(&near), vec![1], "case-insensitive, whole id");
        assert_eq!(
            near[0].score, NEAR_MISS_CEILING,
            "a case slip is not a match"
        );
    }

    #[test]
    fn exactly_what_element_match_finds_scores_one() {
        let nodes = [
            node("android:id/title", "", "", [0, 0, 10, 10]),
            node("com.x:id/title", "", "", [0, 10, 10, 20]),
            node("id/title", "", "", [0, 20, 10, 30]),
        ];
        let wanted = by(By::Identifier, "com.x:id/title");
        let near = nearest_nodes(&nodes, &wanted, 5);
        assert_eq!(indexes(&near), vec![1, 2, 0]);
        assert_eq!(near[0].score, 1.0);
        assert_eq!(near[1].score, 1.0, "no package on the node: the same view");
        assert_eq!(near[2].score, NEAR_MISS_CEILING, "another package");
        assert_eq!(find_index(&nodes, &[wanted]), Some(near[0].index));
    }

    #[test]
    fn text_is_compared_with_text_and_description_and_only_its_own_field_is_exact() {
        let nodes = [
            node("", "", "Search", [0, 0, 10, 10]),
            node("", "Serch", "", [0, 10, 10, 20]),
            node("", "Search ", "", [0, 20, 10, 30]),
        ];
        let near = nearest_nodes(&nodes, &by(By::Text, "Search"), 5);
        assert_eq!(indexes(&near), vec![2, 0, 1]);
        assert_eq!(near[0].score, 1.0, "normalized text is a match");
        assert_eq!(near[0].matched_on, By::Text);
        assert_eq!(near[1].score, NEAR_MISS_CEILING);
        assert_eq!(
            near[1].matched_on,
            By::Label,
            "the label would have found it"
        );
        assert_eq!(near[2].matched_on, By::Text);
        let near = nearest_nodes(&nodes, &by(By::Label, "Search"), 5);
        assert_eq!((near[0].index, near[0].score), (0, 1.0));
    }

    #[test]
    fn exact_before_normalized_and_a_target_before_a_node_without_area() {
        let nodes = [
            node("", "Go", "", [5, 5, 5, 5]),
            node("", "Go ", "", [0, 0, 10, 10]),
            node("", "Go", "", [0, 10, 10, 20]),
        ];
        let wanted = by(By::Text, "Go");
        let near = nearest_nodes(&nodes, &wanted, 5);
        assert_eq!(indexes(&near), vec![2, 1, 0]);
        assert!(near.iter().all(|n| n.score == 1.0));
        assert_eq!(find_index(&nodes, &[wanted]), Some(2));
    }

    #[test]
    fn masked_values_never_match_but_their_ids_do() {
        let mut masked = node("com.x:id/pin", "1234", "1234", [0, 0, 10, 10]);
        masked.masked = true;
        let nodes = [masked];
        assert!(nearest_nodes(&nodes, &by(By::Text, "1234"), 5).is_empty());
        assert!(nearest_nodes(&nodes, &by(By::Label, "1234"), 5).is_empty());
        let near = nearest_nodes(&nodes, &by(By::Identifier, "pin"), 5);
        assert_eq!(indexes(&near), vec![0]);
    }

    #[test]
    fn unrelated_blank_focused_and_limit() {
        let nodes = [
            node("com.x:id/a", "Cancel", "", [0, 0, 10, 10]),
            node("com.x:id/b", "Submit", "", [0, 10, 10, 20]),
            node("com.x:id/c", "Submit!", "", [0, 20, 10, 30]),
        ];
        assert!(nearest_nodes(&nodes, &by(By::Text, "Checkout"), 5).is_empty());
        assert!(nearest_nodes(&nodes, &by(By::Text, " "), 5).is_empty());
        assert!(nearest_nodes(&nodes, &Strategy::focused(), 5).is_empty());
        assert!(nearest_nodes(&nodes, &by(By::Text, "Submit"), 0).is_empty());
        assert_eq!(
            indexes(&nearest_nodes(&nodes, &by(By::Text, "Submit"), 1)),
            vec![1]
        );
    }

    #[test]
    fn a_maestro_pattern_decides_the_exact_match() {
        let nodes = [
            node("", "Sign in", "", [0, 0, 10, 10]),
            node("", "", "Sign up now", [0, 10, 10, 20]),
        ];
        let mut wanted = by(By::Text, "sign up.*");
        wanted.maestro = Some(MaestroSelector::default());
        let near = nearest_nodes(&nodes, &wanted, 5);
        assert_eq!(near.first().map(|n| (n.index, n.score)), Some((1, 1.0)));
        assert_eq!(near[0].matched_on, By::Label);
        assert_eq!(find_index(&nodes, &[wanted]), Some(1));
        let mut java_only = by(By::Text, "(?=Sign)Sign in");
        java_only.maestro = Some(MaestroSelector::default());
        let near = nearest_nodes(&nodes, &java_only, 5);
        assert!(near.iter().all(|n| n.score < 1.0), "{near:?}");
    }
}
