//! The module reader on made-up crates: each form of import is seen, and nothing that
//! only looks like one is.

use std::path::Path;

use super::graph::{describe, find_cycle, layer_violations, read_graph, Graph};

/// A crate of `files` (path under `src/`, text), with `lib.rs` declaring `a`, `b`, `c`.
fn graph_of(files: &[(&str, &str)]) -> Graph {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    write(&src, "lib.rs", "pub mod a;\npub mod b;\nmod c;\n");
    for name in ["a.rs", "b.rs", "c.rs"] {
        write(&src, name, "");
    }
    for (path, text) in files {
        write(&src, path, text);
    }
    read_graph(&src).unwrap()
}

fn write(src: &Path, path: &str, text: &str) {
    let file = src.join(path);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(file, text).unwrap();
}

fn edges(graph: &Graph) -> Vec<(String, String)> {
    graph
        .iter()
        .flat_map(|(from, to)| to.keys().map(move |to| (from.clone(), to.clone())))
        .collect()
}

fn edge(from: &str, to: &str) -> (String, String) {
    (from.to_owned(), to.to_owned())
}

#[test]
fn plain_and_grouped_uses_are_edges_and_make_a_named_cycle() {
    let graph = graph_of(&[
        ("a.rs", "use crate::b::Thing;\n"),
        ("b.rs", "use crate::{\n    a::{self, Other},\n    c,\n};\n"),
    ]);
    assert_eq!(
        edges(&graph),
        [edge("a", "b"), edge("b", "a"), edge("b", "c")]
    );
    let cycle = find_cycle(&graph).unwrap();
    assert_eq!(cycle, ["a", "b", "a"]);
    assert_eq!(describe(&graph, &cycle), "a → b (a.rs) → a (b.rs)");
}

#[test]
fn climbing_to_the_root_with_super_is_an_edge_from_any_depth() {
    let graph = graph_of(&[
        ("a.rs", "mod inner;\n"),
        // `a::inner`: two `super`s reach the root.
        ("a/inner.rs", "fn f() { super::super::b::run(); }\n"),
        // An inline module is one level deeper than its file.
        ("c.rs", "#[cfg(test)]\nmod tests {\n    use super::super::a::Thing;\n    use super::helper;\n}\n"),
    ]);
    assert_eq!(edges(&graph), [edge("a", "b"), edge("c", "a")]);
    assert!(find_cycle(&graph).is_none());
}

#[test]
fn nested_folders_and_path_attributes_are_followed() {
    let graph = graph_of(&[
        ("a.rs", "#[path = \"a_tests.rs\"]\nmod tests;\n"),
        ("a_tests.rs", "use super::super::c::Thing;\n"),
        ("b.rs", "mod deep;\n"),
        ("b/deep/mod.rs", "mod deeper;\n"),
        ("b/deep/deeper.rs", "type T = crate::a::Thing;\n"),
    ]);
    assert_eq!(edges(&graph), [edge("a", "c"), edge("b", "a")]);
}

#[test]
fn macros_and_attribute_strings_are_read_comments_and_docs_are_not() {
    let graph = graph_of(&[
        (
            "a.rs",
            "// crate::b::Thing\n/* use crate::b; */\n/// See [`crate::b::Thing`].\n\
             fn f() { println!(\"{}\", crate::c::NAME); }\n",
        ),
        (
            "b.rs",
            "#[derive(serde::Serialize)]\nstruct S {\n    \
             #[serde(serialize_with = \"crate::c::write\")]\n    x: u32,\n}\n\
             const NOTE: &str = \"crate::a::Thing\";\n",
        ),
    ]);
    // A string in code is data, not a path: only attribute strings count.
    assert_eq!(edges(&graph), [edge("a", "c"), edge("b", "c")]);
}

#[test]
fn own_paths_relative_names_and_other_crates_are_not_edges() {
    let graph = graph_of(&[
        (
            "a.rs",
            "mod x;\nuse self::x::Y;\nuse std::fmt;\nuse b_crate::Thing;\nfn f() { crate::a::g(); }\n",
        ),
        ("a/x.rs", "pub struct Y;\nfn g() { super::super::a::h(); }\n"),
    ]);
    assert!(edges(&graph).is_empty());
}

/// A module the crate declares but whose file is missing is an error, not a module
/// without imports.
#[test]
fn a_declared_module_without_a_file_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "lib.rs", "mod a;\n");
    write(dir.path(), "a.rs", "mod gone;\n");
    let error = read_graph(dir.path()).unwrap_err();
    assert!(error.contains("mod gone;"), "{error}");
}

#[test]
fn layers_catch_an_upward_import_an_unplaced_module_and_a_stale_name() {
    let graph = graph_of(&[
        ("a.rs", "use crate::b::T;\n"),
        ("b.rs", "use crate::c::T;\n"),
    ]);
    assert!(layer_violations(&graph, &[&["c"], &["b"], &["a"]]).is_empty());
    // Same layer is not lower.
    assert_eq!(
        layer_violations(&graph, &[&["c"], &["a", "b"]]),
        ["`a` imports `b` (a.rs), which is not in a lower layer"]
    );
    assert_eq!(
        layer_violations(&graph, &[&["b"], &["c"], &["a", "gone"]]),
        [
            "`b` imports `c` (b.rs), which is not in a lower layer",
            "layer names `gone`, which is no module",
        ]
    );
    assert_eq!(
        layer_violations(&graph, &[&["c"], &["b"]]),
        ["module `a` has no layer"]
    );
}
