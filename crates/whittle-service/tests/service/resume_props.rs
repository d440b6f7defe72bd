//! Resume, as a property (issue #20): for random sessions, strategies, budgets, flaky
//! rates and device counts, a run interrupted after every possible journaled attempt k
//! and resumed from its journal ends exactly as the uninterrupted run — same result
//! (path, attempts, flags, outcome history), same proof — and never replays an attempt
//! the journal already held. Devices finish in a random order (streaming); every round
//! of every journal, cut or resumed, is rebuilt exactly where and as it was handed out.
//! The journal goes through its real file format (written, cut after k records, read
//! back), and the live loop's own round cursor decides what runs next and when each
//! outcome reaches the scheduler; only the device is an oracle.

use proptest::prelude::*;
use std::collections::BTreeMap;
use whittle_core::engine::{ReplayOutcome, SearchResult};
use whittle_core::parallel::{Job, Scheduler};
use whittle_core::strategy::SearchStrategy;
use whittle_service::replay::{MissReason, ReplayVerdict, TargetIdentity};

use whittle_service::run::{
    parse_journal, restore, sealed_journal, AttemptOutcome, JournalAttempt, JournalHeader,
    JournalRecord, JournalRound, RestoreError, RoundCursor, Turn, JOURNAL_FORMAT,
};

/// The app: reproduces when every essential step is replayed, and then only on some
/// attempts when `percent` < 100. The draw is keyed by the candidate and how many
/// verdicts it had before (the job's `occurrence`), so every replay the search uses
/// draws alike, however devices finish and however many numbers speculation skipped.
#[derive(Clone)]
struct Device {
    essential: Vec<u32>,
    percent: u64,
    seed: u64,
}

impl Device {
    fn replay(&self, job: &Job) -> bool {
        let triggered = self.essential.iter().all(|s| job.candidate.contains(s));
        let key = job
            .candidate
            .iter()
            .fold(self.seed, |key, &step| splitmix(key ^ u64::from(step)));
        triggered && splitmix(key ^ u64::from(job.occurrence) << 32) % 100 < self.percent
    }
}

fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

fn verdict(reproduced: bool) -> ReplayVerdict {
    if reproduced {
        ReplayVerdict::reproduced(Some("0123456789ab".into()), None, Vec::new())
    } else {
        ReplayVerdict::missed(MissReason::NoCrash, None, Vec::new())
    }
}

fn outcome(reproduced: bool) -> ReplayOutcome {
    whittle_service::run::outcome_of(&verdict(reproduced))
}

/// Drives the scheduler to its end the way the live loop does: each free device takes
/// the cursor's next batch (its round journaled first), devices finish after random
/// times (seeded by `timing`), each finished job is journaled at once, outcomes reach
/// the scheduler in attempt order through the cursor, and a job the scheduler finds
/// unneeded is stopped at once (journaled `Unneeded`). Returns the result and the
/// attempts replayed (stopped ones included).
fn drive(
    scheduler: &mut Scheduler,
    cursor: &mut RoundCursor,
    devices: usize,
    device: &Device,
    journal: &mut Vec<JournalRecord>,
    timing: u64,
) -> (SearchResult, Vec<u32>) {
    let mut replayed = Vec::new();
    let mut draw = timing;
    // (finishes at, device, round, round size, job)
    let mut running: Vec<(u64, usize, u32, u32, Job)> = Vec::new();
    let mut idle: Vec<usize> = (0..devices).rev().collect();
    // Per job done: its verdict, `None` when it was stopped as unneeded.
    let mut finished: BTreeMap<u32, Option<bool>> = BTreeMap::new();
    let mut now = 0u64;
    loop {
        while let Some(turn) = cursor.take_turn(&mut finished) {
            match turn {
                Turn::Answered(attempt, answer) => scheduler.complete(attempt, answer),
                Turn::Finished(attempt, Some(reproduced)) => {
                    scheduler.complete(attempt, outcome(reproduced));
                }
                Turn::Finished(attempt, None) => {
                    scheduler.complete(attempt, ReplayOutcome::Cancelled);
                }
            }
        }
        let mut stopped = false;
        for attempt in scheduler.take_unneeded() {
            let Some(at) = running.iter().position(|r| r.4.attempt == attempt) else {
                continue;
            };
            let (_, on, round, round_jobs, job) = running.swap_remove(at);
            idle.push(on);
            replayed.push(attempt);
            journal.push(record(
                round,
                round_jobs,
                &job,
                on,
                AttemptOutcome::Unneeded,
            ));
            finished.insert(attempt, None);
            stopped = true;
        }
        if stopped {
            // Their turns may have come.
            continue;
        }
        scheduler.take_settled();
        if let Some(result) = scheduler.is_done() {
            assert!(running.is_empty());
            return (result, replayed);
        }
        let batch = cursor.next(scheduler, idle.len());
        if !batch.jobs.is_empty() {
            assert!(batch.jobs.len() <= idle.len());
            if let Some(round) = batch.new_round.clone() {
                journal.push(JournalRecord::Round(round));
            }
            for job in batch.jobs {
                draw = splitmix(draw);
                let on = idle.pop().unwrap();
                running.push((now + 1 + draw % 50, on, batch.round, batch.round_jobs, job));
            }
            continue;
        }
        let next = (0..running.len())
            .min_by_key(|&i| (running[i].0, running[i].1))
            .expect("a run that is not done has a replay running or to start");
        let (finish, on, round, round_jobs, job) = running.swap_remove(next);
        now = finish;
        idle.push(on);
        let reproduced = device.replay(&job);
        replayed.push(job.attempt);
        let outcome = AttemptOutcome::Replayed {
            verdict: verdict(reproduced),
        };
        journal.push(record(round, round_jobs, &job, on, outcome));
        finished.insert(job.attempt, Some(reproduced));
    }
}

fn record(
    round: u32,
    round_jobs: u32,
    job: &Job,
    device: usize,
    outcome: AttemptOutcome,
) -> JournalRecord {
    JournalRecord::Attempt(Box::new(JournalAttempt {
        round,
        round_jobs,
        attempt: job.attempt,
        phase: job.phase,
        candidate: job.candidate.clone(),
        speculative: job.speculative,
        device: format!("sim-{}", device + 1),
        outcome,
        duration_ms: 5,
        screenshot_src: None,
        screenshot_redacted: true,
        screenshot_omitted: Some(whittle_service::evidence::ShotOmission::Cancelled),
        screenshot_before_step: None,
        finished_at: "2026-01-01T00:00:00Z".into(),
    }))
}

fn attempts_of(records: &[JournalRecord]) -> Vec<JournalAttempt> {
    records
        .iter()
        .filter_map(|r| match r {
            JournalRecord::Attempt(a) => Some(a.as_ref().clone()),
            JournalRecord::Round(_) => None,
        })
        .collect()
}

fn rounds_of(records: &[JournalRecord]) -> Vec<JournalRound> {
    records
        .iter()
        .filter_map(|r| match r {
            JournalRecord::Round(round) => Some(round.clone()),
            JournalRecord::Attempt(_) => None,
        })
        .collect()
}

fn header(strategy: SearchStrategy, n: u32, max: u32, devices: u32) -> JournalHeader {
    JournalHeader {
        format: JOURNAL_FORMAT,
        original_session: "s".into(),
        crash_id: "c1".into(),
        target: TargetIdentity::Fingerprint {
            fingerprint: "0123456789ab".into(),
        },
        strategy,
        max_replays: max,
        baseline_tries: 1,
        candidates: (1..=n).collect(),
        reproves: None,
        device: "sim-1".into(),
        devices,
        session_files: String::new(),
        app_version: None,
        whittle_version: "0.1.0".into(),
        started_at: "2026-01-01T00:00:00Z".into(),
    }
}

/// The first `k` records, through the journal's own file format.
fn journal_bytes(header: &JournalHeader, records: &[JournalRecord]) -> Vec<u8> {
    sealed_journal(header, records)
}

#[allow(clippy::too_many_arguments)]
fn check(
    strategy: SearchStrategy,
    n: u32,
    essential: Vec<u32>,
    percent: u64,
    max: u32,
    devices: usize,
    seed: u64,
    timing: u64,
) -> usize {
    let device = Device {
        essential,
        percent,
        seed,
    };
    let fresh = || strategy.reducer((1..=n).collect(), max).unwrap();
    let mut journal = Vec::new();
    let mut scheduler = Scheduler::new(fresh());
    let (whole, replayed) = drive(
        &mut scheduler,
        &mut RoundCursor::default(),
        devices,
        &device,
        &mut journal,
        timing,
    );
    assert_eq!(replayed.len(), attempts_of(&journal).len());
    let head = header(strategy, n, max, u32::try_from(devices).unwrap());
    // The whole journal rebuilds every round exactly where and as it was handed out.
    let all = parse_journal(&journal_bytes(&head, &journal)).unwrap();
    restore(fresh(), &all.rounds, &all.attempts).expect("the whole journal restores");
    for k in 0..=journal.len() {
        let read = parse_journal(&journal_bytes(&head, &journal[..k])).unwrap();
        assert_eq!(read.attempts, attempts_of(&journal[..k]), "round-trips");
        assert_eq!(read.rounds, rounds_of(&journal[..k]), "round-trips");
        let restored =
            restore(fresh(), &read.rounds, &read.attempts).unwrap_or_else(|e| panic!("k={k}: {e}"));
        let verdicts = read
            .attempts
            .iter()
            .filter(|a| a.outcome.verdict().is_some())
            .count();
        assert!(
            (verdicts..=read.attempts.len()).contains(&(restored.restored as usize)),
            "k={k}: every recorded verdict is used"
        );
        let mut scheduler = restored.scheduler;
        let mut cursor = restored.cursor;
        let mut continued = journal[..k].to_vec();
        let (result, again) = drive(
            &mut scheduler,
            &mut cursor,
            devices,
            &device,
            &mut continued,
            timing ^ 0x5eed,
        );
        assert_eq!(
            result, whole,
            "k={k}: the result differs from the uninterrupted run's"
        );
        assert_eq!(result.proof, whole.proof, "k={k}");
        // A guess stopped as unneeded has no verdict: it may run again where the
        // rebuilt search cannot yet tell it is unneeded (an earlier job runs again).
        for attempt in &again {
            assert!(
                !read
                    .attempts
                    .iter()
                    .any(|r| r.attempt == *attempt && r.outcome != AttemptOutcome::Unneeded),
                "k={k}: attempt {attempt} was in the journal and ran again"
            );
        }

        // What the resumed run journaled rebuilds too.
        let read = parse_journal(&journal_bytes(&head, &continued)).unwrap();
        restore(fresh(), &read.rounds, &read.attempts)
            .unwrap_or_else(|e| panic!("k={k}, resumed journal: {e}"));
        // Interrupted again, half-way through what the resume added: still the same.
        let k2 = k + (continued.len() - k) / 2;
        let read = parse_journal(&journal_bytes(&head, &continued[..k2])).unwrap();
        let restored = restore(fresh(), &read.rounds, &read.attempts)
            .unwrap_or_else(|e| panic!("k={k} k2={k2}: {e}"));
        let (mut scheduler, mut cursor) = (restored.scheduler, restored.cursor);
        let mut twice = continued[..k2].to_vec();
        let (result, _) = drive(
            &mut scheduler,
            &mut cursor,
            devices,
            &device,
            &mut twice,
            timing ^ 0x7a11,
        );
        assert_eq!(result, whole, "k={k} k2={k2}: resumed twice");
    }
    attempts_of(&journal)
        .iter()
        .filter(|a| a.outcome == AttemptOutcome::Unneeded)
        .count()
}

/// The property above cuts journals that hold guesses stopped as unneeded (it would
/// prove nothing about them otherwise): bisections on 4 devices stop some.
#[test]
fn journals_with_guesses_stopped_as_unneeded_resume_exactly() {
    let stopped: usize = (0..8u64)
        .map(|timing| {
            check(
                SearchStrategy::Binary,
                10,
                vec![3, 8],
                100,
                40,
                4,
                timing,
                timing,
            )
        })
        .sum();
    assert!(stopped > 0, "no guess was stopped");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn an_interrupted_run_resumed_after_any_attempt_ends_as_the_uninterrupted_one(
        strategy in prop::sample::select(SearchStrategy::ALL.to_vec()),
        n in 1u32..=10,
        essential_mask in any::<u16>(),
        flaky in any::<bool>(),
        max in 1u32..=45,
        devices in 1usize..=4,
        seed in any::<u64>(),
        timing in any::<u64>(),
    ) {
        let essential: Vec<u32> = (1..=n).filter(|s| essential_mask & (1 << (s - 1)) != 0).collect();
        check(strategy, n, essential, if flaky { 65 } else { 100 }, max, devices, seed, timing);
    }
}

/// The jobs of an interrupted run that have no verdict (a device error, a cancel) are
/// run again under their own numbers; the recorded verdicts after them are kept.
#[test]
fn attempts_without_a_verdict_after_the_last_round_run_again_under_their_numbers() {
    let mut tested = 0;
    for strategy in SearchStrategy::ALL {
        for timing in 0..20u64 {
            let device = Device {
                essential: vec![3, 7],
                percent: 100,
                seed: 7,
            };
            let fresh = || strategy.reducer((1..=8).collect(), 40).unwrap();
            let mut journal = Vec::new();
            let (whole, _) = drive(
                &mut Scheduler::new(fresh()),
                &mut RoundCursor::default(),
                3,
                &device,
                &mut journal,
                timing,
            );
            // A cut after which at least two recorded attempts wait for their turn.
            let Some((cut, waiting)) = (1..=journal.len()).rev().find_map(|k| {
                let rounds = rounds_of(&journal[..k]);
                let last = rounds.last()?;
                let handed: Vec<u32> = rounds.iter().flat_map(|r| r.attempts.clone()).collect();
                let tail = &handed[last.completed_before as usize..];
                let recorded: Vec<u32> = attempts_of(&journal[..k])
                    .iter()
                    .map(|a| a.attempt)
                    .filter(|a| tail.contains(a))
                    .collect();
                (recorded.len() >= 2).then_some((k, recorded))
            }) else {
                continue;
            };
            let mut kept = journal[..cut].to_vec();
            let mut lost: Vec<u32> = waiting.clone();
            lost.sort_unstable();
            lost.truncate(2);
            for record in &mut kept {
                if let JournalRecord::Attempt(a) = record {
                    if a.attempt == lost[0] {
                        a.outcome = AttemptOutcome::Failed {
                            cause: whittle_core::engine::FailureCause::Tool {
                                step: None,
                                detail: "device gone".into(),
                            },
                        };
                    } else if a.attempt == lost[1] {
                        a.outcome = AttemptOutcome::Cancelled;
                    }
                }
            }
            let restored = restore(fresh(), &rounds_of(&kept), &attempts_of(&kept)).unwrap();
            let verdicts = attempts_of(&kept)
                .iter()
                .filter(|a| a.outcome.verdict().is_some())
                .count();
            assert!(
                (verdicts..=attempts_of(&kept).len() - 2).contains(&(restored.restored as usize))
            );
            let (mut scheduler, mut cursor) = (restored.scheduler, restored.cursor);
            let (result, again) = drive(&mut scheduler, &mut cursor, 3, &device, &mut kept, 99);
            assert_eq!(result, whole, "{strategy}");
            let rerun: Vec<u32> = again.iter().copied().filter(|a| lost.contains(a)).collect();
            assert_eq!(
                rerun, lost,
                "{strategy}: the two are run again, once each, in order"
            );
            let with_verdicts = attempts_of(&kept);
            for a in &waiting[..] {
                let verdict = with_verdicts
                    .iter()
                    .any(|r| r.attempt == *a && r.outcome.verdict().is_some());
                if !lost.contains(a) && verdict {
                    assert!(
                        !again.contains(a),
                        "{strategy}: {a} had a verdict and ran again"
                    );
                }
            }
            tested += 1;
        }
    }
    assert!(
        tested >= SearchStrategy::ALL.len(),
        "only {tested} cuts found"
    );
}

/// A journal that does not line up with what the engine asks refuses the resume.
#[test]
fn a_journal_of_another_run_is_refused() {
    let device = Device {
        essential: vec![2],
        percent: 100,
        seed: 1,
    };
    let mut journal = Vec::new();
    drive(
        &mut Scheduler::new(SearchStrategy::Seed.reducer((1..=6).collect(), 30).unwrap()),
        &mut RoundCursor::default(),
        2,
        &device,
        &mut journal,
        3,
    );
    let (rounds, attempts) = (rounds_of(&journal), attempts_of(&journal));
    // The same records against a longer path: attempt 1 replayed [1..6], not [1..7].
    let other = SearchStrategy::Seed.reducer((1..=7).collect(), 30).unwrap();
    let Err(err) = restore(other, &rounds, &attempts) else {
        panic!("a journal of another run was accepted");
    };
    assert!(err.to_string().contains("attempt 1"), "{err}");
    let seed = || SearchStrategy::Seed.reducer((1..=6).collect(), 30).unwrap();
    // A gap: round 2 lost but round 3 recorded.
    let gap: Vec<JournalRound> = rounds.iter().filter(|r| r.round != 2).cloned().collect();
    assert!(matches!(
        restore(seed(), &gap, &attempts),
        Err(RestoreError::Gap { round: 2 })
    ));
    // A round said to be handed out after more outcomes than there were jobs before it.
    let mut late = rounds.clone();
    let last = late.len() - 1;
    late[last].completed_before = late[..last]
        .iter()
        .map(|r| u32::try_from(r.attempts.len()).unwrap())
        .sum::<u32>()
        + 1;
    assert!(matches!(
        restore(seed(), &late, &attempts),
        Err(RestoreError::TooEarly { .. })
    ));
    // An attempt no round handed out.
    assert!(restore(seed(), &rounds[..1], &attempts).is_err());
}
