//! A flow's YAML documents, loaded with their nesting bounded before the tree is built.
//!
//! saphyr's `load_from_str` drives its parser with `Parser::load`, which recurses once
//! per nested list or mapping: a flow of 1,000 nested mappings overflowed the stack of
//! the thread importing it (and aborted `whittle mcp` with every run in it). Here the
//! parser's events are pulled one at a time (its state machine keeps an explicit
//! stack), the nesting is counted, and each event is handed to saphyr's own loader, the
//! one `load_from_str` feeds; past [`MAX_NESTING_DEPTH`] loading stops with the line.
//!
//! An alias stands for a copy of its anchor's node, so it counts as deep as that node
//! is: the tree the loader builds, and everything that later walks it, never nests
//! deeper than the limit however aliases are chained.

use std::collections::HashMap;

use saphyr::{MarkedYaml, ScanError, YamlLoader};
use saphyr_parser::{Event, Parser, Span, SpannedEventReceiver};

use crate::nesting::MAX_NESTING_DEPTH;

/// Why the documents could not be loaded.
#[derive(Debug)]
pub(super) enum LoadFailure {
    /// Not YAML, as saphyr says it.
    Syntax(ScanError),
    /// A list or mapping opens (or an alias stands for one) past the limit on this
    /// 1-based line.
    TooDeep { limit: usize, line: usize },
}

/// Every document of `text`, as `MarkedYaml::load_from_str` would load them, unless
/// they nest deeper than [`MAX_NESTING_DEPTH`].
pub(super) fn load_bounded(text: &str) -> Result<Vec<MarkedYaml<'_>>, LoadFailure> {
    load_within(text, MAX_NESTING_DEPTH)
}

fn load_within(text: &str, limit: usize) -> Result<Vec<MarkedYaml<'_>>, LoadFailure> {
    // The same input type `load_from_str` reads through, so spans and scalars match.
    let mut parser = Parser::new_from_iter(text.chars());
    let mut loader: YamlLoader<MarkedYaml> = YamlLoader::default();
    let mut depth = Depth::new(limit);
    while let Some(event) = parser.next_event() {
        let (event, span) = event.map_err(LoadFailure::Syntax)?;
        // Past a loader's error (a duplicated key) no tree grows any more; the rest is
        // only parsed, so a syntax error further on wins, as it does in `load_from_str`.
        if loader.error().is_none() {
            depth.see(&event, span)?;
            loader.on_event(event, span);
        }
    }
    match loader.error() {
        Some(e) => Err(LoadFailure::Syntax(e.clone())),
        None => Ok(loader.into_documents()),
    }
}

/// One list or mapping not yet closed.
struct Open {
    /// Its own depth: 1 for a document's top node.
    level: usize,
    /// The deepest level reached inside it so far (aliases counted as their anchors).
    deepest: usize,
    anchor: usize,
}

/// The nesting of the events seen so far in the current document.
struct Depth {
    limit: usize,
    open: Vec<Open>,
    /// How many levels each anchor of the current document spans (0 for a scalar).
    /// `Parser::load` forgets a document's anchors when the next one starts, so an
    /// alias to an earlier document's anchor is refused here as it is there.
    anchors: HashMap<usize, Option<usize>>,
}

impl Depth {
    fn new(limit: usize) -> Depth {
        Depth {
            limit,
            open: Vec::new(),
            anchors: HashMap::new(),
        }
    }

    fn see(&mut self, event: &Event, span: Span) -> Result<(), LoadFailure> {
        match event {
            Event::DocumentStart(_) => {
                self.open.clear();
                self.anchors.clear();
            }
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                let level = self.open.len() + 1;
                self.reach(level, span)?;
                if *anchor > 0 {
                    // Known from here on (an alias inside its own node is no copy).
                    self.anchors.insert(*anchor, None);
                }
                self.open.push(Open {
                    level,
                    deepest: level,
                    anchor: *anchor,
                });
            }
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some(closed) = self.open.pop() {
                    if closed.anchor > 0 {
                        let spans = closed.deepest - closed.level + 1;
                        self.anchors.insert(closed.anchor, Some(spans));
                    }
                    if let Some(parent) = self.open.last_mut() {
                        parent.deepest = parent.deepest.max(closed.deepest);
                    }
                }
            }
            Event::Scalar(_, _, anchor, _) if *anchor > 0 => {
                self.anchors.insert(*anchor, Some(0));
            }
            Event::Alias(id) => match self.anchors.get(id) {
                None => {
                    return Err(LoadFailure::Syntax(ScanError::new_str(
                        span.start,
                        "while parsing node, found unknown anchor",
                    )))
                }
                // The loader makes an alias of a node still open a bad value: no depth.
                Some(None) => {}
                Some(Some(spans)) => self.reach(self.open.len() + spans, span)?,
            },
            _ => {}
        }
        Ok(())
    }

    /// Records that the document reaches `level`, or refuses it past the limit.
    fn reach(&mut self, level: usize, span: Span) -> Result<(), LoadFailure> {
        if level > self.limit {
            return Err(LoadFailure::TooDeep {
                limit: self.limit,
                line: span.start.line(),
            });
        }
        if let Some(parent) = self.open.last_mut() {
            parent.deepest = parent.deepest.max(level);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use saphyr::{LoadableYamlNode, YamlData};

    use super::*;

    fn height(node: &MarkedYaml) -> usize {
        match &node.data {
            YamlData::Sequence(items) => 1 + items.iter().map(height).max().unwrap_or(0),
            YamlData::Mapping(map) => 1 + map.values().map(height).max().unwrap_or(0),
            YamlData::Tagged(_, inner) => height(inner),
            _ => 0,
        }
    }

    #[test]
    fn what_it_loads_is_what_saphyr_loads() {
        let texts = [
            "appId: a\n---\n- tapOn: {id: x, below: {text: y}}\n- back\n",
            "a: &x [1, {b: 2}]\nc: *x\nd: !custom [3]\n",
            "- &s plain\n- *s\n- 'quoted'\n- |\n  block\n",
            "{a: 1, a: 2}\n",
            "[1, 2\n",
            "{a: 1, a: 2}\n[1, 2\n",
            "",
        ];
        for text in texts {
            let ours = load_within(text, 64).map_err(|e| match e {
                LoadFailure::Syntax(e) => e,
                LoadFailure::TooDeep { .. } => panic!("{text:?} is not deep"),
            });
            assert_eq!(ours, MarkedYaml::load_from_str(text), "{text:?}");
        }
    }

    #[test]
    fn the_limit_holds_in_block_and_flow_style_with_the_line() {
        let block = |n: usize| {
            (0..n)
                .map(|i| format!("{}a:\n", "  ".repeat(i)))
                .collect::<String>()
                + &"  ".repeat(n)
                + "x\n"
        };
        assert!(load_within(&block(8), 8).is_ok());
        assert!(matches!(
            load_within(&block(9), 8),
            Err(LoadFailure::TooDeep { limit: 8, line: 9 })
        ));
        let flow = |n: usize| format!("x: 1\ny: {}1{}\n", "[".repeat(n), "]".repeat(n));
        assert!(load_within(&flow(7), 8).is_ok());
        assert!(matches!(
            load_within(&flow(8), 8),
            Err(LoadFailure::TooDeep { limit: 8, line: 2 })
        ));
        let dashes = |n: usize| format!("{}x\n", "- ".repeat(n));
        assert!(load_within(&dashes(8), 8).is_ok());
        assert!(matches!(
            load_within(&dashes(9), 8),
            Err(LoadFailure::TooDeep { line: 1, .. })
        ));
    }

    #[test]
    fn an_alias_counts_as_deep_as_its_anchor_however_aliases_are_chained() {
        // Each anchor holds the one before it one level down: the tree grows by the
        // anchor's height at every link although no line nests more than three deep.
        let mut text = String::from("- &a0 [[1]]\n");
        for i in 1..80 {
            text.push_str(&format!("- &a{i} [*a{}]\n", i - 1));
        }
        let built = load_within(&text, 64);
        let Err(LoadFailure::TooDeep { limit: 64, line }) = built else {
            panic!("chained aliases were not counted: {built:?}");
        };
        assert!(line > 1);
        for docs in [
            load_within(&text, 64),
            load_within("- &a [[1]]\n- *a\n", 64),
        ] {
            for doc in docs.into_iter().flatten() {
                assert!(height(&doc) <= 64);
            }
        }
        assert_eq!(
            load_within("- &a [1]\n- [*a]\n", 3)
                .map(|d| height(&d[0]))
                .ok(),
            Some(3)
        );
        assert!(matches!(
            load_within("- &a [1]\n- [[*a]]\n", 3),
            Err(LoadFailure::TooDeep { limit: 3, line: 2 })
        ));
    }

    #[test]
    fn an_alias_to_another_documents_anchor_is_unknown_as_saphyr_says() {
        let text = "a: &x 1\n---\nb: *x\n";
        let Err(LoadFailure::Syntax(ours)) = load_within(text, 64) else {
            panic!("an alias across documents was accepted");
        };
        let theirs = MarkedYaml::load_from_str(text).unwrap_err();
        assert_eq!(ours.info(), theirs.info());
        assert_eq!(ours.marker().line(), theirs.marker().line());
    }
}
