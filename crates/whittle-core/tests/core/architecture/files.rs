//! Which source file uses an item of which other file, for rule 6 of `architecture.rs`
//! (no cycle between files). Simple on purpose, and exact about what it counts:
//!
//! - A crate is read the way the compiler finds it: from its root file, through
//!   `mod x;` to `x.rs`, `x/mod.rs` or a `#[path]`. Each file is parsed as Rust with
//!   `syn`, so a comment or a doc link is never a use, while a `use` tree, a qualified
//!   path in code (`super::x::f()`, `crate::a::B`), a path inside a macro call and a
//!   path in an attribute string (`#[serde(with = "crate::x")]`) are.
//! - Items under `#[cfg(test)]` are left out: test code is built apart, and production
//!   code can never use it back, so it can close no cycle of the product.
//! - A path is made absolute (`crate::…`, `super::…`, `self::…`, or a name the module
//!   declares or imports) and then walked from the crate root, module by module: it
//!   lands in the file of the deepest module it names, or, when it names an item, in
//!   the file whose module defines that item. A name a module only imports (`pub use
//!   live::Live;` in `run/mod.rs`) is followed to where it is defined, so using a
//!   folder's re-export counts as using the file behind it. A name the reader cannot
//!   place (made by a macro, say) counts as its module's file.
//! - `mod x;` is never an edge, and neither is a `pub use` in a folder's front file
//!   (`lib.rs`, `main.rs`, `mod.rs`, or `x.rs` beside its `x/`) of an item defined
//!   inside that folder: a front door showing what lies behind it uses none of it.
//!   A private `use` there is an edge like anywhere else, and so is the front file's
//!   own code naming what it re-exports (a bare name counts when its module imports it).
//! - Paths into other crates (`whittle_core::…`, `std::…`) are not edges: the crates'
//!   own graph is checked by rule 1.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use proc_macro2::{Spacing, TokenStream, TokenTree};
use syn::visit::{self, Visit};
use syn::{Attribute, Item, UseTree, Visibility};

/// `from` → `to` → the first path (as written in `from`) that uses `to`. Files are named
/// relative to the folder given to [`read_crate`] as `base`.
pub(crate) type FileGraph = BTreeMap<String, BTreeMap<String, String>>;

/// Adds the files of the crate whose root file is `root` (its `lib.rs`, `main.rs` or a
/// binary's file) and their uses of one another to `graph`.
pub(crate) fn read_crate(base: &Path, root: &Path, graph: &mut FileGraph) -> Result<(), String> {
    let mut reader = Reader {
        modules: BTreeMap::new(),
        uses: Vec::new(),
    };
    let items = parse(root)?.items;
    let child_dir = root.parent().unwrap_or(base).to_path_buf();
    reader.read_module(Vec::new(), root.to_path_buf(), child_dir, true, &items)?;
    let name = |file: &Path| {
        file.strip_prefix(base)
            .unwrap_or(file)
            .to_string_lossy()
            .replace('\\', "/")
    };
    for module in reader.modules.values() {
        graph.entry(name(&module.file)).or_default();
    }
    for usage in &reader.uses {
        if let [name] = usage.path.as_slice() {
            // A bare name in code: a use only when the module imports it (else a local,
            // a generic parameter, or an item of this very file).
            if !reader.imports(&usage.module, name) {
                continue;
            }
        }
        let Some(to) = reader.target(&usage.module, &usage.path) else {
            continue;
        };
        if to == usage.file {
            continue;
        }
        if let Some(folder) = &usage.front_of {
            // A folder's front file re-exporting what lies inside the folder.
            if to.starts_with(folder) {
                continue;
            }
        }
        graph
            .entry(name(&usage.file))
            .or_default()
            .entry(name(&to))
            .or_insert_with(|| usage.path.join("::"));
    }
    Ok(())
}

/// Every group of files that reach one another along the graph's edges (the strongly
/// connected components with more than one file), each sorted, in a stable order.
pub(crate) fn cycles(graph: &FileGraph) -> Vec<Vec<String>> {
    // Tarjan's algorithm, recursive: a crate's module tree is shallow enough.
    struct State<'g> {
        graph: &'g FileGraph,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'g>(s: &mut State<'g>, node: &'g str) {
        let at = s.index.len();
        s.index.insert(node, at);
        s.low.insert(node, at);
        s.stack.push(node);
        s.on_stack.insert(node);
        for next in s.graph.get(node).into_iter().flat_map(|e| e.keys()) {
            let next = next.as_str();
            if !s.index.contains_key(next) {
                visit(s, next);
                let low = s.low[node].min(s.low[next]);
                s.low.insert(node, low);
            } else if s.on_stack.contains(next) {
                let low = s.low[node].min(s.index[next]);
                s.low.insert(node, low);
            }
        }
        if s.low[node] == s.index[node] {
            let mut group = Vec::new();
            while let Some(top) = s.stack.pop() {
                s.on_stack.remove(top);
                group.push(top.to_owned());
                if top == node {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                s.found.push(group);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for node in graph.keys() {
        if !state.index.contains_key(node.as_str()) {
            visit(&mut state, node);
        }
    }
    state.found.sort();
    state.found
}

/// A group of [`cycles`] as its files and every edge between them, one a line.
pub(crate) fn describe(graph: &FileGraph, group: &[String]) -> String {
    let mut text = format!("cycle among {} files:", group.len());
    for from in group {
        for (to, path) in graph.get(from).into_iter().flatten() {
            if group.contains(to) {
                text.push_str(&format!("\n    {from} → {to} (`{path}`)"));
            }
        }
    }
    text
}

fn parse(path: &Path) -> Result<syn::File, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    syn::parse_file(&text).map_err(|e| format!("cannot parse {}: {e}", path.display()))
}

/// A module as the resolver needs it.
struct Module {
    file: PathBuf,
    children: BTreeSet<String>,
    /// Names of the items it defines (types, functions, constants, traits, macros).
    defines: BTreeSet<String>,
    /// Names it imports, each with the path as written.
    imports: BTreeMap<String, Vec<String>>,
    /// `use x::*`: the paths as written.
    globs: Vec<Vec<String>>,
}

/// One path written in a file.
struct Usage {
    file: PathBuf,
    /// The module the path is written in (its inline modules included).
    module: Vec<String>,
    path: Vec<String>,
    /// A `pub use` in a folder's front file: that folder.
    front_of: Option<PathBuf>,
}

struct Reader {
    modules: BTreeMap<Vec<String>, Module>,
    uses: Vec<Usage>,
}

/// How many re-exports the resolver follows before it gives up on a name.
const MAX_HOPS: usize = 16;

impl Reader {
    /// Reads one module's items: `file` holds them, `child_dir` is where its `mod x;`
    /// finds `x.rs`, `own_file` says the items are the whole file (not an inline module).
    fn read_module(
        &mut self,
        path: Vec<String>,
        file: PathBuf,
        child_dir: PathBuf,
        own_file: bool,
        items: &[Item],
    ) -> Result<(), String> {
        let items: Vec<&Item> = items.iter().filter(|i| !test_only(attrs(i))).collect();
        // A front file: it declares modules that live in files of their own.
        let front_of = (own_file
            && items
                .iter()
                .any(|i| matches!(i, Item::Mod(m) if m.content.is_none())))
        .then(|| child_dir.clone());
        let mut module = Module {
            file: file.clone(),
            children: BTreeSet::new(),
            defines: BTreeSet::new(),
            imports: BTreeMap::new(),
            globs: Vec::new(),
        };
        let mut children = Vec::new();
        for item in &items {
            match item {
                Item::Mod(m) => {
                    module.children.insert(m.ident.to_string());
                    children.push(m);
                }
                Item::Use(u) => {
                    let mut leaves = Vec::new();
                    flatten(&u.tree, &mut Vec::new(), &mut leaves);
                    let reexport = !matches!(u.vis, Visibility::Inherited);
                    for (name, written) in leaves {
                        match name {
                            Some(name) if name != "_" => {
                                module.imports.insert(name, written.clone());
                            }
                            Some(_) => {}
                            None => module.globs.push(written.clone()),
                        }
                        self.uses.push(Usage {
                            file: file.clone(),
                            module: path.clone(),
                            path: written,
                            front_of: front_of.clone().filter(|_| reexport),
                        });
                    }
                }
                other => {
                    if let Some(name) = defined_name(other) {
                        module.defines.insert(name);
                    }
                    let mut paths = Paths { found: Vec::new() };
                    paths.visit_item(other);
                    self.uses
                        .extend(paths.found.into_iter().map(|written| Usage {
                            file: file.clone(),
                            module: path.clone(),
                            path: written,
                            front_of: None,
                        }));
                }
            }
        }
        self.modules.insert(path.clone(), module);
        for m in children {
            let name = m.ident.to_string();
            let child_path = [path.as_slice(), std::slice::from_ref(&name)].concat();
            match &m.content {
                Some((_, items)) => {
                    let dir = child_dir.join(&name);
                    self.read_module(child_path, file.clone(), dir, false, items)?;
                }
                None => {
                    let (child_file, dir) = module_file(&file, &child_dir, &name, &m.attrs)
                        .ok_or_else(|| {
                            format!("no file for `mod {name};` in {}", file.display())
                        })?;
                    let items = parse(&child_file)?.items;
                    self.read_module(child_path, child_file, dir, true, &items)?;
                }
            }
        }
        Ok(())
    }

    /// `written` (a path in `module`) from the crate root, or `None` when it leads out of
    /// the crate.
    fn absolute(&self, module: &[String], written: &[String]) -> Option<Vec<String>> {
        let (first, rest) = written.split_first()?;
        match first.as_str() {
            "crate" => Some(rest.to_vec()),
            "self" => Some([module, rest].concat()),
            "super" => {
                let ups = written.iter().take_while(|s| *s == "super").count();
                let kept = module.len().checked_sub(ups)?;
                Some([&module[..kept], &written[ups..]].concat())
            }
            name if self.knows(module, name) => Some([module, written].concat()),
            // Another crate, a local name, a generic parameter, `Self`.
            _ => None,
        }
    }

    /// Whether `module` imports `name` with a `use` of its own.
    fn imports(&self, module: &[String], name: &str) -> bool {
        self.modules
            .get(module)
            .is_some_and(|m| m.imports.contains_key(name))
    }

    /// Whether `name` is a module, an item or an import of `module` (not through globs).
    fn knows(&self, module: &[String], name: &str) -> bool {
        self.modules.get(module).is_some_and(|m| {
            m.children.contains(name) || m.defines.contains(name) || m.imports.contains_key(name)
        })
    }

    /// The file that `written` (a path in `module`) lands in, or `None` outside the crate.
    fn target(&self, module: &[String], written: &[String]) -> Option<PathBuf> {
        let absolute = self.absolute(module, written)?;
        self.locate(&absolute, 0)
    }

    /// The file of an absolute path: module by module from the root, following imports
    /// and globs to where a name is defined.
    fn locate(&self, absolute: &[String], hops: usize) -> Option<PathBuf> {
        if hops > MAX_HOPS {
            return None;
        }
        let mut here: Vec<String> = Vec::new();
        for (at, name) in absolute.iter().enumerate() {
            let module = self.modules.get(&here)?;
            if module.children.contains(name) {
                here.push(name.clone());
                continue;
            }
            if module.defines.contains(name) {
                return Some(module.file.clone());
            }
            let rest = &absolute[at + 1..];
            if let Some(imported) = module.imports.get(name) {
                let imported = self.absolute(&here, imported)?;
                return self.locate(&[imported.as_slice(), rest].concat(), hops + 1);
            }
            for glob in &module.globs {
                let Some(glob) = self.absolute(&here, glob) else {
                    continue;
                };
                if self.knows(&glob, name) {
                    return self.locate(&[glob.as_slice(), &absolute[at..]].concat(), hops + 1);
                }
            }
            // A name the reader cannot place (made by a macro): its module's file.
            return Some(module.file.clone());
        }
        self.modules.get(&here).map(|m| m.file.clone())
    }
}

fn attrs(item: &Item) -> &[Attribute] {
    match item {
        Item::Const(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::ExternCrate(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::ForeignMod(i) => &i.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Struct(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::TraitAlias(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Union(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

/// `#[cfg(test)]`, exactly: `cfg(any(test, feature = …))` is built outside tests too.
fn test_only(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|attr| match &attr.meta {
        syn::Meta::List(list) if list.path.is_ident("cfg") => {
            list.tokens.to_string().trim() == "test"
        }
        _ => false,
    })
}

fn defined_name(item: &Item) -> Option<String> {
    let ident = match item {
        Item::Const(i) => &i.ident,
        Item::Enum(i) => &i.ident,
        Item::Fn(i) => &i.sig.ident,
        Item::Macro(i) => i.ident.as_ref()?,
        Item::Static(i) => &i.ident,
        Item::Struct(i) => &i.ident,
        Item::Trait(i) => &i.ident,
        Item::TraitAlias(i) => &i.ident,
        Item::Type(i) => &i.ident,
        Item::Union(i) => &i.ident,
        _ => return None,
    };
    Some(ident.to_string())
}

/// The file of `mod name;` declared in `file`, and the folder its own `mod` items are
/// found in.
fn module_file(
    file: &Path,
    child_dir: &Path,
    name: &str,
    attrs: &[Attribute],
) -> Option<(PathBuf, PathBuf)> {
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
        // A `#[path]` file owns its folder, as a `mod.rs` does.
        let path = file.parent()?.join(relative);
        let dir = path.parent()?.to_path_buf();
        return Some((path, dir));
    }
    [
        child_dir.join(format!("{name}.rs")),
        child_dir.join(name).join("mod.rs"),
    ]
    .into_iter()
    .find(|f| f.is_file())
    .map(|f| (f, child_dir.join(name)))
}

/// The leaves of a use tree: the name each binds (`None` for a glob) and its path.
/// `use a::{self, b as c}` gives `a` → `a`, `c` → `a::b`.
fn flatten(tree: &UseTree, prefix: &mut Vec<String>, out: &mut Vec<(Option<String>, Vec<String>)>) {
    match tree {
        UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            flatten(&p.tree, prefix, out);
            prefix.pop();
        }
        UseTree::Name(n) if n.ident == "self" => {
            out.push((prefix.last().cloned(), prefix.clone()));
        }
        UseTree::Name(n) => {
            let name = n.ident.to_string();
            out.push((Some(name.clone()), [prefix.as_slice(), &[name]].concat()));
        }
        UseTree::Rename(r) => {
            let path = [prefix.as_slice(), &[r.ident.to_string()]].concat();
            out.push((Some(r.rename.to_string()), path));
        }
        UseTree::Glob(_) => out.push((None, prefix.clone())),
        UseTree::Group(g) => {
            for item in &g.items {
                flatten(item, prefix, out);
            }
        }
    }
}

/// The paths written in an item's code: every path the parser sees (a bare name
/// counts only if its module imports it, see [`read_crate`]) and every run of two or
/// more segments in tokens it keeps as tokens (where a bare name is any word).
struct Paths {
    found: Vec<Vec<String>>,
}

impl Paths {
    fn push(&mut self, path: Vec<String>) {
        if path.len() > 1 {
            self.found.push(path);
        }
    }

    /// Every `a::b::c` run of identifiers in tokens that the parser keeps as tokens.
    fn in_tokens(&mut self, tokens: TokenStream) {
        let mut run: Vec<String> = Vec::new();
        let mut joined = false;
        let mut colons = 0;
        for token in tokens {
            match token {
                TokenTree::Ident(ident) if run.is_empty() || joined => {
                    run.push(ident.to_string());
                    joined = false;
                }
                TokenTree::Ident(ident) => {
                    self.push(std::mem::replace(&mut run, vec![ident.to_string()]));
                }
                TokenTree::Punct(p) if p.as_char() == ':' => {
                    colons += 1;
                    if colons == 2 {
                        joined = true;
                        colons = 0;
                    } else if p.spacing() == Spacing::Alone {
                        colons = 0;
                        self.push(std::mem::take(&mut run));
                    }
                }
                // `$crate::x` in a macro's body.
                TokenTree::Punct(p) if p.as_char() == '$' => {
                    self.push(std::mem::take(&mut run));
                }
                TokenTree::Group(group) => {
                    self.push(std::mem::take(&mut run));
                    joined = false;
                    self.in_tokens(group.stream());
                }
                _ => {
                    self.push(std::mem::take(&mut run));
                    joined = false;
                    colons = 0;
                }
            }
        }
        self.push(run);
    }
}

impl<'ast> Visit<'ast> for Paths {
    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let mut leaves = Vec::new();
        flatten(&u.tree, &mut Vec::new(), &mut leaves);
        self.found.extend(leaves.into_iter().map(|(_, path)| path));
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if !segments.is_empty() {
            self.found.push(segments);
        }
        visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.visit_path(&mac.path);
        self.in_tokens(mac.tokens.clone());
    }

    fn visit_attribute(&mut self, attr: &'ast Attribute) {
        match &attr.meta {
            // A doc comment is prose, whatever it links to.
            syn::Meta::NameValue(nv) if nv.path.is_ident("doc") => {}
            syn::Meta::NameValue(nv) => self.visit_expr(&nv.value),
            syn::Meta::List(list) => {
                // `#[serde(with = "crate::x")]`: a path in a string.
                for token in list.tokens.clone() {
                    if let TokenTree::Literal(lit) = &token {
                        let text = lit.to_string();
                        if let Some(inner) =
                            text.strip_prefix('"').and_then(|t| t.strip_suffix('"'))
                        {
                            if let Ok(tokens) = inner.parse::<TokenStream>() {
                                self.in_tokens(tokens);
                            }
                        }
                    }
                }
                self.in_tokens(list.tokens.clone());
            }
            syn::Meta::Path(path) => self.visit_path(path),
        }
    }
}
