//! Which top-level module of a crate names which other one. The module tree is read the
//! way the compiler finds it (from `lib.rs`, through `mod x;` to `x.rs`, `x/mod.rs` or a
//! `#[path]`), each file parsed as Rust, so a comment or a doc link is never an import
//! while a grouped `use crate::{a, b}`, a `super::super::x` path, a path inside a macro
//! call and a path written in an attribute string (`#[serde(with = "crate::x")]`) are.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::{self, Visit};
use syn::{Attribute, Item, ItemMod, ItemUse, Macro, UseTree};

/// `from` → `to` → the first file (relative to the source folder) where `from` names `to`.
pub type Graph = BTreeMap<String, BTreeMap<String, String>>;

/// Reads the crate whose `lib.rs` is in `src`.
pub fn read_graph(src: &Path) -> Result<Graph, String> {
    let lib = src.join("lib.rs");
    let root = parse(&lib)?;
    let tops: BTreeSet<String> = root
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Mod(m) => Some(m.ident.to_string()),
            _ => None,
        })
        .collect();
    let mut graph: Graph = tops.iter().map(|t| (t.clone(), BTreeMap::new())).collect();
    for item in &root.items {
        if let Item::Mod(m) = item {
            let mut walker = Walker {
                src,
                tops: &tops,
                top: m.ident.to_string(),
                graph: &mut graph,
                module: Vec::new(),
                file: lib.clone(),
                child_dir: src.to_path_buf(),
                error: None,
            };
            walker.visit_item_mod(m);
            if let Some(error) = walker.error {
                return Err(error);
            }
        }
    }
    Ok(graph)
}

/// A cycle of the graph as the modules along it, the first repeated at the end
/// (`["a", "b", "a"]`), or `None` when there is none.
pub fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(
        graph: &Graph,
        node: &str,
        done: &mut BTreeSet<String>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_owned());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_owned());
        for next in graph.get(node).into_iter().flat_map(|edges| edges.keys()) {
            if let Some(cycle) = visit(graph, next, done, path) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(graph, node, &mut done, &mut Vec::new()))
}

/// `a → b (a/x.rs) → a (b/y.rs)`: a cycle with one place that makes each edge.
pub fn describe(graph: &Graph, cycle: &[String]) -> String {
    let mut text = cycle[0].clone();
    for pair in cycle.windows(2) {
        let at = graph
            .get(&pair[0])
            .and_then(|edges| edges.get(&pair[1]))
            .map_or("?", String::as_str);
        text.push_str(&format!(" → {} ({at})", pair[1]));
    }
    text
}

fn parse(path: &Path) -> Result<syn::File, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    syn::parse_file(&text).map_err(|e| format!("cannot parse {}: {e}", path.display()))
}

struct Walker<'a> {
    src: &'a Path,
    tops: &'a BTreeSet<String>,
    /// The top-level module being read.
    top: String,
    graph: &'a mut Graph,
    /// The module being read, from the crate root (`["run", "resume"]`).
    module: Vec<String>,
    file: PathBuf,
    /// Where `mod x;` of the module being read finds `x.rs` or `x/mod.rs`.
    child_dir: PathBuf,
    error: Option<String>,
}

impl Walker<'_> {
    /// Records an edge when `segments` (a path as written) lead to another top-level
    /// module: `crate::x…`, or enough `super`s to climb to the root and then `x`.
    fn reference(&mut self, segments: &[String]) {
        let target = match segments.first().map(String::as_str) {
            Some("crate") => segments.get(1),
            Some("super") => {
                let ups = segments.iter().take_while(|s| *s == "super").count();
                match self.module.len().checked_sub(ups) {
                    Some(0) => segments.get(ups),
                    // Still inside a top-level module: its own.
                    Some(_) | None => None,
                }
            }
            // `self::…`, a local name or another crate: never another top-level module.
            _ => None,
        };
        if let Some(target) = target.filter(|t| self.tops.contains(*t) && **t != self.top) {
            let at = self
                .file
                .strip_prefix(self.src)
                .unwrap_or(&self.file)
                .display()
                .to_string();
            self.graph
                .entry(self.top.clone())
                .or_default()
                .entry(target.clone())
                .or_insert(at);
        }
    }

    /// Paths inside tokens the parser keeps as tokens (macro calls, attribute
    /// arguments, string literals in attributes): every `crate::x…` and `super::…` chain.
    fn references_in(&mut self, tokens: &str) {
        for chain in chains(tokens) {
            self.reference(&chain);
        }
    }

    fn enter(&mut self, name: &str, file: PathBuf, child_dir: PathBuf, items: &[Item]) {
        let saved = (
            std::mem::replace(&mut self.file, file),
            std::mem::replace(&mut self.child_dir, child_dir),
        );
        self.module.push(name.to_owned());
        for item in items {
            self.visit_item(item);
        }
        self.module.pop();
        (self.file, self.child_dir) = saved;
    }

    /// The file of `mod name;` and the folder its own `mod` items are found in.
    fn module_file(&self, name: &str, attrs: &[Attribute]) -> Option<(PathBuf, PathBuf)> {
        let explicit = attrs.iter().find_map(|attr| match &attr.meta {
            syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        });
        if let Some(relative) = explicit {
            let file = self.file.parent()?.join(relative);
            let child_dir = file.with_extension("");
            return Some((file, child_dir));
        }
        let flat = self.child_dir.join(format!("{name}.rs"));
        if flat.is_file() {
            return Some((flat, self.child_dir.join(name)));
        }
        let nested = self.child_dir.join(name).join("mod.rs");
        nested
            .is_file()
            .then(|| (nested, self.child_dir.join(name)))
    }
}

impl<'ast> Visit<'ast> for Walker<'_> {
    fn visit_item_mod(&mut self, m: &'ast ItemMod) {
        for attr in &m.attrs {
            self.visit_attribute(attr);
        }
        let name = m.ident.to_string();
        match &m.content {
            Some((_, items)) => {
                let file = self.file.clone();
                let child_dir = self.child_dir.join(&name);
                self.enter(&name, file, child_dir, items);
            }
            None => {
                let Some((file, child_dir)) = self.module_file(&name, &m.attrs) else {
                    self.error.get_or_insert(format!(
                        "no file for `mod {name};` in {}",
                        self.file.display()
                    ));
                    return;
                };
                match parse(&file) {
                    Ok(parsed) => self.enter(&name, file, child_dir, &parsed.items),
                    Err(error) => {
                        self.error.get_or_insert(error);
                    }
                }
            }
        }
    }

    fn visit_item_use(&mut self, u: &'ast ItemUse) {
        for attr in &u.attrs {
            self.visit_attribute(attr);
        }
        let mut paths = Vec::new();
        flatten(&u.tree, &mut Vec::new(), &mut paths);
        for path in paths {
            self.reference(&path);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.reference(&segments);
        visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast Macro) {
        self.visit_path(&mac.path);
        self.references_in(&mac.tokens.to_string());
    }

    fn visit_attribute(&mut self, attr: &'ast Attribute) {
        match &attr.meta {
            // A doc comment is prose, whatever it links to.
            syn::Meta::NameValue(nv) if nv.path.is_ident("doc") => {}
            syn::Meta::NameValue(nv) => match &nv.value {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) => self.references_in(&s.value()),
                value => self.visit_expr(value),
            },
            syn::Meta::List(list) => {
                self.visit_path(&list.path);
                self.references_in(&list.tokens.to_string());
            }
            syn::Meta::Path(path) => self.visit_path(path),
        }
    }
}

/// The `a::b::c` chains of a token text (`$crate` and string quotes are punctuation,
/// so `"crate::x::f"` and `$crate::x` give `crate x f` and `crate x`).
fn chains(text: &str) -> Vec<Vec<String>> {
    let mut chains = Vec::new();
    let mut current: Vec<String> = Vec::new();
    let mut after_separator = false;
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        let Some(first) = rest.chars().next() else {
            break;
        };
        if let Some(after) = rest.strip_prefix("::") {
            after_separator = true;
            rest = after;
            continue;
        }
        let len = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if len == 0 {
            // Punctuation ends a chain.
            chains.push(std::mem::take(&mut current));
            after_separator = false;
            rest = &rest[first.len_utf8()..];
            continue;
        }
        if !after_separator {
            chains.push(std::mem::take(&mut current));
        }
        current.push(rest[..len].to_owned());
        after_separator = false;
        rest = &rest[len..];
    }
    chains.push(current);
    chains.retain(|chain| !chain.is_empty());
    chains
}

/// Every path a use tree names, as segments (`use crate::{a, b::c}` → `crate a`,
/// `crate b c`).
fn flatten(tree: &UseTree, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match tree {
        UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            flatten(&p.tree, prefix, out);
            prefix.pop();
        }
        UseTree::Name(n) => out.push([prefix.as_slice(), &[n.ident.to_string()]].concat()),
        UseTree::Rename(r) => out.push([prefix.as_slice(), &[r.ident.to_string()]].concat()),
        UseTree::Glob(_) => out.push(prefix.clone()),
        UseTree::Group(g) => {
            for item in &g.items {
                flatten(item, prefix, out);
            }
        }
    }
}

/// Each edge that does not go down `layers` (lowest first: a module may import only
/// modules of a lower layer), each module the layers do not place and each name they
/// place that is not a module.
pub fn layer_violations(graph: &Graph, layers: &[&[&str]]) -> Vec<String> {
    let layer_of = |module: &str| layers.iter().position(|layer| layer.contains(&module));
    let mut violations = Vec::new();
    for (from, edges) in graph {
        let Some(from_layer) = layer_of(from) else {
            violations.push(format!("module `{from}` has no layer"));
            continue;
        };
        for (to, at) in edges {
            match layer_of(to) {
                Some(to_layer) if to_layer < from_layer => {}
                Some(_) => violations.push(format!(
                    "`{from}` imports `{to}` ({at}), which is not in a lower layer"
                )),
                // Reported once, as the module without a layer.
                None => {}
            }
        }
    }
    for name in layers.iter().flat_map(|layer| layer.iter()) {
        if !graph.contains_key(*name) {
            violations.push(format!("layer names `{name}`, which is no module"));
        }
    }
    violations
}
