//! Resume against the real simulator and report server (issue #20). The disk fills up
//! while an attempt is journaled: the run ends failed, the evidence keeps every attempt
//! before it, and a later resume goes on in the same evidence session to the same
//! minimal path as an uninterrupted run, without replaying what was kept. A resume is
//! refused, naming the difference, when the session's files, the strategy or the budget
//! changed, while another process holds the run, and once the run has ended.
//!
//! The fault is `atomic::fault` (thread-local), so each test runs on one thread.

use crate::{client_support, live_support};

use std::path::{Path, PathBuf};

use client_support::{servers_bin, Setup};
use live_support::{evidence_id, fast, run_fresh, SESSION};
use tokio_util::sync::CancellationToken;
use whittle_core::engine::SearchStop;
use whittle_core::model::SessionStatus;
use whittle_core::strategy::SearchStrategy;
use whittle_service::atomic::fault::{self, Stage};
use whittle_service::client::Hub;
use whittle_service::run::{
    can_resume, discard, read_journal, read_recorded_run, resume, run_state, ResumeError,
    ResumeOptions, RunEnd, RunError, RunLock, RunOutcome, RunState,
};

async fn run_resume(s: &Setup, opts: ResumeOptions) -> Result<RunOutcome, RunError> {
    let hub = Hub::connect(&s.config).await.unwrap();
    let outcome = resume(&hub, &s.config, opts, |_| {}, CancellationToken::new()).await;
    hub.shutdown().await;
    outcome
}

/// A run whose disk fills up while attempt `kept + 1` is journaled.
async fn run_until_disk_full(s: &Setup, kept: u32) -> (RunOutcome, PathBuf) {
    // The header is the journal's first append; then `kept` attempts make it, each
    // after its round's line (one device: a round per attempt); the next round's line
    // too, so its attempt runs and the disk is full when it is recorded.
    fault::fail_after(Stage::Append, 2 + 2 * kept);
    let outcome = run_fresh(s).await;
    fault::clear();
    let dir = outcome.evidence_dir.clone().unwrap();
    (outcome, dir)
}

/// "Start proc" lines (one per app launch) in the evidence's log, per capture: the
/// simulator heads each capture with its seed line.
fn launches_per_capture(evidence: &Path) -> Vec<usize> {
    let log = std::fs::read_to_string(evidence.join("logcat.txt")).unwrap();
    let mut captures = Vec::new();
    for line in log.lines() {
        if line.contains("flaky-crash seed") {
            captures.push(0);
        } else if line.contains("Start proc") {
            *captures.last_mut().expect("a capture header first") += 1;
        }
    }
    captures
}

fn evidence_sequence(evidence: &Path) -> Vec<(u32, String, Vec<u32>, bool)> {
    read_recorded_run(evidence)
        .unwrap()
        .attempts
        .iter()
        .map(|a| {
            (
                a.attempt,
                format!("{:?}", a.phase),
                a.candidate.clone(),
                a.verdict.reproduced(),
            )
        })
        .collect()
}

#[tokio::test(flavor = "current_thread")]
async fn a_full_disk_ends_the_run_failed_and_a_resume_finishes_it_without_replaying_the_kept() {
    let Some(bin) = servers_bin() else { return };
    let whole = fast(&bin);
    let uninterrupted = run_fresh(&whole).await;
    assert_eq!(uninterrupted.summary.end, RunEnd::Minimized);
    let whole_dir = uninterrupted.evidence_dir.clone().unwrap();

    let s = fast(&bin);
    let (failed, evidence) = run_until_disk_full(&s, 3).await;
    let Some(SearchStop::RuntimeFailed { cause }) = failed.search.as_ref().unwrap().stop.clone()
    else {
        panic!("not a runtime failure: {}", failed.report)
    };
    assert!(
        matches!(failed.summary.end, RunEnd::RuntimeFailed { .. }),
        "{}",
        failed.report
    );
    let why = format!("{cause:?}");
    assert!(why.contains("No space left on device"), "{why}");
    let journal = read_journal(&evidence).unwrap();
    assert_eq!(
        journal.attempts.len(),
        3,
        "every attempt before the full disk"
    );
    assert!(journal.torn_tail, "the fourth record was cut short");
    let recorded = read_recorded_run(&evidence).unwrap();
    assert_eq!(
        recorded
            .attempts
            .iter()
            .map(|a| a.attempt)
            .collect::<Vec<_>>(),
        [1, 2, 3],
        "the evidence keeps the three, and not the unsaved fourth"
    );
    assert_eq!(
        launches_per_capture(&evidence),
        [4],
        "attempt 4 ran before its record failed"
    );

    let resumed = run_resume(&s, ResumeOptions::new(evidence_id(&evidence)))
        .await
        .unwrap();
    assert_eq!(resumed.summary.end, RunEnd::Minimized, "{}", resumed.report);
    assert_eq!(
        resumed.evidence_dir.as_deref(),
        Some(evidence.as_path()),
        "one evidence session"
    );
    assert_eq!(
        resumed.summary.minimal_path,
        uninterrupted.summary.minimal_path
    );
    assert_eq!(resumed.summary.attempts, uninterrupted.summary.attempts);
    assert_eq!(
        resumed.summary.rating.confidence,
        uninterrupted.summary.rating.confidence
    );
    assert_eq!(
        resumed.search.as_ref().unwrap().proof,
        uninterrupted.search.as_ref().unwrap().proof
    );
    assert_eq!(evidence_sequence(&evidence), evidence_sequence(&whole_dir));
    // The resumed capture launched the app once per attempt from 4 on: none of 1–3 again.
    let launches = launches_per_capture(&evidence);
    assert_eq!(launches.len(), 2, "a new capture for the resumed run");
    assert_eq!(launches[1] as u32, resumed.summary.attempts - 3);
    // The report and the result say it was resumed, and when.
    assert_eq!(resumed.resumed.len(), 1);
    assert_eq!(resumed.resumed[0].after_attempts, 3);
    assert!(resumed.report.contains("Resumed: "), "{}", resumed.report);
    let report = std::fs::read_to_string(evidence.join("report.md")).unwrap();
    assert!(
        report.contains(&format!("Resumed: {}", resumed.resumed[0].at)),
        "{report}"
    );
    let result = resumed.pending.as_ref().unwrap();
    assert_eq!(result.resumed.as_deref(), Some(resumed.resumed.as_slice()));

    // Finished with a verdict: nothing left to resume.
    let again = run_resume(&s, ResumeOptions::new(evidence_id(&evidence))).await;
    assert!(
        matches!(&again, Err(RunError::Resume(ResumeError::Finished { .. }))),
        "{:?}",
        again.err()
    );
}

#[tokio::test(flavor = "current_thread")]
async fn a_resume_is_refused_naming_what_changed_and_leaves_the_evidence_as_it_was() {
    let Some(bin) = servers_bin() else { return };
    let s = fast(&bin);
    let (_, evidence) = run_until_disk_full(&s, 2).await;
    let id = evidence_id(&evidence);
    let snapshot = || {
        ["journal.jsonl", "steps.jsonl", "meta.json", "result.json"]
            .map(|f| std::fs::read(evidence.join(f)).unwrap())
    };
    let before = snapshot();

    let mut other = ResumeOptions::new(&id);
    other.strategy = Some(SearchStrategy::Binary);
    other.max_replays = std::num::NonZeroU32::new(99);
    let err = run_resume(&s, other).await.expect_err("refused");
    let words = err.to_string();
    assert!(words.contains("strategy seed, not binary"), "{words}");
    assert!(words.contains("budget was 30 replays, not 99"), "{words}");

    // The session's steps change (a tester edited the recording): refused.
    let steps = s
        .dir
        .path()
        .join("workspace/sessions")
        .join(SESSION)
        .join("steps.jsonl");
    let original = std::fs::read(&steps).unwrap();
    let mut edited = original.clone();
    edited.extend_from_slice(b"\n");
    std::fs::write(&steps, &edited).unwrap();
    let err = run_resume(&s, ResumeOptions::new(&id))
        .await
        .expect_err("refused");
    assert!(
        err.to_string()
            .contains(&format!("the files of session {SESSION} changed")),
        "{err}"
    );
    std::fs::write(&steps, &original).unwrap();

    // Another process holds the run (it is going on): refused, also once its
    // `run.lock` was deleted, and made again (issue 30: a deletion freed the run).
    let held = RunLock::acquire(&evidence).unwrap();
    let err = run_resume(&s, ResumeOptions::new(&id))
        .await
        .expect_err("refused");
    assert!(err.to_string().contains("still going on"), "{err}");
    let note = evidence.join(whittle_service::run::LOCK_FILE);
    std::fs::remove_file(&note).unwrap();
    let err = run_resume(&s, ResumeOptions::new(&id))
        .await
        .expect_err("refused with its lock file deleted");
    assert!(err.to_string().contains("still going on"), "{err}");
    std::fs::write(&note, "").unwrap();
    let err = run_resume(&s, ResumeOptions::new(&id))
        .await
        .expect_err("refused with its lock file made again");
    assert!(err.to_string().contains("still going on"), "{err}");
    assert_eq!(
        run_state(&evidence, SessionStatus::Failed),
        RunState::Running,
        "listed as running, not interrupted"
    );
    drop(held);

    assert_eq!(snapshot(), before, "a refused resume changes nothing");
    // With everything as it was, the same resume goes on.
    let resumed = run_resume(&s, ResumeOptions::new(&id)).await.unwrap();
    assert_eq!(resumed.summary.end, RunEnd::Minimized, "{}", resumed.report);
}

#[tokio::test(flavor = "current_thread")]
async fn a_discarded_run_is_never_resumed_and_no_longer_listed_as_interrupted() {
    let Some(bin) = servers_bin() else { return };
    let s = fast(&bin);
    let (_, evidence) = run_until_disk_full(&s, 1).await;
    let id = evidence_id(&evidence);
    let workspace = s.dir.path().join("workspace");
    // As a killed run leaves it: meta still `running`, nobody holding the lock.
    let meta_path = evidence.join("meta.json");
    let mut meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&meta_path).unwrap()).unwrap();
    meta["status"] = "running".into();
    std::fs::write(&meta_path, meta.to_string()).unwrap();
    assert_eq!(
        run_state(&evidence, SessionStatus::Running),
        RunState::Interrupted
    );
    assert!(can_resume(&evidence));
    {
        let _held = RunLock::acquire(&evidence).unwrap();
        assert!(!can_resume(&evidence), "a run going on is not offered");
        assert!(matches!(
            discard(&workspace, &id),
            Err(ResumeError::Lock(_))
        ));
    }

    discard(&workspace, &id).unwrap();
    assert!(!can_resume(&evidence));
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&meta_path).unwrap()).unwrap();
    assert_eq!(meta["status"], "failed");
    assert_eq!(
        meta["extra"]["original_session"], SESSION,
        "other fields kept"
    );
    assert!(read_journal(&evidence).unwrap().discarded.is_some());
    let err = run_resume(&s, ResumeOptions::new(&id))
        .await
        .expect_err("refused");
    assert!(
        err.to_string().contains("already ended (discarded)"),
        "{err}"
    );
    assert!(discard(&workspace, &id).is_err(), "discarded once");
}

/// Issue 26, case 3: the journal is sealed and the evidence is checked against it. A
/// journal line edited, dropped, reordered, duplicated or taken from another run, or an
/// evidence step edited, makes every resume either refuse (naming what differs) or
/// yield exactly the result of the run that was never interrupted.
#[tokio::test(flavor = "current_thread")]
async fn an_edited_journal_or_evidence_never_yields_a_different_result() {
    let Some(bin) = servers_bin() else { return };
    let whole = fast(&bin);
    let uninterrupted = run_fresh(&whole).await;
    let expected = (
        uninterrupted.summary.end.clone(),
        uninterrupted.summary.minimal_path.clone(),
    );
    // A line of another run, to graft into this one.
    let elsewhere = fast(&bin);
    let (_, other) = run_until_disk_full(&elsewhere, 4).await;
    let foreign = journal_lines(&other)[2].clone();

    type Edit = fn(&mut Vec<String>, &str);
    let edits: Vec<(&str, Edit)> = vec![
        ("untouched", |_, _| {}),
        ("a verdict edited on the last attempt's line", |lines, _| {
            let last = lines
                .iter()
                .rposition(|line| line.contains("\"reproduced\":"))
                .expect("an attempt line");
            lines[last] = toggle_verdict(&lines[last], "\"reproduced\":");
        }),
        ("a candidate edited in the middle", |lines, _| {
            lines[2] = lines[2].replacen("\"candidate\":[", "\"candidate\":[99,", 1);
        }),
        ("a middle line dropped", |lines, _| {
            lines.remove(2);
        }),
        ("the last line dropped", |lines, _| {
            lines.pop();
        }),
        ("two lines swapped", |lines, _| lines.swap(2, 3)),
        ("a line duplicated", |lines, _| {
            let copy = lines[2].clone();
            lines.insert(3, copy);
        }),
        ("a line of another run", |lines, foreign| {
            lines[3] = foreign.to_owned()
        }),
    ];
    for (what, edit) in edits {
        let s = fast(&bin);
        let (_, evidence) = run_until_disk_full(&s, 5).await;
        let mut lines = journal_lines(&evidence);
        edit(&mut lines, &foreign);
        std::fs::write(evidence.join("journal.jsonl"), lines.join("\n") + "\n").unwrap();
        // Only an untouched journal or a cut tail (those attempts run again) may go on:
        // every other edit breaks the seal chain, or leaves the evidence with an attempt
        // the journal does not hold.
        let may_go_on = matches!(what, "untouched" | "the last line dropped");
        match run_resume(&s, ResumeOptions::new(evidence_id(&evidence))).await {
            Ok(resumed) => {
                assert!(may_go_on, "{what}: an edited journal was resumed");
                assert_eq!(
                    (resumed.summary.end, resumed.summary.minimal_path),
                    expected,
                    "{what}: a resume that goes on must find what the uninterrupted run found"
                );
            }
            Err(e) => {
                assert_ne!(what, "untouched", "an untouched journal resumes: {e}");
                assert!(
                    matches!(
                        e,
                        RunError::Resume(
                            ResumeError::Journal(_) | ResumeError::EvidenceDiffers { .. }
                        )
                    ),
                    "{what}: refused for the wrong reason: {e}"
                );
            }
        }
    }

    // The evidence edited instead: its attempt 2 now says the opposite of the journal.
    let s = fast(&bin);
    let (_, evidence) = run_until_disk_full(&s, 5).await;
    let steps = std::fs::read_to_string(evidence.join("steps.jsonl")).unwrap();
    let edited: Vec<String> = steps
        .lines()
        .map(|line| {
            if line.contains("\\\"attempt\\\":2,") {
                toggle_verdict(line, "\\\"reproduced\\\":")
            } else {
                line.to_owned()
            }
        })
        .collect();
    assert_ne!(
        edited.join("\n") + "\n",
        steps,
        "attempt 2's step was edited"
    );
    std::fs::write(evidence.join("steps.jsonl"), edited.join("\n") + "\n").unwrap();
    let refused = run_resume(&s, ResumeOptions::new(evidence_id(&evidence)))
        .await
        .expect_err("evidence that differs from the journal refuses the resume");
    assert!(
        matches!(
            refused,
            RunError::Resume(ResumeError::EvidenceDiffers { attempt: 2, .. })
        ),
        "{refused}"
    );
}

/// The journal's complete lines (an unfinished last one left out).
fn journal_lines(evidence: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(evidence.join("journal.jsonl")).unwrap();
    let complete = &text[..text.rfind('\n').map_or(0, |at| at + 1)];
    complete.lines().map(str::to_owned).collect()
}

/// `text` with the first verdict after `key` turned into its opposite.
fn toggle_verdict(text: &str, key: &str) -> String {
    let at = text.find(key).expect("a verdict") + key.len();
    let (head, tail) = text.split_at(at);
    if let Some(rest) = tail.strip_prefix("true") {
        format!("{head}false{rest}")
    } else {
        format!(
            "{head}true{}",
            tail.strip_prefix("false").expect("a boolean")
        )
    }
}
