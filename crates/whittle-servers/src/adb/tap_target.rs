//! Where a tap on a found element lands. The element a plan names is often a label that
//! is not clickable itself: the clickable view is an ancestor (a React Native `Pressable`
//! around its `Text`, a list row around its title, a launcher card around its clock).
//! A person taps the control, and the control is what the app listens to, so the tap
//! aims at the centre of the nearest clickable ancestor. One exception: when another
//! clickable view inside that ancestor covers its centre, that view would take the tap,
//! so the tap aims at the element itself instead (clipped to the ancestor).
use super::hierarchy::{bounds_centre, DumpNode};
use whittle_contract::ui::Strategy;
use whittle_core::plan::element_match::{find_index, is_target};

/// The tap point for the element the strategies find, or `None` when none is found.
pub fn find_tap_point(nodes: &[DumpNode], strategies: &[Strategy]) -> Option<(i32, i32)> {
    tap_point(nodes, find_index(nodes, strategies)?)
}

/// The tap point for `nodes[found]` by the rule in the module docs.
pub fn tap_point(nodes: &[DumpNode], found: usize) -> Option<(i32, i32)> {
    let node = nodes.get(found)?;
    let own = bounds_centre(node.element.bounds);
    if node.clickable {
        return Some(own);
    }
    let Some(holder) =
        ancestors(nodes, found).find(|&a| nodes[a].clickable && is_target(&nodes[a]))
    else {
        return Some(own);
    };
    let holder_bounds = nodes[holder].element.bounds;
    let aim = bounds_centre(holder_bounds);
    let taken = nodes.iter().enumerate().any(|(j, other)| {
        j != holder
            && other.clickable
            && is_target(other)
            && contains(other.element.bounds, aim)
            && ancestors(nodes, j).any(|a| a == holder)
    });
    if !taken {
        return Some(aim);
    }
    Some(clip(node.element.bounds, holder_bounds).map_or(own, bounds_centre))
}

/// The indexes of `nodes[i]`'s ancestors, nearest first. A parent always comes before
/// its child in a dump; a list that says otherwise ends the walk instead of looping.
fn ancestors(nodes: &[DumpNode], i: usize) -> impl Iterator<Item = usize> + '_ {
    let first = nodes.get(i).and_then(|n| n.parent).filter(|&p| p < i);
    std::iter::successors(first, move |&p| {
        nodes.get(p).and_then(|n| n.parent).filter(|&q| q < p)
    })
}

fn contains([l, t, r, b]: [i32; 4], (x, y): (i32, i32)) -> bool {
    (l..r).contains(&x) && (t..b).contains(&y)
}

/// The overlap of two rectangles, if they overlap at all.
fn clip(a: [i32; 4], b: [i32; 4]) -> Option<[i32; 4]> {
    let r = [
        a[0].max(b[0]),
        a[1].max(b[1]),
        a[2].min(b[2]),
        a[3].min(b[3]),
    ];
    (r[2] > r[0] && r[3] > r[1]).then_some(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adb::hierarchy::parse_dump_tree;
    use whittle_contract::ui::By;

    fn text(value: &str) -> Vec<Strategy> {
        vec![Strategy::new(By::Text, value)]
    }

    const ROW: &str = r#"<hierarchy rotation="0"><node text="" clickable="false" bounds="[0,0][1000,2000]">
      <node text="" clickable="true" bounds="[0,100][1000,300]">
        <node text="" clickable="false" bounds="[0,100][1000,300]"><node text="Title" clickable="false" bounds="[20,150][220,250]"/></node>
      </node>
      <node text="" clickable="true" bounds="[0,400][1000,600]">
        <node text="Row two" clickable="false" bounds="[20,450][220,550]"/>
        <node text="" resource-id="x:id/switch" clickable="true" bounds="[400,420][600,580]"/>
      </node>
      <node text="Loose" clickable="false" bounds="[20,700][220,800]"/>
      <node text="Button" clickable="true" bounds="[300,700][500,800]"><node text="Inner" bounds="[0,0][0,0]"/></node>
      <node text="" clickable="true" bounds="[0,900][100,1000]"><node text="Spills" clickable="false" bounds="[50,950][300,990]"/></node>
      <node text="" clickable="true" bounds="[0,1100][1000,1300]"><node text="" clickable="true" bounds="[450,1150][550,1250]"/><node text="Spills too" clickable="false" bounds="[900,1150][1200,1250]"/></node>
    </node></hierarchy>"#;

    #[test]
    fn a_label_is_tapped_through_its_nearest_clickable_ancestor() {
        let nodes = parse_dump_tree(ROW).unwrap();
        assert_eq!(find_tap_point(&nodes, &text("Title")), Some((500, 200)));
        assert_eq!(find_tap_point(&nodes, &text("Button")), Some((400, 750)));
        assert_eq!(
            find_tap_point(&nodes, &text("Loose")),
            Some((120, 750)),
            "no clickable ancestor: its own centre"
        );
        assert_eq!(find_tap_point(&nodes, &text("Inner")), None, "zero size");
        assert_eq!(find_tap_point(&nodes, &text("nothing")), None);
    }

    #[test]
    fn a_clickable_sibling_on_the_ancestors_centre_sends_the_tap_to_the_label() {
        let nodes = parse_dump_tree(ROW).unwrap();
        // The row's centre (500, 500) is on the switch: tapping there would flip it.
        assert_eq!(find_tap_point(&nodes, &text("Row two")), Some((120, 500)));
        // A label that spills out of its control: the control's centre when it is free,
        // else the part of the label inside the control, never the part outside it.
        assert_eq!(find_tap_point(&nodes, &text("Spills")), Some((50, 950)));
        assert_eq!(
            find_tap_point(&nodes, &text("Spills too")),
            Some((950, 1200))
        );
    }

    #[test]
    fn a_broken_parent_chain_ends_the_walk() {
        let mut nodes = parse_dump_tree(ROW).unwrap();
        let title = nodes
            .iter()
            .position(|n| n.element.text == "Title")
            .unwrap();
        nodes[title].parent = Some(title + 3);
        assert_eq!(tap_point(&nodes, title), Some((120, 200)));
        assert_eq!(tap_point(&nodes, nodes.len()), None);
    }
}
