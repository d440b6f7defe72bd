//! `uiautomator dump` XML → the ui role's elements (docs/design.md §2), plus what a tap needs of
//! the view tree: which nodes handle a tap themselves, and each node's parent. How a
//! strategy finds an element is `whittle_core::plan::element_match`, shared with the simulator.
use std::collections::HashMap;

use whittle_contract::ui::UiElement;

pub use whittle_core::plan::element_match::find;
use whittle_core::plan::element_match::{ElementFlag, Target};

#[derive(Debug, thiserror::Error)]
pub enum DumpParseError {
    #[error("window dump is not XML: {0}")]
    Xml(#[from] roxmltree::Error),
    #[error("window dump has no <hierarchy> root (found <{0}>)")]
    NoHierarchy(String),
}

/// One `<node>` of a dump with its place in the tree. The tree stays inside this server:
/// the ui role's answer is the flat element list.
#[derive(Debug, Clone, PartialEq)]
pub struct DumpNode {
    pub element: UiElement,
    /// `clickable="true"`: the view handles a tap itself rather than passing it up.
    pub clickable: bool,
    /// Index of the enclosing `<node>` in the same list; `None` at the top.
    pub parent: Option<usize>,
}

/// A dump node is matched as the element it reports.
impl Target for DumpNode {
    fn resource_id(&self) -> &str {
        self.element.resource_id()
    }
    fn text(&self) -> &str {
        self.element.text()
    }
    fn label(&self) -> &str {
        self.element.label()
    }
    fn bounds(&self) -> [i32; 4] {
        self.element.bounds
    }
    fn visible(&self) -> bool {
        self.element.visible
    }
    fn hint(&self) -> &str {
        self.element.hint()
    }
    fn flag(&self, flag: ElementFlag) -> Option<bool> {
        self.element.flag(flag)
    }
    fn depth(&self) -> Option<u32> {
        self.element.depth
    }
}

/// Every `<node>` in document order, with its `package` and its depth in the tree
/// (masking needs both: whose screen it is, and which views have no children). A node
/// whose bounds cannot be read gets zero bounds and is therefore invisible, rather than
/// failing the whole screen.
pub fn parse_dump(xml: &str) -> Result<Vec<UiElement>, DumpParseError> {
    Ok(parse_dump_tree(xml)?
        .into_iter()
        .map(|n| n.element)
        .collect())
}

/// As [`parse_dump`], keeping each node's `clickable` flag and parent. Parents come
/// before their children (document order), so a parent index is always smaller.
pub fn parse_dump_tree(xml: &str) -> Result<Vec<DumpNode>, DumpParseError> {
    let doc = roxmltree::Document::parse(xml)?;
    let root = doc.root_element();
    if root.tag_name().name() != "hierarchy" {
        return Err(DumpParseError::NoHierarchy(
            root.tag_name().name().to_string(),
        ));
    }
    let is_node = |n: &roxmltree::Node| n.is_element() && n.tag_name().name() == "node";
    let mut index_of = HashMap::new();
    let mut nodes = Vec::new();
    for n in root.descendants().filter(is_node) {
        // Document order visits a parent before its children, so the parent's index (and
        // depth) is already known: a lookup, not a walk up the tree, which would be
        // quadratic on a deeply nested dump.
        let parent = n
            .parent()
            .filter(is_node)
            .and_then(|p| index_of.get(&p.id()).copied());
        let depth = parent
            .and_then(|p: usize| nodes.get(p))
            .and_then(|p: &DumpNode| p.element.depth)
            .map_or(0, |d: u32| d.saturating_add(1));
        index_of.insert(n.id(), nodes.len());
        nodes.push(DumpNode {
            element: element(&n, depth),
            clickable: n.attribute("clickable") == Some("true"),
            parent,
        });
    }
    Ok(nodes)
}

fn element(n: &roxmltree::Node, depth: u32) -> UiElement {
    let attr = |name: &str| n.attribute(name).unwrap_or("").to_string();
    let flag = |name: &str| n.attribute(name) == Some("true");
    // A flag the dump does not carry is not known (Maestro's selectors then keep nothing).
    let known = |name: &str| n.attribute(name).map(|v| v == "true");
    let bounds = n
        .attribute("bounds")
        .and_then(parse_bounds)
        .unwrap_or([0; 4]);
    // Older dumps list only what is shown; newer ones (and Appium's) may say so
    // explicitly with `displayed` / `visible-to-user`.
    let displayed = n.attribute("displayed") != Some("false")
        && n.attribute("visible-to-user") != Some("false");
    UiElement {
        resource_id: attr("resource-id"),
        text: attr("text"),
        content_desc: attr("content-desc"),
        class: attr("class"),
        bounds,
        password: flag("password"),
        focused: flag("focused"),
        // Android 8+ dumps carry a field's `hint`; Maestro's own dumper calls it `hintText`.
        hint: n
            .attribute("hint")
            .or_else(|| n.attribute("hintText"))
            .unwrap_or("")
            .to_string(),
        clickable: known("clickable"),
        enabled: known("enabled"),
        checked: known("checked"),
        selected: known("selected"),
        visible: displayed && bounds[2] > bounds[0] && bounds[3] > bounds[1],
        package: n
            .attribute("package")
            .filter(|p| !p.is_empty())
            .map(str::to_string),
        depth: Some(depth),
    }
}

/// `"[l,t][r,b]"` → `[l, t, r, b]`.
pub fn parse_bounds(s: &str) -> Option<[i32; 4]> {
    let inner = s.trim().strip_prefix('[')?.strip_suffix(']')?;
    let (a, b) = inner.split_once("][")?;
    let pair = |p: &str| -> Option<(i32, i32)> {
        let (x, y) = p.split_once(',')?;
        Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
    };
    let (l, t) = pair(a)?;
    let (r, bt) = pair(b)?;
    Some([l, t, r, bt])
}

/// Where a tap lands: the centre of the bounds. Computed in i64: bounds come from the
/// device, and `[-2000000000,0][2000000000,10]` would overflow `r - l` in i32.
pub fn centre(e: &UiElement) -> (i32, i32) {
    bounds_centre(e.bounds)
}

/// The centre of `[l, t, r, b]`, as [`centre`].
pub fn bounds_centre([l, t, r, b]: [i32; 4]) -> (i32, i32) {
    // The midpoint of two i32 values is itself within i32, so the cast cannot truncate.
    let mid = |a: i32, b: i32| ((i64::from(a) + i64::from(b)) / 2) as i32;
    (mid(l, r), mid(t, b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use whittle_contract::ui::{By, Strategy};

    const SMALL: &str = r#"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" content-desc="" focused="false" password="false" bounds="[0,0][1080,1920]"><node index="0" text="Sign in" resource-id="com.x:id/title" class="android.widget.TextView" content-desc="" password="false" focused="false" bounds="[40,100][1040,200]"/><node index="1" text="••••" resource-id="com.x:id/pin" class="android.widget.EditText" content-desc="PIN" password="true" focused="true" bounds="[40,300][1040,420]"/><node index="2" text="Sign in" resource-id="com.x:id/go" class="android.widget.Button" content-desc="" password="false" focused="false" bounds="[40,500][1040,620]" displayed="false"/><node index="3" text="Go" resource-id="com.x:id/go2" class="android.widget.Button" content-desc="go" bounds="[41,700][1040,821]"/><node index="4" text="bad" bounds="[1,2]"/></node></hierarchy>"#;

    fn by(by: By, value: &str) -> Strategy {
        Strategy::new(by, value)
    }

    #[test]
    fn attributes_flags_and_visibility_are_read() {
        let els = parse_dump(SMALL).unwrap();
        assert_eq!(els.len(), 6);
        assert_eq!(els[0].bounds, [0, 0, 1080, 1920]);
        assert_eq!(els[2].resource_id, "com.x:id/pin");
        assert!(els[2].password && els[2].focused && els[2].visible);
        assert_eq!(els[2].content_desc, "PIN");
        assert_eq!(els[2].text, "••••");
        assert!(!els[1].password && !els[1].focused);
        assert!(!els[3].visible, "displayed=false is hidden");
        assert!(
            !els[5].visible && els[5].bounds == [0; 4],
            "unreadable bounds"
        );
    }

    #[test]
    fn package_and_depth_follow_the_xml_tree() {
        let els = parse_dump(SMALL).unwrap();
        let depths: Vec<_> = els.iter().map(|e| e.depth).collect();
        assert_eq!(depths, [0, 1, 1, 1, 1, 1].map(Some));
        assert!(
            els.iter().all(|e| e.package.is_none()),
            "SMALL has no package"
        );
        let nested = r#"<hierarchy><node package="a" bounds="[0,0][9,9]"><node package="a" bounds="[0,0][5,5]"><node package="" bounds="[1,1][2,2]"/></node><node package="b" bounds="[5,5][9,9]"/></node><node package="c" bounds="[0,0][1,1]"/></hierarchy>"#;
        let els = parse_dump(nested).unwrap();
        let got: Vec<_> = els
            .iter()
            .map(|e| (e.depth, e.package.as_deref()))
            .collect();
        assert_eq!(
            got,
            [
                (Some(0), Some("a")),
                (Some(1), Some("a")),
                (Some(2), None),
                (Some(1), Some("b")),
                (Some(0), Some("c")),
            ]
        );
    }

    /// Real dumps (tests/fixtures/SOURCES.md): every node names its app, and depths
    /// match the XML nesting (a React Native screen 20 levels deep).
    #[test]
    fn real_dumps_name_the_app_of_every_node() {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/uiautomator/"
        );
        for (file, package, nodes, deepest) in [
            (
                "window_dump_04_react_native_weather_drawing_order_hint_attrs.xml",
                "uk.co.openweather",
                110,
                20,
            ),
            (
                "window_dump_02_pixel_launcher_home_screen.xml",
                "com.google.android.apps.nexuslauncher",
                25,
                13,
            ),
        ] {
            let xml = std::fs::read_to_string(format!("{dir}{file}")).unwrap();
            let els = parse_dump(&xml).unwrap();
            assert_eq!(els.len(), nodes, "{file}");
            assert!(
                els.iter().all(|e| e.package.as_deref() == Some(package)),
                "{file}"
            );
            assert_eq!(
                els.iter().filter_map(|e| e.depth).max(),
                Some(deepest),
                "{file}"
            );
            assert_eq!(els[0].depth, Some(0));
        }
    }

    #[test]
    fn find_skips_hidden_elements_and_tries_strategies_in_order() {
        let els = parse_dump(SMALL).unwrap();
        let hit = find(&els, &[by(By::Text, "Sign in")]).unwrap();
        assert_eq!(hit.resource_id, "com.x:id/title");
        assert!(find(&els, &[by(By::Identifier, "com.x:id/go")]).is_none());
        let hit = find(&els, &[by(By::Identifier, "nope"), by(By::Label, "go")]).unwrap();
        assert_eq!(centre(hit), (540, 760));
        assert!(find(&els, &[by(By::Text, "")]).is_none());
    }

    #[test]
    fn the_tree_keeps_parents_and_clickable_flags() {
        let xml = r#"<hierarchy rotation="0"><node text="" clickable="true" bounds="[0,0][100,100]"><node text="A" bounds="[0,0][50,50]"><node text="B" clickable="false" bounds="[0,0][10,10]"/></node><node text="C" clickable="true" bounds="[50,50][100,100]"/></node><node text="D" bounds="[0,100][100,200]"/></hierarchy>"#;
        let nodes = parse_dump_tree(xml).unwrap();
        let shape: Vec<_> = nodes
            .iter()
            .map(|n| (n.element.text.as_str(), n.clickable, n.parent))
            .collect();
        assert_eq!(
            shape,
            [
                ("", true, None),
                ("A", false, Some(0)),
                ("B", false, Some(1)),
                ("C", true, Some(0)),
                ("D", false, None),
            ]
        );
        assert_eq!(
            parse_dump(xml).unwrap(),
            nodes.into_iter().map(|n| n.element).collect::<Vec<_>>()
        );
    }

    #[test]
    fn centre_of_bounds_wider_than_i32_does_not_overflow() {
        let mut e = parse_dump(SMALL).unwrap().remove(1);
        e.bounds = [-2_000_000_000, -5, 2_000_000_000, 2_147_483_647];
        assert_eq!(centre(&e), (0, 1_073_741_821));
        e.bounds = [i32::MIN, i32::MIN, i32::MAX, i32::MAX];
        assert_eq!(centre(&e), (0, 0));
        e.bounds = [41, 700, 1040, 821];
        assert_eq!(centre(&e), (540, 760), "the usual case is unchanged");
    }

    #[test]
    fn bounds_parse_or_refuse() {
        assert_eq!(parse_bounds("[0,63][1080,210]"), Some([0, 63, 1080, 210]));
        assert_eq!(parse_bounds("[-5,0][10,10]"), Some([-5, 0, 10, 10]));
        for bad in ["", "[0,0]", "[a,0][1,1]", "0,0,1,1", "[0,0][1,1"] {
            assert_eq!(parse_bounds(bad), None, "{bad}");
        }
    }

    #[test]
    fn not_a_dump_is_an_error() {
        assert!(matches!(
            parse_dump("ERROR: null root node"),
            Err(DumpParseError::Xml(_))
        ));
        assert!(matches!(
            parse_dump("<html/>"),
            Err(DumpParseError::NoHierarchy(t)) if t == "html"
        ));
    }
}
