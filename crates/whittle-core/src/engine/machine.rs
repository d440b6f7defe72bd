//! The Phase 3 (docs/design.md §13) as a resumable state machine over any search strategy: the live
//! baseline, the strategy's search stage, then the shared fixed-point audit and final
//! confirmation ([`ProofStage`]). The [`Ledger`] keeps every count and flag; a strategy
//! contributes only its search ([`SearchStage`]).

use super::proof_stage::ProofStage;
use super::{
    EngineError, EngineSnapshot, Ledger, Move, Phase, ReplayOutcome, Request, SearchResult,
    SearchStage,
};
use crate::strategy::SeedSearch;

/// Which stage of Phase 3 runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// `baseline = try_candidate(current)`, the `tried`-th try of up to `baseline_tries`
    Baseline {
        tried: u32,
    },
    /// The strategy's search (the seed's bisect + one-by-one loop by default).
    Search,
    /// The fixed-point audit and the final confirmation.
    Proof(ProofStage),
    Done,
}

/// The reduction engine. Pure: the driver performs every replay and reports back.
/// `Engine` alone is the seed's strategy.
#[derive(Debug, Clone)]
pub struct Engine<S: SearchStage = SeedSearch> {
    ledger: Ledger,
    search: S,
    stage: Stage,
    /// How often the full path may be replayed until it reproduces (1 = the seed).
    baseline_tries: u32,
}

impl Engine<SeedSearch> {
    /// The seed's engine. `replayable`: the replayable step indexes in original order
    /// (launch setup excluded).
    pub fn new(replayable: Vec<u32>, max_replays: u32) -> Result<Engine, EngineError> {
        Engine::with_search(SeedSearch::default(), replayable, max_replays)
    }
}

impl<S: SearchStage> Engine<S> {
    /// An engine whose search stage is `search`; the same input checks as [`Engine::new`].
    pub fn with_search(
        search: S,
        replayable: Vec<u32>,
        max_replays: u32,
    ) -> Result<Engine<S>, EngineError> {
        Ok(Engine {
            ledger: Ledger::new(replayable, max_replays)?,
            search,
            stage: Stage::Baseline { tried: 0 },
            baseline_tries: 1,
        })
    }

    /// Replays the full path up to `tries` times until it reproduces (opt-in; the seed
    /// tries once). Every try is a replay counted against the budget, and a miss then a
    /// hit of the full path latches `flaky_observed` like any mixed candidate.
    pub fn with_baseline_tries(mut self, tries: u32) -> Result<Engine<S>, EngineError> {
        if tries == 0 {
            return Err(EngineError::InvalidBaselineTries { tries });
        }
        self.baseline_tries = tries;
        Ok(self)
    }

    /// The replay to run next, or the finished result. Calling it again without
    /// [`Engine::record`] returns the same request.
    pub fn next_request(&mut self) -> Request {
        self.run_until_replay_or_done();
        match self.ledger.pending() {
            Some(request) => Request::Replay(request.clone()),
            None => Request::Done(SearchResult {
                statistical: self.search.statistical(),
                ..self.ledger.search_result()
            }),
        }
    }

    /// Answers the pending replay (the one [`Engine::next_request`] returns). Ignored once
    /// the search is done.
    pub fn record(&mut self, outcome: ReplayOutcome) {
        self.run_until_replay_or_done();
        if let Some(verdict) = self.ledger.take_verdict(outcome) {
            self.resume(verdict);
        }
    }

    /// Skips the attempt numbers of `n` replays that ran but whose outcomes were never
    /// recorded (see [`Ledger`]); the budget does not count them, and the pending
    /// request is re-issued after them.
    pub fn skip_unconsumed(&mut self, n: u32) {
        self.ledger.skip_unconsumed(n);
    }

    /// How many verdicts the search has recorded for `candidate`.
    pub fn verdicts_for(&self, candidate: &[u32]) -> usize {
        self.ledger.outcomes(candidate).len()
    }

    /// The shortest candidate that reproduced so far (the full path before the baseline).
    pub fn current(&self) -> &[u32] {
        self.ledger.current()
    }

    /// Replays the budget still allows.
    pub fn budget_left(&self) -> u32 {
        self.ledger.budget_left()
    }

    pub fn snapshot(&self) -> EngineSnapshot {
        self.ledger.snapshot()
    }

    fn run_until_replay_or_done(&mut self) {
        while self.ledger.pending().is_none() && self.stage != Stage::Done {
            self.step();
        }
    }

    /// Advances the current stage until it issues a replay or moves on.
    fn step(&mut self) {
        let required = self.search.negatives_required(&self.ledger);
        let next = match &mut self.stage {
            Stage::Baseline { .. } => Move::Replay(Phase::Baseline, self.ledger.current().to_vec()),
            Stage::Search => self.search.step(&mut self.ledger),
            Stage::Proof(proof) => proof.step(&mut self.ledger, required),
            Stage::Done => return,
        };
        match next {
            Move::Replay(phase, candidate) => {
                if !self.ledger.try_candidate(phase, candidate) {
                    self.resume(None);
                }
            }
            Move::Continue => {}
            Move::Finished => self.finish_stage(),
        }
    }

    fn finish_stage(&mut self) {
        self.stage = match self.stage {
            Stage::Baseline { .. } => {
                self.search.begin(&self.ledger);
                Stage::Search
            }
            Stage::Search => Stage::Proof(ProofStage::AuditGuard),
            Stage::Proof(_) | Stage::Done => Stage::Done,
        };
    }

    /// Continues the pseudo-code after `try_candidate` returned `verdict` (None = null).
    fn resume(&mut self, verdict: Option<bool>) {
        let required = self.search.negatives_required(&self.ledger);
        match &mut self.stage {
            Stage::Baseline { tried } => {
                let tried = tried.saturating_add(1);
                if verdict == Some(true) {
                    self.ledger.mark_baseline_reproduced();
                    self.finish_stage();
                } else if verdict == Some(false) && tried < self.baseline_tries {
                    // Opt-in retry of the full path; the ledger latches a later hit as flaky.
                    self.stage = Stage::Baseline { tried };
                } else {
                    // "停止 ddmin": no search, no audit, no confirmation, no minimal result.
                    self.stage = Stage::Done;
                }
            }
            Stage::Search => self.search.resume(&mut self.ledger, verdict),
            Stage::Proof(proof) => {
                proof.resume(&mut self.ledger, verdict, required);
                if *proof == ProofStage::Done {
                    self.stage = Stage::Done;
                }
            }
            Stage::Done => {}
        }
    }
}
