//! The guesses ahead of the search, as a tree (issue 45).
//!
//! The root is the search's own pending request. Below a node hang at most two guesses:
//! the request the search makes next if that node reproduces, and the one it makes if
//! it does not. A chain of guesses is the special case where only one outcome of each
//! node is followed; following both pays off where the outcome is a coin toss (a
//! bisection step carries one bit the search does not know: with 3 devices, the root
//! and both answers to it run at once, so the next query is certain whatever it says).
//!
//! The tree only holds the jobs and what became of them; which node to grow next, and
//! what it asks, are the scheduler's (`scheduler.rs`). Nodes are keyed by attempt
//! number, which is unique over the run.

use std::collections::{BTreeMap, HashMap};

use super::Job;
use crate::engine::ReplayOutcome;

/// One job of the tree.
#[derive(Debug, Clone)]
pub(super) struct Node {
    pub(super) job: Job,
    /// The parent's attempt and the verdict of the parent this job was guessed on.
    pub(super) parent: Option<(u32, bool)>,
    /// The guessed next jobs, by the verdict of this one (`[not reproduced, reproduced]`).
    pub(super) children: [Option<u32>; 2],
    /// The search asks nothing more after this verdict (learned when a guess was tried,
    /// so the same dead end is not asked again; it holds whatever else happens).
    pub(super) ends: [bool; 2],
    /// Its outcome, once its device reported it.
    pub(super) result: Option<ReplayOutcome>,
    /// The search's current candidate when it asks this job (what the predictor reads).
    pub(super) current: Vec<u32>,
}

/// A verdict of a node that has no guess below it yet: where the tree could grow.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Slot {
    pub(super) parent: u32,
    pub(super) verdict: bool,
    /// The chance the search uses a job grown here: the chance every node from the root
    /// down to `parent` gets the verdict the path assumes, and `parent` this one.
    pub(super) used: f64,
    /// Jobs the search consumes before one grown here (the path from the root).
    pub(super) depth: usize,
}

#[derive(Debug, Clone, Default)]
pub(super) struct GuessTree {
    nodes: BTreeMap<u32, Node>,
    root: Option<u32>,
}

impl GuessTree {
    pub(super) fn is_empty(&self) -> bool {
        self.root.is_none()
    }

    pub(super) fn len(&self) -> usize {
        self.nodes.len()
    }

    pub(super) fn root(&self) -> Option<&Node> {
        self.root.and_then(|at| self.nodes.get(&at))
    }

    pub(super) fn get(&self, attempt: u32) -> Option<&Node> {
        self.nodes.get(&attempt)
    }

    pub(super) fn get_mut(&mut self, attempt: u32) -> Option<&mut Node> {
        self.nodes.get_mut(&attempt)
    }

    /// Jobs of the tree still running.
    pub(super) fn running(&self) -> usize {
        self.nodes.values().filter(|n| n.result.is_none()).count()
    }

    /// The search's own request, in an empty tree.
    pub(super) fn plant(&mut self, job: Job, current: Vec<u32>) {
        debug_assert!(self.is_empty());
        self.root = Some(job.attempt);
        self.nodes.insert(job.attempt, node(job, None, current));
    }

    /// `job`, guessed for when `parent` gets `verdict`.
    pub(super) fn graft(&mut self, parent: u32, verdict: bool, job: Job, current: Vec<u32>) {
        let attempt = job.attempt;
        if let Some(p) = self.nodes.get_mut(&parent) {
            debug_assert!(p.children[usize::from(verdict)].is_none());
            p.children[usize::from(verdict)] = Some(attempt);
            self.nodes
                .insert(attempt, node(job, Some((parent, verdict)), current));
        }
    }

    /// The attempts from the root down to `attempt`, both included.
    pub(super) fn path(&self, attempt: u32) -> Vec<u32> {
        let mut path = vec![attempt];
        let mut at = attempt;
        while let Some((parent, _)) = self.nodes.get(&at).and_then(|n| n.parent) {
            path.push(parent);
            at = parent;
        }
        path.reverse();
        path
    }

    /// The verdict each node of `path` is taken to have on it: the next node's edge,
    /// and `last` for the last one.
    pub(super) fn verdicts_along(&self, path: &[u32], last: bool) -> Vec<bool> {
        path.iter()
            .skip(1)
            .map(|at| self.nodes[at].parent.map_or(last, |(_, verdict)| verdict))
            .chain(std::iter::once(last))
            .collect()
    }

    /// Takes the subtree under `attempt` out (the node included), unlinked from its
    /// parent; returns its nodes, each with its result, in attempt order.
    pub(super) fn cut(&mut self, attempt: u32) -> Vec<Node> {
        let Some(top) = self.nodes.get(&attempt) else {
            return Vec::new();
        };
        match top.parent {
            Some((parent, verdict)) => {
                if let Some(p) = self.nodes.get_mut(&parent) {
                    p.children[usize::from(verdict)] = None;
                }
            }
            None => self.root = None,
        }
        let mut out = Vec::new();
        let mut stack = vec![attempt];
        while let Some(at) = stack.pop() {
            if let Some(n) = self.nodes.remove(&at) {
                stack.extend(n.children.iter().flatten());
                out.push(n);
            }
        }
        out.sort_by_key(|n| n.job.attempt);
        out
    }

    /// Moves the lone guess below `parent` from one verdict to the other (the search
    /// asks the same job either way); its own guesses are cut and returned.
    pub(super) fn move_child(&mut self, parent: u32, from: bool) -> Vec<Node> {
        let Some(child) = self
            .nodes
            .get(&parent)
            .and_then(|p| p.children[usize::from(from)])
        else {
            return Vec::new();
        };
        let grandchildren: Vec<u32> = self.nodes[&child]
            .children
            .iter()
            .flatten()
            .copied()
            .collect();
        let cut = grandchildren
            .into_iter()
            .flat_map(|g| self.cut(g))
            .collect();
        if let Some(p) = self.nodes.get_mut(&parent) {
            p.children[usize::from(from)] = None;
            p.children[usize::from(!from)] = Some(child);
        }
        if let Some(c) = self.nodes.get_mut(&child) {
            c.parent = Some((parent, !from));
            c.ends = [false; 2];
        }
        cut
    }

    /// Takes the root out; its guess for `verdict` becomes the root. Any other guess
    /// left below it is cut and returned with it.
    pub(super) fn pop_root(&mut self, verdict: Option<bool>) -> Option<(Node, Vec<Node>)> {
        let at = self.root?;
        let root = self.nodes.remove(&at)?;
        let next = verdict.and_then(|v| root.children[usize::from(v)]);
        // The root is out of the map, so cutting its other guesses leaves it alone.
        let cut = root
            .children
            .iter()
            .flatten()
            .filter(|&&child| Some(child) != next)
            .flat_map(|&child| self.cut(child))
            .collect();
        self.root = next;
        if let Some(n) = next.and_then(|at| self.nodes.get_mut(&at)) {
            n.parent = None;
        }
        Some((root, cut))
    }

    /// Every node, emptying the tree.
    pub(super) fn clear(&mut self) -> Vec<Node> {
        self.root = None;
        std::mem::take(&mut self.nodes).into_values().collect()
    }

    /// Where the tree could grow, each with the chance its job is used. `p_reproduced`
    /// gives a running node's chance to reproduce, from the node and the verdicts the
    /// path above it assumes (by candidate); a finished node's own verdict is certain.
    pub(super) fn slots(
        &self,
        mut p_reproduced: impl FnMut(&Node, &HashMap<Vec<u32>, bool>) -> f64,
    ) -> Vec<Slot> {
        let mut slots = Vec::new();
        let Some(root) = self.root else {
            return slots;
        };
        let mut overlay = HashMap::new();
        self.walk(root, 1.0, 0, &mut overlay, &mut p_reproduced, &mut slots);
        slots
    }

    fn walk(
        &self,
        at: u32,
        used: f64,
        depth: usize,
        overlay: &mut HashMap<Vec<u32>, bool>,
        p_reproduced: &mut impl FnMut(&Node, &HashMap<Vec<u32>, bool>) -> f64,
        slots: &mut Vec<Slot>,
    ) {
        let node = &self.nodes[&at];
        let p_yes = match &node.result {
            None => p_reproduced(node, overlay),
            Some(outcome) => match verdict_of(outcome) {
                Some(true) => 1.0,
                Some(false) => 0.0,
                // Not a verdict: the search stops here, nothing follows.
                None => return,
            },
        };
        for verdict in [true, false] {
            let p = if verdict { p_yes } else { 1.0 - p_yes };
            if p <= 0.0 || node.ends[usize::from(verdict)] {
                continue;
            }
            match node.children[usize::from(verdict)] {
                Some(child) => {
                    let before = overlay.insert(node.job.candidate.clone(), verdict);
                    self.walk(child, used * p, depth + 1, overlay, p_reproduced, slots);
                    match before {
                        Some(v) => overlay.insert(node.job.candidate.clone(), v),
                        None => overlay.remove(&node.job.candidate),
                    };
                }
                None => slots.push(Slot {
                    parent: at,
                    verdict,
                    used: used * p,
                    depth: depth + 1,
                }),
            }
        }
    }
}

fn node(job: Job, parent: Option<(u32, bool)>, current: Vec<u32>) -> Node {
    Node {
        job,
        parent,
        children: [None; 2],
        ends: [false; 2],
        result: None,
        current,
    }
}

/// `Some(reproduced)` for a verdict; `None` for an outcome that stops the search.
pub(super) fn verdict_of(outcome: &ReplayOutcome) -> Option<bool> {
    match outcome {
        ReplayOutcome::Reproduced => Some(true),
        ReplayOutcome::NotReproduced { .. } => Some(false),
        ReplayOutcome::Failed { .. }
        | ReplayOutcome::CaptureMissing { .. }
        | ReplayOutcome::Cancelled => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{MissReason, Phase};

    fn job(attempt: u32) -> Job {
        Job {
            attempt,
            phase: Phase::Bisect,
            candidate: vec![attempt],
            speculative: attempt > 1,
            occurrence: 0,
        }
    }

    /// 1 → (yes: 2 → (no: 4), no: 3)
    fn sample() -> GuessTree {
        let mut t = GuessTree::default();
        t.plant(job(1), vec![]);
        t.graft(1, true, job(2), vec![]);
        t.graft(1, false, job(3), vec![]);
        t.graft(2, false, job(4), vec![]);
        t
    }

    #[test]
    fn slots_carry_the_chance_of_their_path() {
        let t = sample();
        let mut slots = t.slots(|_, _| 0.5);
        slots.sort_by_key(|s| (s.parent, s.verdict));
        let got: Vec<(u32, bool, f64, usize)> = slots
            .iter()
            .map(|s| (s.parent, s.verdict, s.used, s.depth))
            .collect();
        assert_eq!(
            got,
            vec![
                (2, true, 0.25, 2),
                (3, false, 0.25, 2),
                (3, true, 0.25, 2),
                (4, false, 0.125, 3),
                (4, true, 0.125, 3),
            ]
        );
        assert_eq!(t.path(4), vec![1, 2, 4]);
        assert_eq!(t.verdicts_along(&[1, 2, 4], true), vec![true, false, true]);
    }

    #[test]
    fn a_finished_node_follows_only_its_verdict() {
        let mut t = sample();
        t.get_mut(1).unwrap().result = Some(ReplayOutcome::NotReproduced {
            reason: MissReason::NoCrash,
        });
        let slots = t.slots(|_, _| 0.5);
        assert!(slots.iter().all(|s| s.parent == 3 && s.used == 0.5));
        t.get_mut(3).unwrap().ends[1] = true;
        assert_eq!(t.slots(|_, _| 0.5).len(), 1);
    }

    #[test]
    fn popping_the_root_keeps_the_branch_taken_and_cuts_the_other() {
        let mut t = sample();
        let (root, cut) = t.pop_root(Some(true)).unwrap();
        assert_eq!(root.job.attempt, 1);
        assert_eq!(
            cut.iter().map(|n| n.job.attempt).collect::<Vec<_>>(),
            vec![3]
        );
        assert_eq!(t.root().unwrap().job.attempt, 2);
        assert_eq!(t.len(), 2);
        assert_eq!(t.path(4), vec![2, 4]);
        let (_, cut) = t.pop_root(None).unwrap();
        assert_eq!(cut.len(), 1);
        assert!(t.is_empty());
        assert_eq!(t.len(), 0, "no node left behind");
    }

    #[test]
    fn cutting_and_moving_subtrees() {
        let mut t = sample();
        let cut = t.cut(2);
        assert_eq!(
            cut.iter().map(|n| n.job.attempt).collect::<Vec<_>>(),
            vec![2, 4]
        );
        assert_eq!(t.root().unwrap().children, [Some(3), None]);
        assert!(t.move_child(1, false).is_empty());
        assert_eq!(t.root().unwrap().children, [None, Some(3)]);
        assert_eq!(t.get(3).unwrap().parent, Some((1, true)));
        assert_eq!(t.clear().len(), 2);
        assert!(t.is_empty());
    }
}
