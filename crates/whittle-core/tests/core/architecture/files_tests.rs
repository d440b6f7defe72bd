//! The file reader on made-up crates: each form of use is an edge to the file that
//! defines the item, and nothing that only looks like a use is one.

use super::files::{cycles, describe, read_crate, FileGraph};

/// The graph of a crate made of `files` (path under `src/`, text); `lib.rs` is the root.
fn graph_of(files: &[(&str, &str)]) -> FileGraph {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    for (path, text) in files {
        let file = src.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    let mut graph = FileGraph::new();
    read_crate(&src, &src.join("lib.rs"), &mut graph).unwrap();
    graph
}

fn edges(graph: &FileGraph) -> Vec<(&str, &str)> {
    graph
        .iter()
        .flat_map(|(from, to)| to.keys().map(move |to| (from.as_str(), to.as_str())))
        .collect()
}

#[test]
fn a_use_through_a_re_export_reaches_the_defining_file_and_closes_a_cycle() {
    let graph = graph_of(&[
        ("lib.rs", "mod a;\nmod b;\npub use a::Thing;\n"),
        (
            "a.rs",
            "pub struct Thing;\npub fn f() {\n    crate::b::g();\n}\n",
        ),
        ("b.rs", "use crate::Thing;\npub fn g() {}\n"),
    ]);
    // The root's `mod` items and its re-export of `a` are no edges.
    assert_eq!(edges(&graph), [("a.rs", "b.rs"), ("b.rs", "a.rs")]);
    let found = cycles(&graph);
    assert_eq!(found, [["a.rs", "b.rs"]]);
    let text = describe(&graph, &found[0]);
    assert!(text.contains("a.rs → b.rs (`crate::b::g`)"), "{text}");
    assert!(text.contains("b.rs → a.rs (`crate::Thing`)"), "{text}");
}

#[test]
fn comments_strings_docs_declarations_and_test_code_are_no_edges() {
    let graph = graph_of(&[
        ("lib.rs", "mod a;\nmod b;\npub use b::g;\n"),
        ("a.rs", "use crate::b::g;\npub fn f() {\n    g();\n}\n"),
        (
            "b.rs",
            "//! Unlike [`crate::a::f`], this one\n\
             /* crate::a::f() */\n\
             pub fn g() {\n    let _ = \"crate::a::f\";\n}\n\
             #[cfg(test)]\nmod tests {\n    use crate::a::f;\n}\n\
             #[cfg(test)]\nfn helper() {\n    crate::a::f();\n}\n",
        ),
    ]);
    assert_eq!(edges(&graph), [("a.rs", "b.rs")]);
    assert!(cycles(&graph).is_empty());
}

#[test]
fn macro_calls_attribute_strings_and_climbing_supers_are_edges() {
    let graph = graph_of(&[
        ("lib.rs", "pub mod a;\npub mod b;\npub mod c;\npub mod d;\n"),
        (
            "a.rs",
            "pub fn f() -> u8 {\n    assert!(crate::b::OK);\n    1\n}\n",
        ),
        ("b.rs", "pub const OK: bool = true;\n"),
        (
            "c.rs",
            "#[derive(serde::Serialize)]\npub struct S {\n    \
             #[serde(serialize_with = \"crate::d::ser\")]\n    x: u8,\n}\n",
        ),
        (
            "d.rs",
            "pub mod inner {\n    use super::super::a::{self};\n}\n",
        ),
    ]);
    assert_eq!(
        edges(&graph),
        [("a.rs", "b.rs"), ("c.rs", "d.rs"), ("d.rs", "a.rs")]
    );
}

#[test]
fn a_folder_whose_front_file_uses_its_children_and_is_used_back_is_a_cycle() {
    // `shared::Parsed` lives in `mod.rs` and the children return it, while `mod.rs`
    // calls them: the pattern a file of its own for `Parsed` breaks.
    let graph = graph_of(&[
        ("lib.rs", "pub mod shared;\n"),
        (
            "shared/mod.rs",
            "mod java;\nmod native;\npub struct Parsed;\n\
             pub fn parse(s: &str) -> Parsed {\n    java::parse(s)\n}\n",
        ),
        (
            "shared/java.rs",
            "pub fn parse(_: &str) -> super::Parsed {\n    super::Parsed\n}\n",
        ),
        ("shared/native.rs", "use super::Parsed;\n"),
    ]);
    assert_eq!(
        cycles(&graph),
        [["shared/java.rs", "shared/mod.rs"]],
        "native.rs only uses mod.rs: no cycle through it"
    );
}

#[test]
fn a_path_lands_in_the_deepest_module_it_names() {
    let graph = graph_of(&[
        ("lib.rs", "mod a;\nmod x;\n"),
        ("a/mod.rs", "pub mod b;\npub mod c;\n"),
        ("a/b.rs", "pub struct Item;\n"),
        ("a/c/mod.rs", "pub struct Other;\n"),
        (
            "x.rs",
            "use crate::a::b::Item;\nuse crate::a::c::Other;\nuse crate::a;\n",
        ),
    ]);
    assert_eq!(
        edges(&graph),
        [
            ("x.rs", "a/b.rs"),
            ("x.rs", "a/c/mod.rs"),
            ("x.rs", "a/mod.rs")
        ]
    );
}

#[test]
fn a_private_use_in_a_front_file_and_a_re_export_from_outside_its_folder_are_edges() {
    let graph = graph_of(&[
        ("lib.rs", "mod a;\nmod z;\n"),
        ("z.rs", "pub struct Z;\n"),
        (
            "a/mod.rs",
            "mod b;\nuse b::helper;\npub use crate::z::Z;\n\
             pub fn f() {\n    helper();\n}\n",
        ),
        ("a/b.rs", "pub fn helper() {}\n"),
    ]);
    assert_eq!(
        edges(&graph),
        [("a/mod.rs", "a/b.rs"), ("a/mod.rs", "z.rs")]
    );
}

#[test]
fn a_front_file_using_in_its_code_a_name_it_re_exports_uses_that_file() {
    let graph = graph_of(&[
        ("lib.rs", "mod a;\n"),
        (
            "a/mod.rs",
            "mod b;\nmod c;\npub use b::helper;\npub use c::Shown;\n\
             pub struct Shared;\npub fn f() {\n    let helper = 1;\n    let _ = helper;\n}\n\
             pub fn g() -> Shared {\n    helper();\n    Shared\n}\n",
        ),
        ("a/b.rs", "pub fn helper() {}\n"),
        (
            "a/c.rs",
            "pub struct Shown;\npub fn make() -> super::Shared {\n    super::Shared\n}\n",
        ),
    ]);
    // `helper()` in `g` uses b.rs; nothing in mod.rs's code names `Shown`.
    assert_eq!(
        edges(&graph),
        [("a/c.rs", "a/mod.rs"), ("a/mod.rs", "a/b.rs")]
    );
}

#[test]
fn the_cycles_of_a_graph_are_its_loops_and_only_those() {
    let mut graph = FileGraph::new();
    for (from, to) in [
        ("a", "b"),
        ("b", "c"),
        ("c", "a"),
        ("c", "d"),
        ("e", "f"),
        ("f", "e"),
    ] {
        graph
            .entry(from.to_owned())
            .or_default()
            .insert(to.to_owned(), String::new());
    }
    assert_eq!(cycles(&graph), [vec!["a", "b", "c"], vec!["e", "f"]]);
}
