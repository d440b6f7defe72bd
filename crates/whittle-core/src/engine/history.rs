//! The seed's `outcome_history`: candidate key → every live verdict, in insertion order.

use std::collections::HashMap;

use super::CandidateHistory;

/// Insertion-ordered so the UI and the report list candidates in the order the search
/// first touched them. Entries may be empty: the seed's `getOrCreate` creates the key
/// before the first sample, and an audit cut short by the budget leaves it empty.
#[derive(Debug, Clone, Default)]
pub(crate) struct OutcomeHistory {
    entries: Vec<CandidateHistory>,
    index: HashMap<Vec<u32>, usize>,
}

impl OutcomeHistory {
    pub(crate) fn get(&self, candidate: &[u32]) -> &[bool] {
        match self.index.get(candidate) {
            Some(&at) => &self.entries[at].outcomes,
            None => &[],
        }
    }

    /// The seed's `outcome_history.getOrCreate(key, [])`.
    pub(crate) fn get_or_create(&mut self, candidate: &[u32]) -> &[bool] {
        let at = self.slot(candidate);
        &self.entries[at].outcomes
    }

    pub(crate) fn append(&mut self, candidate: &[u32], reproduced: bool) {
        let at = self.slot(candidate);
        self.entries[at].outcomes.push(reproduced);
    }

    pub(crate) fn entries(&self) -> &[CandidateHistory] {
        &self.entries
    }

    fn slot(&mut self, candidate: &[u32]) -> usize {
        if let Some(&at) = self.index.get(candidate) {
            return at;
        }
        let at = self.entries.len();
        self.entries.push(CandidateHistory {
            candidate: candidate.to_vec(),
            outcomes: Vec::new(),
        });
        self.index.insert(candidate.to_vec(), at);
        at
    }
}

/// "同时包含 true 和 false": the candidate was seen both reproducing and not.
pub(crate) fn is_mixed(outcomes: &[bool]) -> bool {
    outcomes.contains(&true) && outcomes.contains(&false)
}

pub(crate) fn count_false(outcomes: &[bool]) -> usize {
    outcomes.iter().filter(|&&reproduced| !reproduced).count()
}
