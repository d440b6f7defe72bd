//! Views the hierarchy cannot see into: what they draw (a web page, a video, a GL or
//! Flutter surface, a game) is pixels with no nodes, so nothing tells the masker where
//! private data sits inside them. They are masked whole.

use whittle_contract::ui::{Hierarchy, UiElement};

use super::MaskRect;

/// Class names (the part after the last `.`) that end like this draw content the
/// accessibility tree does not describe: `WebView` (and wrappers such as `RNCWebView`),
/// `SurfaceView`/`GLSurfaceView`, `TextureView`, `VideoView`.
const OPAQUE_SUFFIXES: &[&str] = &["WebView", "SurfaceView", "TextureView", "VideoView"];
/// Class names containing this are engine canvases: `FlutterView`, `FlutterSurfaceView`,
/// `FlutterTextureView`, `FlutterImageView`; Unity's `UnityPlayer`.
const OPAQUE_INFIXES: &[&str] = &["Flutter", "UnityPlayer"];
/// A visible view without visible children that covers at least this share of the
/// screen is treated as a canvas (how Flutter without semantics, game engines and
/// custom-drawn views appear in a dump). A third: large enough to spare ordinary
/// widgets (the demo's product picture is 31 %), small enough for an embedded canvas.
const LARGE_SHARE: f64 = 1.0 / 3.0;

/// A mask over each view the hierarchy cannot see into. `screen_area` is the area of
/// the hierarchy's frame in screen pixels.
pub(crate) fn opaque_masks(h: &Hierarchy, screen_area: f64) -> Vec<MaskRect> {
    opaque_views(h, screen_area)
        .into_iter()
        .filter_map(|(i, reason)| MaskRect::from_bounds(h.elements[i].bounds, reason))
        .collect()
}

/// The index of each opaque view, with why it is opaque.
fn opaque_views(h: &Hierarchy, screen_area: f64) -> Vec<(usize, &'static str)> {
    let tree = Tree::of(&h.elements);
    h.elements
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            if is_opaque_class(&e.class) {
                Some((i, CLASS_REASON))
            } else if e.visible
                && area(e.bounds) >= LARGE_SHARE * screen_area
                && !tree.has_visible_descendant(i)
            {
                Some((i, LARGE_REASON))
            } else {
                None
            }
        })
        .collect()
}

const CLASS_REASON: &str = "view the hierarchy cannot see into";
const LARGE_REASON: &str = "large view without children";

fn is_opaque_class(class: &str) -> bool {
    let simple = class.rsplit('.').next().unwrap_or(class);
    OPAQUE_SUFFIXES.iter().any(|s| simple.ends_with(s))
        || OPAQUE_INFIXES.iter().any(|s| simple.contains(s))
}

fn area(b: [i32; 4]) -> f64 {
    let side = |lo: i32, hi: i32| (f64::from(hi) - f64::from(lo)).max(0.0);
    side(b[0], b[2]) * side(b[1], b[3])
}

fn shown(e: &UiElement) -> bool {
    e.visible && e.bounds[2] > e.bounds[0] && e.bounds[3] > e.bounds[1]
}

/// Which nodes are inside which: from the depths when every node has one (the dump's
/// own tree), else from bounds. By bounds, a node is inside another when its box lies
/// within the other's; of two nodes with the same box the later one (in document order)
/// is the inner one, as a child follows its parent, and only a node of the same package
/// (window) counts. Only visible nodes count as children:
/// a zero-size semantics node inside a canvas describes none of its pixels.
enum Tree<'a> {
    Depths(&'a [UiElement], Vec<u32>),
    Bounds(&'a [UiElement]),
}

impl<'a> Tree<'a> {
    fn of(elements: &'a [UiElement]) -> Tree<'a> {
        match elements
            .iter()
            .map(|e| e.depth)
            .collect::<Option<Vec<u32>>>()
        {
            Some(depths) if !depths.is_empty() => Tree::Depths(elements, depths),
            _ => Tree::Bounds(elements),
        }
    }

    fn has_visible_descendant(&self, i: usize) -> bool {
        match self {
            Tree::Depths(elements, depths) => {
                let own = depths[i];
                elements
                    .iter()
                    .zip(depths)
                    .skip(i + 1)
                    .take_while(|(_, d)| **d > own)
                    .any(|(e, _)| shown(e))
            }
            Tree::Bounds(elements) => {
                let outer = elements[i].bounds;
                elements.iter().enumerate().any(|(j, e)| {
                    let b = e.bounds;
                    let within = b[0] >= outer[0]
                        && b[1] >= outer[1]
                        && b[2] <= outer[2]
                        && b[3] <= outer[3];
                    // A node of another window (a keyboard, a notification) over a
                    // canvas describes none of the canvas's pixels.
                    let same_window = e.package == elements[i].package;
                    j != i && shown(e) && within && same_window && (b != outer || j > i)
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(class: &str, bounds: [i32; 4], depth: Option<u32>) -> UiElement {
        UiElement {
            class: class.into(),
            bounds,
            depth,
            ..UiElement::default()
        }
    }

    fn reasons(elements: Vec<UiElement>) -> Vec<(usize, &'static str)> {
        opaque_views(&Hierarchy { elements }, 1000.0 * 2000.0)
            .into_iter()
            .map(|(i, r)| (i, if r == LARGE_REASON { "large" } else { "class" }))
            .collect()
    }

    #[test]
    fn web_surface_texture_and_flutter_views_are_opaque_at_any_size() {
        for class in [
            "android.webkit.WebView",
            "com.reactnativecommunity.webview.RNCWebView",
            "android.view.SurfaceView",
            "android.opengl.GLSurfaceView",
            "android.view.TextureView",
            "io.flutter.embedding.android.FlutterView",
            "io.flutter.embedding.android.FlutterSurfaceView",
            "com.unity3d.player.UnityPlayer",
        ] {
            let got = reasons(vec![node(class, [10, 10, 50, 50], Some(0))]);
            assert_eq!(got, vec![(0, "class")], "{class}");
        }
        for class in ["android.widget.TextView", "android.widget.Button", "View"] {
            assert!(reasons(vec![node(class, [10, 10, 50, 50], Some(0))]).is_empty());
        }
    }

    #[test]
    fn a_large_childless_view_is_masked_by_depth_or_by_bounds() {
        // A game: a FrameLayout holding one full-screen View with no children.
        let by_depth = vec![
            node("android.widget.FrameLayout", [0, 0, 1000, 2000], Some(0)),
            node("android.view.View", [0, 0, 1000, 2000], Some(1)),
        ];
        assert_eq!(reasons(by_depth.clone()), vec![(1, "large")]);
        let by_bounds: Vec<_> = by_depth
            .into_iter()
            .map(|mut e| {
                e.depth = None;
                e
            })
            .collect();
        assert_eq!(reasons(by_bounds), vec![(1, "large")]);
        // A large layout with a visible child is described by that child, not opaque;
        // an invisible or zero-size child does not count.
        let described = vec![
            node("android.widget.LinearLayout", [0, 0, 1000, 2000], Some(0)),
            node("android.widget.TextView", [0, 0, 100, 100], Some(1)),
        ];
        assert!(reasons(described).is_empty());
        let mut hidden_child = node("android.view.View", [0, 0, 0, 0], Some(1));
        hidden_child.visible = false;
        let canvas = vec![
            node("android.view.View", [0, 0, 1000, 1000], Some(0)),
            hidden_child,
        ];
        assert_eq!(reasons(canvas), vec![(0, "large")]);
        // Small childless views are ordinary widgets.
        assert!(reasons(vec![node(
            "android.widget.ImageView",
            [0, 0, 500, 600],
            Some(0)
        )])
        .is_empty());
    }
}
