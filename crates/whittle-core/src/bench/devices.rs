//! A model, not a measurement: wall-clock with N devices if the repeated samples of the
//! audit (3 negatives of one deletion) and of the final confirmation ran concurrently.
//! Consecutive requests of the same candidate in the Audit or Confirm phase form
//! batches of up to N; a batch takes as long as its slowest replay; everything else
//! runs one after another. The engine's decisions are taken as they were sequentially.

use super::run::ReplayRecord;
use crate::engine::Phase;

pub fn devices_wall_ms(replays: &[ReplayRecord], devices: u32) -> u64 {
    let devices = usize::try_from(devices.max(1)).unwrap_or(1);
    let mut total = 0u64;
    let mut at = 0;
    while at < replays.len() {
        let first = &replays[at];
        let batchable = matches!(first.phase, Phase::Audit | Phase::Confirm);
        let mut end = at + 1;
        while batchable
            && end < replays.len()
            && end - at < devices
            && replays[end].phase == first.phase
            && replays[end].candidate == first.candidate
        {
            end += 1;
        }
        total += replays[at..end]
            .iter()
            .map(|r| r.device_ms)
            .max()
            .unwrap_or(0);
        at = end;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(phase: Phase, candidate: &[u32], device_ms: u64) -> ReplayRecord {
        ReplayRecord {
            phase,
            candidate: candidate.to_vec(),
            device_ms,
        }
    }

    #[test]
    fn batches_only_repeats_of_one_candidate_in_audit_or_confirm() {
        let replays = vec![
            record(Phase::Baseline, &[1, 2], 10),
            record(Phase::Bisect, &[1], 7),
            record(Phase::Bisect, &[1], 7), // search repeats are never batched
            record(Phase::Audit, &[2], 5),
            record(Phase::Audit, &[2], 6),
            record(Phase::Audit, &[2], 5),
            record(Phase::Audit, &[1], 4),
            record(Phase::Confirm, &[1, 2], 9),
            record(Phase::Confirm, &[1, 2], 8),
        ];
        let one: u64 = replays.iter().map(|r| r.device_ms).sum();
        assert_eq!(devices_wall_ms(&replays, 1), one);
        assert_eq!(devices_wall_ms(&replays, 0), one);
        // 10 + 7 + 7 + (6, 5) + 4 + 9
        assert_eq!(devices_wall_ms(&replays, 2), 10 + 7 + 7 + 6 + 5 + 4 + 9);
        assert_eq!(devices_wall_ms(&replays, 3), 10 + 7 + 7 + 6 + 4 + 9);
        assert_eq!(devices_wall_ms(&replays, 8), 10 + 7 + 7 + 6 + 4 + 9);
    }
}
