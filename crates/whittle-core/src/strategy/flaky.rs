//! The `flaky` strategy (issue 21): for crashes that show on only some replays.
//!
//! Its search is the prefix search of [`super::prefix`], but a verdict is a sample, not
//! one replay. A hit is conclusive (the target signature was seen; nothing else can
//! produce it), so a candidate is replayed until it hits, or until its misses put its
//! Wilson interval wholly below the crash rate's — "does not reproduce" separated from
//! "reproduces at about the crash rate" — or until a per-candidate cap. The crash rate
//! is every verdict of the candidates seen reproducing; the full path is first sampled
//! [`CALIBRATION_RUNS`] times so the rate is estimated before any miss is judged.
//!
//! Search verdicts only steer (a wrong "does not reproduce" fixes a step the audit will
//! then remove), so they separate at [`SEARCH_CONFIDENCE`]; the shared fixed-point audit
//! asks each single deletion for as many consistent misses as separate at the stated
//! confidence (never fewer than the seed's 3). The result carries a
//! [`StatisticalProof`], so it is never rated high: misses of a flaky crash are
//! evidence, not proof.

use super::prefix::{PrefixSearch, Verdicts};
use crate::engine::{
    Engine, EngineError, Ledger, Move, Phase, SearchStage, StatisticalProof, NEGATIVE_PROOF_RUNS,
};
use crate::rate::{misses_to_rule_out, Rate, DEFAULT_CONFIDENCE};

/// The flaky strategy's engine.
pub type FlakyEngine = Engine<FlakySearch>;

/// Verdicts of the full path before the search starts (the live baseline included).
pub const CALIBRATION_RUNS: usize = 4;
/// The confidence search verdicts separate at. Lower than the proof's: a wrong search
/// verdict costs replays (the audit corrects it), never a wrong claim.
pub const SEARCH_CONFIDENCE: f64 = 0.70;
/// Default most replays of one candidate.
pub const DEFAULT_SAMPLE_CAP: u32 = 20;

#[derive(Debug, Clone, PartialEq)]
pub struct FlakySearch {
    search: PrefixSearch,
    /// The full path, sampled until it has `CALIBRATION_RUNS` verdicts.
    full_path: Vec<u32>,
    confidence: f64,
    cap: u32,
    /// A replay was refused (budget, failure): no more calibration either.
    stopped: bool,
}

impl Default for FlakySearch {
    fn default() -> FlakySearch {
        FlakySearch {
            search: PrefixSearch::default(),
            full_path: Vec::new(),
            confidence: DEFAULT_CONFIDENCE,
            cap: DEFAULT_SAMPLE_CAP,
            stopped: false,
        }
    }
}

impl FlakySearch {
    /// `confidence` in (0.5, 1); `cap` at least the seed's 3 negatives.
    pub fn new(confidence: f64, cap: u32) -> Result<FlakySearch, EngineError> {
        let min_cap = u32::try_from(NEGATIVE_PROOF_RUNS).unwrap_or(u32::MAX);
        if !(confidence > 0.5 && confidence < 1.0) || cap < min_cap {
            return Err(EngineError::InvalidSampling {
                confidence_percent: (confidence * 100.0).round() as i64,
                cap,
            });
        }
        Ok(FlakySearch {
            confidence,
            cap,
            ..FlakySearch::default()
        })
    }

    /// Misses that rule a candidate out at `confidence`, at most the cap.
    fn misses_needed(&self, ledger: &Ledger, confidence: f64) -> u32 {
        let (hits, total) = ledger.reproducing_counts();
        let crash_rate = Rate::wilson(hits, total, confidence);
        misses_to_rule_out(crash_rate.low, confidence).map_or(self.cap, |m| m.min(self.cap))
    }
}

/// A hit decides at once; misses decide once they separate at [`SEARCH_CONFIDENCE`].
struct Sampled<'a>(&'a FlakySearch);

impl Verdicts for Sampled<'_> {
    fn decide(&self, ledger: &Ledger, outcomes: &[bool]) -> Option<bool> {
        if outcomes.contains(&true) {
            return Some(true);
        }
        let misses = u32::try_from(outcomes.len()).unwrap_or(u32::MAX);
        (misses >= self.0.misses_needed(ledger, SEARCH_CONFIDENCE)).then_some(false)
    }
}

impl SearchStage for FlakySearch {
    fn begin(&mut self, ledger: &Ledger) {
        self.search = PrefixSearch::begin(ledger);
        self.full_path = ledger.current().to_vec();
        self.stopped = false;
    }

    fn step(&mut self, ledger: &mut Ledger) -> Move {
        let calibrated = ledger.outcomes(&self.full_path).len() >= CALIBRATION_RUNS;
        if !calibrated && !self.stopped {
            return Move::Replay(Phase::Baseline, self.full_path.clone());
        }
        let mut search = self.search;
        let next = search.step(ledger, &Sampled(self));
        self.search = search;
        next
    }

    fn resume(&mut self, _ledger: &mut Ledger, verdict: Option<bool>) {
        // A replay refused (budget, failure), calibration included, ends the search.
        self.stopped |= verdict.is_none();
        self.search.resume(verdict);
    }

    fn negatives_required(&self, ledger: &Ledger) -> usize {
        let needed = usize::try_from(self.misses_needed(ledger, self.confidence)).unwrap_or(0);
        needed.max(NEGATIVE_PROOF_RUNS)
    }

    fn statistical(&self) -> Option<StatisticalProof> {
        Some(StatisticalProof {
            // Within (50, 100) by construction.
            confidence_percent: (self.confidence * 100.0).round() as u32,
            cap: self.cap,
        })
    }
}
