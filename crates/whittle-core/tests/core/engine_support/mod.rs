//! Shared by the engine tests: a driver loop, test oracles, the claims every result
//! must respect and the reference transcription of the Phase 3 (docs/design.md §13) pseudo-code.
#![allow(dead_code)] // whittle-text's report tests include it too and use a part of it

pub mod claims;
pub mod oracles;
pub mod reference;

use whittle_core::engine::{FailureCause, MissReason};
use whittle_core::strategy::{Reducer, SearchOptions, SearchStrategy};
use whittle_core::{Engine, ReplayOutcome, ReplayRequest, Request, SearchResult};

/// Upper bound on driver iterations: a hung state machine fails instead of looping.
const MAX_DRIVER_STEPS: usize = 100_000;

/// Every request the engine issued (including ones answered CaptureMissing) and its result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transcript {
    pub requests: Vec<ReplayRequest>,
    pub outcomes: Vec<ReplayOutcome>,
    pub result: SearchResult,
}

/// The seed engine ([`Engine::new`]) driven to its result.
pub fn drive(
    replayable: &[u32],
    max_replays: u32,
    oracle: &mut dyn FnMut(&ReplayRequest) -> ReplayOutcome,
) -> Transcript {
    let engine = Engine::new(replayable.to_vec(), max_replays).expect("valid engine input");
    drive_reducer(Box::new(engine), oracle)
}

/// `strategy`'s engine driven to its result.
pub fn drive_with(
    strategy: SearchStrategy,
    replayable: &[u32],
    max_replays: u32,
    oracle: &mut dyn FnMut(&ReplayRequest) -> ReplayOutcome,
) -> Transcript {
    let engine = strategy
        .reducer(replayable.to_vec(), max_replays)
        .expect("valid engine input");
    drive_reducer(engine, oracle)
}

/// `strategy`'s engine with `options`, driven to its result.
pub fn drive_options(
    strategy: SearchStrategy,
    options: SearchOptions,
    replayable: &[u32],
    max_replays: u32,
    oracle: &mut dyn FnMut(&ReplayRequest) -> ReplayOutcome,
) -> Transcript {
    let engine = strategy
        .reducer_with(replayable.to_vec(), max_replays, options)
        .expect("valid engine input");
    drive_reducer(engine, oracle)
}

pub fn drive_reducer(
    mut engine: Box<dyn Reducer + Send>,
    oracle: &mut dyn FnMut(&ReplayRequest) -> ReplayOutcome,
) -> Transcript {
    let mut requests = Vec::new();
    let mut outcomes = Vec::new();
    for _ in 0..MAX_DRIVER_STEPS {
        match engine.next_request() {
            Request::Replay(request) => {
                // Asking again without an answer repeats the request.
                assert_eq!(engine.next_request(), Request::Replay(request.clone()));
                let outcome = oracle(&request);
                requests.push(request);
                outcomes.push(outcome.clone());
                engine.record(outcome);
            }
            Request::Done(result) => {
                return Transcript {
                    requests,
                    outcomes,
                    result,
                }
            }
        }
    }
    panic!("engine issued more than {MAX_DRIVER_STEPS} requests");
}

pub fn verdict(reproduced: bool) -> ReplayOutcome {
    if reproduced {
        ReplayOutcome::Reproduced
    } else {
        ReplayOutcome::NotReproduced {
            reason: MissReason::NoCrash,
        }
    }
}

/// Deterministic and monotone: the crash needs every step of `essential`.
pub fn needs_all(essential: Vec<u32>) -> impl FnMut(&ReplayRequest) -> ReplayOutcome {
    move |request| verdict(essential.iter().all(|s| request.candidate.contains(s)))
}

/// Order-dependent and not monotone: the crash needs `first` immediately followed by
/// `then` (deleting a step in between can create the crash).
pub fn needs_adjacent(first: u32, then: u32) -> impl FnMut(&ReplayRequest) -> ReplayOutcome {
    move |request| {
        verdict(
            request
                .candidate
                .windows(2)
                .any(|pair| pair[0] == first && pair[1] == then),
        )
    }
}

/// Answers from a fixed script, one verdict per request; then "not reproduced".
pub fn scripted(script: Vec<bool>) -> impl FnMut(&ReplayRequest) -> ReplayOutcome {
    let mut at = 0;
    move |_| {
        let reproduced = script.get(at).copied().unwrap_or(false);
        at += 1;
        verdict(reproduced)
    }
}

/// The cause a vanished log capture is reported with in these tests.
pub fn capture_vanished() -> FailureCause {
    FailureCause::Capture {
        device: None,
        detail: "log capture vanished".to_owned(),
    }
}

/// The cause a lost device is reported with in these tests.
pub fn device_disconnected() -> FailureCause {
    FailureCause::Tool {
        step: None,
        detail: "device disconnected".to_owned(),
    }
}
