//! The oracle shapes every strategy is tested against: monotone, order-dependent (not
//! monotone), flaky (seeded) and failing (capture or runtime) at a given request.

use proptest::prelude::*;
use proptest::sample::subsequence;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use whittle_core::{ReplayOutcome, ReplayRequest};

use super::verdict;

#[derive(Debug, Clone)]
pub enum Kind {
    /// Crash iff every essential step is replayed.
    Monotone { essential: Vec<u32> },
    /// Crash iff `first` is immediately followed by `then` in the candidate.
    Adjacent { first: u32, then: u32 },
    /// Like Monotone, but a real crash shows only `hit_percent` of the time and a
    /// spurious hit happens `false_percent` of the time (seeded).
    Flaky {
        essential: Vec<u32>,
        seed: u64,
        hit_percent: u32,
        false_percent: u32,
    },
    /// Monotone until request number `call` (0-based), which fails as given.
    FailsAt {
        essential: Vec<u32>,
        call: usize,
        capture: bool,
    },
}

pub type Oracle = Box<dyn FnMut(&ReplayRequest) -> ReplayOutcome>;

pub fn contains_all(candidate: &[u32], essential: &[u32]) -> bool {
    essential.iter().all(|s| candidate.contains(s))
}

pub fn oracle(kind: &Kind) -> Oracle {
    match kind.clone() {
        Kind::Monotone { essential } => {
            Box::new(move |r: &ReplayRequest| verdict(contains_all(&r.candidate, &essential)))
        }
        Kind::Adjacent { first, then } => Box::new(move |r: &ReplayRequest| {
            verdict(
                r.candidate
                    .windows(2)
                    .any(|p| p[0] == first && p[1] == then),
            )
        }),
        Kind::Flaky {
            essential,
            seed,
            hit_percent,
            false_percent,
        } => {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            Box::new(move |r: &ReplayRequest| {
                let roll = rng.gen_range(0..100);
                if contains_all(&r.candidate, &essential) {
                    verdict(roll < hit_percent)
                } else {
                    verdict(roll < false_percent)
                }
            })
        }
        Kind::FailsAt {
            essential,
            call,
            capture,
        } => {
            let mut calls = 0usize;
            Box::new(move |r: &ReplayRequest| {
                let this = calls;
                calls += 1;
                match (this == call, capture) {
                    (true, true) => ReplayOutcome::CaptureMissing {
                        cause: super::capture_vanished(),
                    },
                    (true, false) => ReplayOutcome::Failed {
                        cause: super::device_disconnected(),
                    },
                    (false, _) => verdict(contains_all(&r.candidate, &essential)),
                }
            })
        }
    }
}

/// A session (a subsequence of `1..=universe`, at most `max_len` steps) and an oracle
/// of every shape over it, with at most `max_essential` essential steps.
pub fn session_and_kind(
    universe: u32,
    max_len: usize,
    max_essential: usize,
) -> impl Strategy<Value = (Vec<u32>, Kind)> {
    subsequence((1..=universe).collect::<Vec<_>>(), 0..=max_len).prop_flat_map(move |session| {
        let n = session.len();
        let essential = subsequence(session.clone(), 0..=n.min(max_essential));
        let pick = {
            let session = session.clone();
            move |i: prop::sample::Index| session.get(i.index(n.max(1))).copied().unwrap_or(0)
        };
        let pick2 = pick.clone();
        let kind = prop_oneof![
            essential
                .clone()
                .prop_map(|essential| Kind::Monotone { essential }),
            (any::<prop::sample::Index>(), any::<prop::sample::Index>()).prop_map(move |(a, b)| {
                Kind::Adjacent {
                    first: pick(a),
                    then: pick2(b),
                }
            }),
            (essential.clone(), any::<u64>(), 40u32..=100, 0u32..=15).prop_map(
                |(essential, seed, hit_percent, false_percent)| Kind::Flaky {
                    essential,
                    seed,
                    hit_percent,
                    false_percent,
                }
            ),
            (essential, 0usize..40, any::<bool>()).prop_map(|(essential, call, capture)| {
                Kind::FailsAt {
                    essential,
                    call,
                    capture,
                }
            }),
        ];
        kind.prop_map(move |kind| (session.clone(), kind))
    })
}
