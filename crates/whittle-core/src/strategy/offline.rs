//! A search run to its end without a device: every replay the engine asks for is
//! answered at once by a function of the request. The replay estimate next to the
//! strategy choice (`whittle_service::api::estimate`) and the benchmark harness
//! (`whittle-bench`) both drive the engine this way; a live run drives it over MCP
//! instead (`whittle_service::run`). One loop, so what the window estimates and what the
//! bench measures are the same search.

use crate::engine::{MissReason, ReplayOutcome, ReplayRequest, Request, SearchResult};

use super::Reducer;

/// Drives `reducer` until it is done, answering each replay with `answer`.
pub fn run_offline(
    reducer: &mut dyn Reducer,
    mut answer: impl FnMut(&ReplayRequest) -> ReplayOutcome,
) -> SearchResult {
    loop {
        match reducer.next_request() {
            Request::Replay(request) => {
                let outcome = answer(&request);
                reducer.record(outcome);
            }
            Request::Done(result) => return result,
        }
    }
}

/// The deterministic fake device: the crash shows exactly when every `essential` step is
/// in the candidate (no flakiness, no order, no prerequisite).
pub fn needs_every(essential: &[u32], candidate: &[u32]) -> ReplayOutcome {
    if essential.iter().all(|step| candidate.contains(step)) {
        ReplayOutcome::Reproduced
    } else {
        ReplayOutcome::NotReproduced {
            reason: MissReason::NoCrash,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::SearchStrategy;

    #[test]
    fn every_strategy_ends_at_the_essential_steps_and_counts_each_answer() {
        for strategy in SearchStrategy::ALL {
            let mut reducer = strategy.reducer((1..=12).collect(), 1000).unwrap();
            let mut answered = 0;
            let result = run_offline(reducer.as_mut(), |request| {
                answered += 1;
                needs_every(&[3, 9], &request.candidate)
            });
            assert_eq!(result.current, [3, 9], "{strategy}");
            assert_eq!(result.attempts, answered, "{strategy}");
        }
    }

    #[test]
    fn a_candidate_missing_an_essential_step_does_not_crash() {
        assert_eq!(needs_every(&[2, 5], &[1, 2, 5]), ReplayOutcome::Reproduced);
        assert!(matches!(
            needs_every(&[2, 5], &[1, 2]),
            ReplayOutcome::NotReproduced { .. }
        ));
        assert_eq!(needs_every(&[], &[]), ReplayOutcome::Reproduced);
    }
}
