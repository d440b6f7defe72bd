//! Which nodes lie under the point a tester clicked.
use super::node::InspectNode;

/// Indexes of the nodes whose bounds contain (x, y), innermost first: deeper first when
/// depths are known, then smaller area first; nodes with no area are left out.
///
/// A node covers the pixels `left <= x < right`, `top <= y < bottom` (its right and
/// bottom edges belong to its neighbour, as in Android's `Rect`). Depth orders the hits
/// only when every hit has one: mixing "deeper first" for some pairs with "smaller
/// first" for others is not a total order. Among equals the later node in the dump
/// comes first: in a pre-order walk it is the descendant, or the sibling drawn on top.
pub fn nodes_at(nodes: &[InspectNode], x: i32, y: i32) -> Vec<usize> {
    let mut hits: Vec<(usize, u64)> = nodes
        .iter()
        .enumerate()
        .filter_map(|(i, node)| {
            let area = area(node.bounds)?;
            let [left, top, right, bottom] = node.bounds;
            (left <= x && x < right && top <= y && y < bottom).then_some((i, area))
        })
        .collect();
    let all_deep = hits.iter().all(|&(i, _)| nodes[i].depth.is_some());
    hits.sort_by(|&(a, area_a), &(b, area_b)| {
        let by_depth = if all_deep {
            nodes[b].depth.cmp(&nodes[a].depth)
        } else {
            std::cmp::Ordering::Equal
        };
        by_depth.then(area_a.cmp(&area_b)).then(b.cmp(&a))
    });
    hits.into_iter().map(|(i, _)| i).collect()
}

/// The area of `[left, top, right, bottom]`, `None` when it has none. Device bounds may
/// span the whole i32 range: each side fits in u32, their product in u64.
fn area(bounds: [i32; 4]) -> Option<u64> {
    let [left, top, right, bottom] = bounds.map(i64::from);
    let width = u64::try_from(right - left).ok().filter(|w| *w > 0)?;
    let height = u64::try_from(bottom - top).ok().filter(|h| *h > 0)?;
    Some(width * height)
}

#[cfg(test)]
mod tests {
    use super::super::node::tests::node;
    use super::*;

    fn at_depth(mut n: InspectNode, depth: u32) -> InspectNode {
        n.depth = Some(depth);
        n
    }

    #[test]
    fn innermost_first_by_area_without_depths() {
        let nodes = [
            node("root", "", "", [0, 0, 100, 100]),
            node("row", "", "", [0, 0, 100, 20]),
            node("label", "Hi", "", [10, 5, 30, 15]),
            node("elsewhere", "", "", [0, 50, 100, 60]),
        ];
        assert_eq!(nodes_at(&nodes, 12, 10), vec![2, 1, 0]);
        assert_eq!(nodes_at(&nodes, 50, 55), vec![3, 0]);
        assert_eq!(nodes_at(&nodes, 200, 10), Vec::<usize>::new());
    }

    #[test]
    fn deeper_first_when_every_hit_has_a_depth() {
        // A deeper child larger than its parent (a view drawn outside its bounds).
        let nodes = [
            at_depth(node("parent", "", "", [0, 0, 10, 10]), 1),
            at_depth(node("child", "", "", [0, 0, 50, 50]), 2),
        ];
        assert_eq!(nodes_at(&nodes, 5, 5), vec![1, 0]);
        // One depth unknown: area alone decides.
        let mixed = [nodes[0].clone(), node("child", "", "", [0, 0, 50, 50])];
        assert_eq!(nodes_at(&mixed, 5, 5), vec![0, 1]);
    }

    #[test]
    fn same_bounds_later_in_the_dump_first_and_no_area_left_out() {
        let nodes = [
            node("outer", "", "", [0, 0, 10, 10]),
            node("inner", "", "", [0, 0, 10, 10]),
            node("zero", "", "", [0, 0, 0, 10]),
            node("inverted", "", "", [10, 10, 0, 0]),
        ];
        assert_eq!(nodes_at(&nodes, 0, 0), vec![1, 0]);
    }

    #[test]
    fn right_and_bottom_edges_are_outside() {
        let nodes = [node("a", "", "", [0, 0, 10, 10])];
        assert_eq!(nodes_at(&nodes, 9, 9), vec![0]);
        assert!(nodes_at(&nodes, 10, 5).is_empty());
        assert!(nodes_at(&nodes, 5, 10).is_empty());
    }

    #[test]
    fn bounds_at_the_edges_of_i32_do_not_overflow() {
        let nodes = [node("w", "", "", [i32::MIN, i32::MIN, i32::MAX, i32::MAX])];
        assert_eq!(nodes_at(&nodes, 0, 0), vec![0]);
        assert_eq!(nodes_at(&nodes, i32::MIN, i32::MIN), vec![0]);
    }
}
