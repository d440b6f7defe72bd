//! Properties of the inspector on arbitrary hierarchies.
use proptest::prelude::*;
use whittle_core::inspect::{locator_of, nearest_nodes, nodes_at, InspectNode};
use whittle_core::plan::element_match::{closeness, is_target};
// `Locator`: proptest has a `Strategy` of its own.
use whittle_core::plan::{By, Strategy as Locator};

fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        "[a-c ]{1,4}",
        "(com\\.x:id/|id/|android:id/)?[a-cA-C_]{1,5}",
    ]
}

fn node() -> impl Strategy<Value = InspectNode> {
    (
        (value(), value(), value()),
        (-5i32..30, -5i32..30, -5i32..30, -5i32..30),
        proptest::option::of(0u32..4),
        any::<bool>(),
    )
        .prop_map(
            |((id, text, desc), (l, t, r, b), depth, masked)| InspectNode {
                resource_id: id,
                text,
                content_desc: desc,
                class: "android.view.View".into(),
                bounds: [l, t, r, b],
                depth,
                masked,
            },
        )
}

fn locator() -> impl Strategy<Value = Locator> {
    (
        prop_oneof![Just(By::Identifier), Just(By::Text), Just(By::Label)],
        value(),
    )
        .prop_map(|(by, value)| Locator::new(by, value))
}

proptest! {
    #[test]
    fn every_node_at_a_point_contains_it_with_area_once_and_innermost_first(
        nodes in proptest::collection::vec(node(), 0..12),
        x in -6i32..31,
        y in -6i32..31,
    ) {
        let at = nodes_at(&nodes, x, y);
        let mut seen = at.clone();
        seen.sort_unstable();
        seen.dedup();
        prop_assert_eq!(seen.len(), at.len());
        for &i in &at {
            let [l, t, r, b] = nodes[i].bounds;
            prop_assert!(l <= x && x < r && t <= y && y < b);
        }
        let inside = nodes.iter().filter(|n| {
            let [l, t, r, b] = n.bounds;
            l <= x && x < r && t <= y && y < b
        }).count();
        prop_assert_eq!(at.len(), inside);
        let area = |i: usize| {
            let [l, t, r, b] = nodes[i].bounds.map(i64::from);
            (r - l) * (b - t)
        };
        let all_deep = at.iter().all(|&i| nodes[i].depth.is_some());
        for pair in at.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            if all_deep {
                prop_assert!(nodes[a].depth >= nodes[b].depth);
                if nodes[a].depth == nodes[b].depth {
                    prop_assert!(area(a) <= area(b));
                }
            } else {
                prop_assert!(area(a) <= area(b));
            }
        }
    }

    #[test]
    fn a_nodes_own_locator_finds_it_with_score_one(
        nodes in proptest::collection::vec(node(), 1..10),
        pick in any::<proptest::sample::Index>(),
    ) {
        let i = pick.index(nodes.len());
        if let Some(locator) = locator_of(&nodes[i]) {
            let near = nearest_nodes(&nodes, &locator, nodes.len());
            prop_assert!(near.iter().any(|n| n.index == i && n.score == 1.0), "{:?}", near);
        }
    }

    #[test]
    fn scores_are_one_exactly_for_what_the_matcher_finds_and_sorted_best_first(
        nodes in proptest::collection::vec(node(), 0..10),
        wanted in locator(),
        limit in 0usize..12,
    ) {
        let near = nearest_nodes(&nodes, &wanted, limit);
        prop_assert!(near.len() <= limit);
        for n in &near {
            prop_assert!((0.4..=1.0).contains(&n.score), "{:?}", n);
            let matched = closeness(&nodes[n.index], &wanted).is_some();
            prop_assert_eq!(n.score == 1.0, matched, "{:?}", n);
        }
        for pair in near.windows(2) {
            prop_assert!(pair[0].score >= pair[1].score);
            // A node the matcher would find (a target) is never below one it would not.
            let found = |n: &whittle_core::inspect::NearMatch| {
                is_target(&nodes[n.index]) && closeness(&nodes[n.index], &wanted).is_some()
            };
            prop_assert!(found(&pair[0]) || !found(&pair[1]));
        }
        // Every match the limit leaves room for is listed.
        let matches = nodes.iter().filter(|n| closeness(*n, &wanted).is_some()).count();
        let ones = near.iter().filter(|n| n.score == 1.0).count();
        prop_assert_eq!(ones, matches.min(limit));
    }
}
