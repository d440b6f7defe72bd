use super::*;

#[derive(Debug, Clone, Default)]
struct Node {
    id: &'static str,
    text: &'static str,
    hint: &'static str,
    label: &'static str,
    bounds: [i32; 4],
    depth: Option<u32>,
    clickable: Option<bool>,
    enabled: Option<bool>,
    checked: Option<bool>,
}

impl Target for Node {
    fn resource_id(&self) -> &str {
        self.id
    }
    fn text(&self) -> &str {
        self.text
    }
    fn label(&self) -> &str {
        self.label
    }
    fn bounds(&self) -> [i32; 4] {
        self.bounds
    }
    fn visible(&self) -> bool {
        true
    }
    fn hint(&self) -> &str {
        self.hint
    }
    fn flag(&self, flag: ElementFlag) -> Option<bool> {
        match flag {
            ElementFlag::Clickable => self.clickable,
            ElementFlag::Enabled => self.enabled,
            ElementFlag::Checked => self.checked,
            _ => None,
        }
    }
    fn depth(&self) -> Option<u32> {
        self.depth
    }
}

fn at(top: i32, left: i32) -> [i32; 4] {
    [left, top, left + 100, top + 50]
}

fn find(nodes: &[Node], by: By, value: &str, selector: MaestroSelector) -> Option<usize> {
    let strategy = Strategy {
        by,
        value: value.into(),
        maestro: Some(selector.clone()),
    };
    find_index(nodes, &strategy, &selector)
}

#[test]
fn a_pattern_is_a_case_insensitive_full_match_and_an_invalid_one_is_literal() {
    let p = MaestroPattern::compile("LOG IN.*").unwrap();
    assert!(p.matches("Log in with Google"));
    assert!(p.matches("LOG IN"));
    assert!(!p.matches("Please LOG IN"), "the whole value must match");
    let lines = MaestroPattern::compile("Total.*EUR").unwrap();
    assert!(lines.matches("Total\n12 EUR"), "`.` matches line breaks");
    let literal = MaestroPattern::compile("Price (USD").unwrap();
    assert!(literal.matches("Price (USD"));
    assert!(!literal.matches("Price USD"));
    let plus = MaestroPattern::compile("+ Add").unwrap();
    assert!(plus.matches("+ Add"), "equal to the pattern as written");
    assert!(
        MaestroPattern::compile("Two lines")
            .unwrap()
            .matches("Two\nlines"),
        "a value's line breaks read as spaces"
    );
}

#[test]
fn what_only_java_evaluates_is_refused_not_guessed() {
    for pattern in [
        "(?=.*x)Sign in",
        "(?!Cancel).*",
        "(a)\\1",
        "(?>ab)c",
        "\\QA+B\\E",
    ] {
        assert_eq!(
            MaestroPattern::compile(pattern).err(),
            Some(PatternProblem::JavaOnly),
            "{pattern}"
        );
    }
}

#[test]
fn an_id_matches_whole_or_after_its_last_slash() {
    let p = MaestroPattern::compile(".*menu_delete_selected").unwrap();
    assert!(p.matches_id("com.x:id/menu_delete_selected"));
    let bare = MaestroPattern::compile("btn_go").unwrap();
    assert!(bare.matches_id("com.x:id/btn_go"));
    assert!(!bare.matches_id("com.x:id/btn_gone"));
}

#[test]
fn text_matches_hint_and_accessibility_text_too() {
    let nodes = [
        Node {
            id: "com.x:id/search",
            hint: "Search products",
            bounds: at(0, 0),
            ..Node::default()
        },
        Node {
            label: "Open menu",
            bounds: at(100, 0),
            ..Node::default()
        },
    ];
    let any = MaestroSelector::default();
    assert_eq!(
        find(&nodes, By::Text, "Search products", any.clone()),
        Some(0)
    );
    assert_eq!(find(&nodes, By::Text, "open MENU", any.clone()), Some(1));
    assert_eq!(find(&nodes, By::Text, "Search", any), None);
}

#[test]
fn state_filters_keep_only_what_the_server_reports_as_asked() {
    let nodes = [
        Node {
            text: "Item",
            bounds: at(0, 0),
            enabled: Some(false),
            ..Node::default()
        },
        Node {
            text: "Item",
            bounds: at(100, 0),
            enabled: Some(true),
            checked: Some(true),
            ..Node::default()
        },
        Node {
            text: "Item",
            bounds: at(200, 0),
            ..Node::default()
        },
    ];
    let enabled = MaestroSelector {
        enabled: Some(true),
        ..MaestroSelector::default()
    };
    assert_eq!(find(&nodes, By::Text, "Item", enabled), Some(1));
    let unchecked = MaestroSelector {
        checked: Some(false),
        ..MaestroSelector::default()
    };
    assert_eq!(
        find(&nodes, By::Text, "Item", unchecked),
        None,
        "an element whose flag is not reported is not kept"
    );
}

#[test]
fn index_counts_by_position_and_otherwise_clickable_comes_first() {
    let nodes = [
        Node {
            text: "Row",
            bounds: at(300, 0),
            ..Node::default()
        },
        Node {
            text: "Row",
            bounds: at(100, 50),
            clickable: Some(true),
            ..Node::default()
        },
        Node {
            text: "Row",
            bounds: at(100, 0),
            ..Node::default()
        },
    ];
    let nth = |n| MaestroSelector {
        index: Some(n),
        ..MaestroSelector::default()
    };
    assert_eq!(find(&nodes, By::Text, "Row", nth(0)), Some(2));
    assert_eq!(find(&nodes, By::Text, "Row", nth(1)), Some(1));
    assert_eq!(find(&nodes, By::Text, "Row", nth(2)), Some(0));
    assert_eq!(find(&nodes, By::Text, "Row", nth(3)), None);
    assert_eq!(
        find(&nodes, By::Text, "Row", MaestroSelector::default()),
        Some(1)
    );
}

#[test]
fn a_match_holding_a_deeper_match_gives_way_to_it() {
    let nodes = [
        Node {
            label: "Cart",
            bounds: at(0, 0),
            depth: Some(1),
            clickable: Some(true),
            ..Node::default()
        },
        Node {
            text: "Cart",
            bounds: at(0, 0),
            depth: Some(2),
            ..Node::default()
        },
        Node {
            text: "Other",
            bounds: at(100, 0),
            depth: Some(1),
            ..Node::default()
        },
    ];
    assert_eq!(
        find(&nodes, By::Text, "Cart", MaestroSelector::default()),
        Some(1)
    );
}
