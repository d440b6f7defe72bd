//! Resume, as a property (issue #20): for random sessions, strategies, budgets, flaky
//! rates and device counts, a run interrupted after every possible journaled attempt k
//! and resumed from its journal ends exactly as the uninterrupted run — same result
//! (path, attempts, flags, outcome history), same attempt sequence, same proof — and
//! never replays an attempt the journal already held. The journal goes through its real
//! file format (written, cut after k records, read back), and the live loop's own round
//! cursor decides what runs next; only the device is an oracle.

use proptest::prelude::*;
use whittle_core::engine::{ReplayOutcome, SearchResult};
use whittle_core::parallel::{Job, Scheduler};
use whittle_core::strategy::SearchStrategy;
use whittle_service::replay::{MissReason, ReplayVerdict, TargetIdentity};
use whittle_service::run::{
    parse_journal, restore, sealed_journal, AttemptOutcome, JournalAttempt, JournalHeader,
    RoundCursor, JOURNAL_FORMAT,
};

/// The app: reproduces when every essential step is replayed, and then only on some
/// attempts when `percent` < 100. The draw is keyed by the attempt number, so a resumed
/// run sees for attempt n what the uninterrupted run saw for attempt n.
#[derive(Clone)]
struct Device {
    essential: Vec<u32>,
    percent: u64,
    seed: u64,
}

impl Device {
    fn replay(&self, job: &Job) -> bool {
        let triggered = self.essential.iter().all(|s| job.candidate.contains(s));
        triggered && splitmix(self.seed ^ u64::from(job.attempt)) % 100 < self.percent
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

/// Drives the scheduler to its end the way the live loop does: the cursor's batch, each
/// job journaled as it finishes (in a shuffled order: devices finish when they finish),
/// then answered in attempt order. Returns the result and the attempts replayed.
fn drive(
    scheduler: &mut Scheduler,
    cursor: &mut RoundCursor,
    devices: usize,
    device: &Device,
    journal: &mut Vec<JournalAttempt>,
) -> (SearchResult, Vec<u32>) {
    let mut replayed = Vec::new();
    loop {
        if let Some(result) = scheduler.is_done() {
            return (result, replayed);
        }
        let batch = cursor.next(scheduler, devices);
        assert!(!batch.jobs.is_empty(), "a run that is not done has a batch");
        assert!(batch.jobs.len() <= devices);
        let mut order: Vec<usize> = (0..batch.jobs.len()).collect();
        let mut draw = splitmix(device.seed ^ u64::from(batch.round) << 20);
        for i in (1..order.len()).rev() {
            draw = splitmix(draw);
            order.swap(i, usize::try_from(draw % (i as u64 + 1)).unwrap());
        }
        let answers: Vec<bool> = batch.jobs.iter().map(|j| device.replay(j)).collect();
        for &at in &order {
            let job = &batch.jobs[at];
            replayed.push(job.attempt);
            journal.push(JournalAttempt {
                round: batch.round,
                round_jobs: batch.round_jobs,
                attempt: job.attempt,
                phase: job.phase,
                candidate: job.candidate.clone(),
                speculative: job.speculative,
                device: format!("sim-{}", at + 1),
                outcome: AttemptOutcome::Replayed {
                    verdict: verdict(answers[at]),
                },
                duration_ms: 5,
                screenshot_src: None,
                screenshot_redacted: true,
                screenshot_omitted: Some(whittle_service::evidence::ShotOmission::Cancelled),
                screenshot_before_step: None,
                finished_at: "2026-01-01T00:00:00Z".into(),
            });
        }
        for (job, &reproduced) in batch.jobs.iter().zip(&answers) {
            scheduler.complete(job.attempt, outcome(reproduced));
        }
    }
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
        device: "sim-1".into(),
        devices,
        session_files: String::new(),
        app_version: None,
        whittle_version: "0.1.0".into(),
        started_at: "2026-01-01T00:00:00Z".into(),
    }
}

/// The first `k` records, through the journal's own file format.
fn journal_bytes(header: &JournalHeader, records: &[JournalAttempt]) -> Vec<u8> {
    sealed_journal(header, records)
}

/// (attempt, phase, candidate, speculative, verdict) of every journaled attempt, in
/// attempt order.
fn sequence(records: &[JournalAttempt]) -> Vec<String> {
    let mut sorted: Vec<&JournalAttempt> = records.iter().collect();
    sorted.sort_by_key(|r| r.attempt);
    sorted
        .iter()
        .map(|r| {
            format!(
                "{} {:?} {:?} spec={} {:?}",
                r.attempt,
                r.phase,
                r.candidate,
                r.speculative,
                r.outcome.verdict().map(|v| v.reproduced)
            )
        })
        .collect()
}

fn check(
    strategy: SearchStrategy,
    n: u32,
    essential: Vec<u32>,
    percent: u64,
    max: u32,
    devices: usize,
    seed: u64,
) {
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
    );
    assert_eq!(replayed.len(), journal.len());
    let head = header(strategy, n, max, u32::try_from(devices).unwrap());
    for k in 0..=journal.len() {
        let read = parse_journal(&journal_bytes(&head, &journal[..k])).unwrap();
        assert_eq!(
            read.attempts,
            journal[..k],
            "the journal format round-trips"
        );
        let restored = restore(fresh(), &read.attempts).unwrap_or_else(|e| panic!("k={k}: {e}"));
        assert_eq!(
            restored.restored as usize, k,
            "every recorded verdict is used"
        );
        let mut scheduler = restored.scheduler;
        let mut cursor = restored.cursor;
        let mut continued = read.attempts.clone();
        let (result, again) = drive(
            &mut scheduler,
            &mut cursor,
            devices,
            &device,
            &mut continued,
        );
        assert_eq!(
            result, whole,
            "k={k}: the result differs from the uninterrupted run's"
        );
        assert_eq!(result.proof, whole.proof, "k={k}");
        assert_eq!(
            sequence(&continued),
            sequence(&journal),
            "k={k}: attempt sequence"
        );
        for attempt in &again {
            assert!(
                !journal[..k].iter().any(|r| r.attempt == *attempt),
                "k={k}: attempt {attempt} was in the journal and ran again"
            );
        }
        // Interrupted again, half-way through what the resume added: still the same.
        let k2 = k + (continued.len() - k) / 2;
        let read = parse_journal(&journal_bytes(&head, &continued[..k2])).unwrap();
        let restored =
            restore(fresh(), &read.attempts).unwrap_or_else(|e| panic!("k={k} k2={k2}: {e}"));
        let (mut scheduler, mut cursor) = (restored.scheduler, restored.cursor);
        let mut twice = read.attempts.clone();
        let (result, _) = drive(&mut scheduler, &mut cursor, devices, &device, &mut twice);
        assert_eq!(result, whole, "k={k} k2={k2}: resumed twice");
        assert_eq!(sequence(&twice), sequence(&journal), "k={k} k2={k2}");
    }
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
    ) {
        let essential: Vec<u32> = (1..=n).filter(|s| essential_mask & (1 << (s - 1)) != 0).collect();
        check(strategy, n, essential, if flaky { 65 } else { 100 }, max, devices, seed);
    }
}

/// The interrupted round's attempts that have no verdict (a device error, a cancel) are
/// run again under their own numbers; the round's recorded verdicts are kept.
#[test]
fn attempts_without_a_verdict_in_the_last_round_run_again_under_their_numbers() {
    for strategy in SearchStrategy::ALL {
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
        );
        // Cut inside a round of three: its first finished job failed, another was cancelled.
        let cut = journal
            .iter()
            .position(|r| r.round_jobs == 3 && r.round > 1)
            .expect("a full round of three");
        let round = journal[cut].round;
        let mut kept: Vec<JournalAttempt> = journal
            .iter()
            .filter(|r| r.round <= round)
            .cloned()
            .collect();
        let of_round: Vec<usize> = (0..kept.len())
            .filter(|&i| kept[i].round == round)
            .collect();
        kept[of_round[0]].outcome = AttemptOutcome::Failed {
            cause: whittle_core::engine::FailureCause::Tool {
                step: None,
                detail: "device gone".into(),
            },
        };
        kept[of_round[1]].outcome = AttemptOutcome::Cancelled;
        let lost = [kept[of_round[0]].attempt, kept[of_round[1]].attempt];
        let restored = restore(fresh(), &kept).unwrap();
        assert_eq!(restored.restored as usize, kept.len() - 2);
        let (mut scheduler, mut cursor) = (restored.scheduler, restored.cursor);
        let (result, again) = drive(&mut scheduler, &mut cursor, 3, &device, &mut kept);
        assert_eq!(result, whole, "{strategy}");
        let mut rerun: Vec<u32> = again.iter().copied().filter(|a| lost.contains(a)).collect();
        rerun.sort_unstable();
        let mut expected = lost.to_vec();
        expected.sort_unstable();
        assert_eq!(
            rerun, expected,
            "{strategy}: the two are run again, once each"
        );
    }
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
        1,
        &device,
        &mut journal,
    );
    // The same records against a longer path: attempt 1 replayed [1..6], not [1..7].
    let other = SearchStrategy::Seed.reducer((1..=7).collect(), 30).unwrap();
    let Err(err) = restore(other, &journal) else {
        panic!("a journal of another run was accepted");
    };
    assert!(err.to_string().contains("attempt 1"), "{err}");
    // A gap: round 2 lost but round 3 recorded.
    let gap: Vec<JournalAttempt> = journal.iter().filter(|r| r.round != 2).cloned().collect();
    let seed = SearchStrategy::Seed.reducer((1..=6).collect(), 30).unwrap();
    assert!(restore(seed, &gap).is_err());
}
