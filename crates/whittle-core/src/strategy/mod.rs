//! Search strategies behind one driver interface. A strategy is only its search stage
//! ([`SearchStage`]); the [`Engine`] runs the baseline, the search, then the shared
//! fixed-point audit and confirmation, and keeps the books in one [`crate::engine::Ledger`].
//! `seed` is the Phase 3 (docs/design.md §13) search (the default, unchanged); `binary` is an opt-in
//! strategy that needs fewer replays for the same proof (see [`binary`]); `flaky` samples
//! every verdict for crashes that show on only some replays (see [`flaky`]). Every engine
//! asks for replays and takes outcomes the same way and ends with the same
//! [`crate::engine::SearchResult`], so a driver never needs to know which runs.

mod binary;
mod choice;
mod flaky;
mod offline;
mod prefix;
mod seed;

pub use binary::{BinaryEngine, BinarySearch};
pub use choice::{SearchStrategy, UnknownStrategy};
pub use flaky::{
    FlakyEngine, FlakySearch, CALIBRATION_RUNS, DEFAULT_SAMPLE_CAP, SEARCH_CONFIDENCE,
};
pub use offline::{needs_every, run_offline};
pub use seed::SeedSearch;

use crate::engine::{Engine, EngineError, EngineSnapshot, ReplayOutcome, Request, SearchStage};

/// The state-machine interface of a reduction engine (see [`Engine`]).
pub trait Reducer {
    /// The replay to run next, or the finished result; repeats until answered.
    fn next_request(&mut self) -> Request;
    /// Answers the pending replay; ignored once the search is done.
    fn record(&mut self, outcome: ReplayOutcome);
    /// The state as the UI shows it while a run is live.
    fn snapshot(&self) -> EngineSnapshot;
    /// An independent copy: the parallel scheduler runs it ahead on predicted outcomes
    /// to find the replays worth starting speculatively (see [`crate::parallel`]).
    fn boxed_clone(&self) -> Box<dyn Reducer + Send>;
    /// Skips the numbers of `n` replays that ran but were never recorded (wasted
    /// speculation): the budget does not count them; the pending request is re-issued
    /// after them.
    fn skip_unconsumed(&mut self, n: u32);
    /// How many verdicts the search has recorded for `candidate`.
    fn verdicts_for(&self, candidate: &[u32]) -> usize;
    /// The shortest candidate that reproduced so far.
    fn current(&self) -> &[u32];
    /// Replays the budget still allows.
    fn budget_left(&self) -> u32;
}

impl<S: SearchStage> Reducer for Engine<S> {
    fn next_request(&mut self) -> Request {
        Engine::next_request(self)
    }
    fn record(&mut self, outcome: ReplayOutcome) {
        Engine::record(self, outcome);
    }
    fn snapshot(&self) -> EngineSnapshot {
        Engine::snapshot(self)
    }
    fn boxed_clone(&self) -> Box<dyn Reducer + Send> {
        Box::new(self.clone())
    }
    fn skip_unconsumed(&mut self, n: u32) {
        Engine::skip_unconsumed(self, n);
    }
    fn verdicts_for(&self, candidate: &[u32]) -> usize {
        Engine::verdicts_for(self, candidate)
    }
    fn current(&self) -> &[u32] {
        Engine::current(self)
    }
    fn budget_left(&self) -> u32 {
        Engine::budget_left(self)
    }
}

/// What a run tunes around its strategy. The defaults are the seed's behaviour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchOptions {
    /// Replays of the full path allowed until it reproduces (>= 1; 1 = the seed).
    pub baseline_tries: u32,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions { baseline_tries: 1 }
    }
}

impl SearchStrategy {
    /// A fresh engine of this strategy with the default options; the same input checks
    /// as [`Engine::new`].
    pub fn reducer(
        self,
        replayable: Vec<u32>,
        max_replays: u32,
    ) -> Result<Box<dyn Reducer + Send>, EngineError> {
        self.reducer_with(replayable, max_replays, SearchOptions::default())
    }

    /// A fresh engine of this strategy with `options` (checked like the budget).
    pub fn reducer_with(
        self,
        replayable: Vec<u32>,
        max_replays: u32,
        options: SearchOptions,
    ) -> Result<Box<dyn Reducer + Send>, EngineError> {
        fn boxed<S: SearchStage>(
            search: S,
            replayable: Vec<u32>,
            max_replays: u32,
            options: SearchOptions,
        ) -> Result<Box<dyn Reducer + Send>, EngineError> {
            Ok(Box::new(
                Engine::with_search(search, replayable, max_replays)?
                    .with_baseline_tries(options.baseline_tries)?,
            ))
        }
        match self {
            SearchStrategy::Seed => boxed(SeedSearch::default(), replayable, max_replays, options),
            SearchStrategy::Binary => {
                boxed(BinarySearch::default(), replayable, max_replays, options)
            }
            SearchStrategy::Flaky => {
                boxed(FlakySearch::default(), replayable, max_replays, options)
            }
        }
    }
}
