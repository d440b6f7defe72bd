//! The Phase 3 (docs/design.md §13) (minimize-skill.zh.md, "Phase 3 · ddmin 主循环"), transcribed line
//! by line into straight-line Rust. The engine is a resumable state machine; this is the
//! plain program it must behave exactly like. Comments quote the pseudo-code.
//!
//! Two things the pseudo-code leaves to its environment are made explicit:
//! - the capture check (`log.list_captures()`) and `replay(candidate)` are one call to
//!   the oracle, which answers `CaptureMissing` when the capture is not running;
//! - after a runtime failure the search ends (brief H2): modelled, like a capture that
//!   stays gone, as `try_candidate` returning null at the capture check.

use whittle_core::{
    CandidateHistory, Phase, ProofRow, ReplayOutcome, ReplayRequest, SearchFlags, SearchResult,
    HIGH_CONFIDENCE_RUNS, NEGATIVE_PROOF_RUNS,
};

use whittle_core::engine::SearchStop;

use super::Transcript;

struct Run<'o> {
    max_replays: u32,
    attempts: u32,
    budget_exhausted: bool,
    flaky_observed: bool,
    capture_failed: bool,
    runtime_failed: bool,
    // The first of capture/runtime failure or cancel: the result's `stop`.
    stop: Option<SearchStop>,
    // `outcome_history = Map<candidate_key, boolean[]>()`, in insertion order.
    outcome_history: Vec<(Vec<u32>, Vec<bool>)>,
    oracle: &'o mut dyn FnMut(&ReplayRequest) -> ReplayOutcome,
    requests: Vec<ReplayRequest>,
    outcomes: Vec<ReplayOutcome>,
}

fn contains_true_and_false(values: &[bool]) -> bool {
    values.contains(&true) && values.contains(&false)
}

fn count_false(values: &[bool]) -> usize {
    values.iter().filter(|v| !**v).count()
}

impl Run<'_> {
    fn get_or_create(&mut self, key: &[u32]) -> Vec<bool> {
        if let Some((_, values)) = self.outcome_history.iter().find(|(k, _)| k == key) {
            return values.clone();
        }
        self.outcome_history.push((key.to_vec(), Vec::new()));
        Vec::new()
    }

    fn get(&self, key: &[u32]) -> Vec<bool> {
        self.outcome_history
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, values)| values.clone())
            .unwrap_or_default()
    }

    fn append(&mut self, key: &[u32], value: bool) {
        self.get_or_create(key);
        if let Some((_, values)) = self.outcome_history.iter_mut().find(|(k, _)| k == key) {
            values.push(value);
        }
    }

    // function try_candidate(candidate):
    fn try_candidate(&mut self, phase: Phase, candidate: &[u32]) -> Option<bool> {
        // if attempts >= max_replays: budget_exhausted = true; return null
        if self.attempts >= self.max_replays {
            self.budget_exhausted = true;
            return None;
        }
        // capture_state ...; if 不存在 or != "running": capture_failed = true; return null
        if self.capture_failed || self.runtime_failed {
            return None;
        }
        let request = ReplayRequest {
            attempt: self.attempts + 1,
            phase,
            candidate: candidate.to_vec(),
        };
        let outcome = (self.oracle)(&request);
        self.requests.push(request);
        self.outcomes.push(outcome.clone());
        if let ReplayOutcome::CaptureMissing { cause } = &outcome {
            self.capture_failed = true;
            self.stop = Some(SearchStop::CaptureFailed {
                cause: cause.clone(),
            });
            return None;
        }
        // attempts += 1
        self.attempts += 1;
        // fatal_error = false; try: result = replay(candidate) catch: runtime_failed = true ...
        let mut fatal_error = false;
        let reproduced = match outcome {
            ReplayOutcome::Reproduced => true,
            ReplayOutcome::NotReproduced { .. } => false,
            ReplayOutcome::Failed { cause } => {
                self.runtime_failed = true;
                self.stop = Some(SearchStop::RuntimeFailed { cause });
                fatal_error = true;
                false
            }
            // Outside the seed: a cancel ends the search like a runtime failure does.
            ReplayOutcome::Cancelled => {
                self.runtime_failed = true;
                self.stop = Some(SearchStop::Cancelled);
                fatal_error = true;
                false
            }
            ReplayOutcome::CaptureMissing { .. } => unreachable!("handled above"),
        };
        let key = candidate;
        // if !fatal_error: outcome_history.getOrCreate(key, []).append(result.reproduced)
        if !fatal_error {
            self.append(key, reproduced);
        }
        // if !fatal_error and outcome_history[key] 同时包含 true 和 false: flaky_observed = true
        if !fatal_error && contains_true_and_false(&self.get(key)) {
            self.flaky_observed = true;
        }
        // return fatal_error ? null : result
        if fatal_error {
            None
        } else {
            Some(reproduced)
        }
    }
}

pub fn reference_minimize(
    replayable: &[u32],
    max_replays: u32,
    oracle: &mut dyn FnMut(&ReplayRequest) -> ReplayOutcome,
) -> Transcript {
    let mut s = Run {
        max_replays,
        attempts: 0,
        budget_exhausted: false,
        flaky_observed: false,
        capture_failed: false,
        runtime_failed: false,
        stop: None,
        outcome_history: Vec::new(),
        oracle,
        requests: Vec::new(),
        outcomes: Vec::new(),
    };
    // current = replayable_steps
    let mut current: Vec<u32> = replayable.to_vec();
    let mut fixed_point_reached = false;

    // baseline = try_candidate(current)
    let baseline = s.try_candidate(Phase::Baseline, &current);
    // if baseline == null or !baseline.reproduced: 停止 ddmin
    if baseline != Some(true) {
        return finish(s, current, false, false, false);
    }

    // while baseline.reproduced and len(current) >= 2 and !budget_exhausted:
    while current.len() >= 2 && !s.budget_exhausted {
        // mid = len(current) // 2; candidates = [current[:mid], current[mid:]]
        let mid = current.len() / 2;
        let candidates = [current[..mid].to_vec(), current[mid..].to_vec()];
        // matched = null
        let mut matched: Option<Vec<u32>> = None;
        // for cand in candidates:
        for cand in candidates {
            // result = try_candidate(cand)
            let result = s.try_candidate(Phase::Bisect, &cand);
            // if result == null: break
            let Some(reproduced) = result else { break };
            // if result.reproduced: matched = cand; break
            if reproduced {
                matched = Some(cand);
                break;
            }
        }
        // if matched: current = matched; continue
        if let Some(matched) = matched {
            current = matched;
            continue;
        }
        // progress = false
        let mut progress = false;
        // for i in range(len(current)):
        for i in 0..current.len() {
            // if attempts >= max_replays: budget_exhausted = true; break
            if s.attempts >= s.max_replays {
                s.budget_exhausted = true;
                break;
            }
            // cand = current[:i] + current[i+1:]
            let cand = [&current[..i], &current[i + 1..]].concat();
            // result = try_candidate(cand)
            let result = s.try_candidate(Phase::OneByOne, &cand);
            // if result != null and result.reproduced: current = cand; progress = true; break
            if result == Some(true) {
                current = cand;
                progress = true;
                break;
            }
        }
        // if budget_exhausted: break
        if s.budget_exhausted {
            break;
        }
        // if not progress: break
        if !progress {
            break;
        }
    }

    // while baseline.reproduced and !budget_exhausted:
    while !s.budget_exhausted {
        // if len(current) == 0: fixed_point_reached = true; break
        if current.is_empty() {
            fixed_point_reached = true;
            break;
        }
        // audit_progress = false; proof_complete = true
        let mut audit_progress = false;
        let mut proof_complete = true;
        // for i in range(len(current)):
        for i in 0..current.len() {
            // cand = current[:i] + current[i+1:]; key = ...
            let cand = [&current[..i], &current[i + 1..]].concat();
            // while !getOrCreate(key).contains(true) and count(false) < NEGATIVE_PROOF_RUNS:
            while !s.get_or_create(&cand).contains(&true)
                && count_false(&s.get(&cand)) < NEGATIVE_PROOF_RUNS
            {
                // sample = try_candidate(cand); if sample == null: proof_complete = false; break
                let sample = s.try_candidate(Phase::Audit, &cand);
                if sample.is_none() {
                    proof_complete = false;
                    break;
                }
            }
            // if outcome_history[key] 同时包含 true 和 false: flaky_observed = true
            if contains_true_and_false(&s.get(&cand)) {
                s.flaky_observed = true;
            }
            // if outcome_history[key].contains(true): current = cand; audit_progress = true;
            //     proof_complete = false; break
            if s.get(&cand).contains(&true) {
                current = cand;
                audit_progress = true;
                proof_complete = false;
                break;
            }
            // if count(outcome_history[key], false) < NEGATIVE_PROOF_RUNS: proof_complete = false; break
            if count_false(&s.get(&cand)) < NEGATIVE_PROOF_RUNS {
                proof_complete = false;
                break;
            }
        }
        // if audit_progress: continue
        if audit_progress {
            continue;
        }
        // if proof_complete: fixed_point_reached = true
        if proof_complete {
            fixed_point_reached = true;
        }
        // break
        break;
    }

    // final_key = current...; while len(outcome_history[final_key]) < HIGH_CONFIDENCE_RUNS:
    let final_key = current.clone();
    while s.get(&final_key).len() < HIGH_CONFIDENCE_RUNS {
        // confirmation = try_candidate(current); if confirmation == null: break
        let confirmation = s.try_candidate(Phase::Confirm, &current);
        if confirmation.is_none() {
            break;
        }
    }
    // final_outcomes = outcome_history.getOrCreate(final_key, [])
    let final_outcomes = s.get_or_create(&final_key);
    // if final_outcomes 同时包含 true 和 false: flaky_observed = true
    if contains_true_and_false(&final_outcomes) {
        s.flaky_observed = true;
    }
    // final_confirmed = len >= HIGH_CONFIDENCE_RUNS and every == true
    let final_confirmed =
        final_outcomes.len() >= HIGH_CONFIDENCE_RUNS && final_outcomes.iter().all(|v| *v);
    // if !final_confirmed and attempts >= max_replays: budget_exhausted = true
    if !final_confirmed && s.attempts >= s.max_replays {
        s.budget_exhausted = true;
    }
    finish(s, current, true, fixed_point_reached, final_confirmed)
}

fn finish(
    s: Run<'_>,
    current: Vec<u32>,
    baseline_reproduced: bool,
    fixed_point_reached: bool,
    final_confirmed: bool,
) -> Transcript {
    let proof = if baseline_reproduced {
        (0..current.len())
            .map(|i| {
                let candidate = [&current[..i], &current[i + 1..]].concat();
                ProofRow {
                    removed_step: current[i],
                    outcomes: s.get(&candidate),
                    candidate,
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    let result = SearchResult {
        baseline_reproduced,
        current,
        attempts: s.attempts,
        max_replays: s.max_replays,
        flags: SearchFlags {
            fixed_point_reached,
            final_confirmed,
            flaky_observed: s.flaky_observed,
            budget_exhausted: s.budget_exhausted,
        },
        stop: s.stop.clone(),
        proof,
        outcome_history: s
            .outcome_history
            .iter()
            .map(|(candidate, outcomes)| CandidateHistory {
                candidate: candidate.clone(),
                outcomes: outcomes.clone(),
            })
            .collect(),
        // The seed's negatives are its proof, not statistical evidence.
        statistical: None,
    };
    Transcript {
        requests: s.requests,
        outcomes: s.outcomes,
        result,
    }
}
