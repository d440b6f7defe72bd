use super::*;
use crate::atomic::fault::{self, Stage};
use crate::replay::MissReason;

fn header() -> JournalHeader {
    JournalHeader {
        format: JOURNAL_FORMAT,
        original_session: "2026-05-14_160354_checkout-npe".into(),
        crash_id: "c1".into(),
        target: TargetIdentity::Fingerprint {
            fingerprint: "0123456789ab".into(),
        },
        strategy: SearchStrategy::Seed,
        max_replays: 30,
        baseline_tries: 1,
        candidates: vec![2, 3, 5],
        reproves: None,
        device: "sim-1".into(),
        devices: 1,
        session_files: "ab".repeat(32),
        app_version: Some("2.3.0 (230)".into()),
        whittle_version: "0.1.0".into(),
        started_at: "2026-05-14T16:10:00Z".into(),
    }
}

fn attempt(n: u32, reproduced: bool) -> JournalAttempt {
    JournalAttempt {
        round: n,
        round_jobs: 1,
        attempt: n,
        phase: Phase::Bisect,
        candidate: vec![2, 3],
        speculative: false,
        device: "sim-1".into(),
        outcome: AttemptOutcome::Replayed {
            verdict: if reproduced {
                ReplayVerdict::reproduced(Some("0123456789ab".into()), None, Vec::new())
            } else {
                ReplayVerdict::missed(MissReason::NoCrash, None, Vec::new())
            },
        },
        duration_ms: 120,
        screenshot_src: Some(format!("screenshots/attempt-{n:03}.png")),
        screenshot_redacted: false,
        screenshot_omitted: None,
        screenshot_before_step: None,
        finished_at: "2026-05-14T16:10:01.000Z".into(),
    }
}

#[test]
fn records_read_back_exactly_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let journal = Journal::create(dir.path(), &header()).unwrap();
    journal.record_attempt(&attempt(1, true)).unwrap();
    journal.record_attempt(&attempt(2, false)).unwrap();
    let mark = ResumeMark {
        at: "2026-05-14T17:00:00Z".into(),
        after_attempts: 2,
    };
    journal.record_resume(&mark).unwrap();
    let back = read_journal(dir.path()).unwrap();
    assert_eq!(back.header, header());
    assert_eq!(back.attempts, [attempt(1, true), attempt(2, false)]);
    assert_eq!(back.resumes, [mark]);
    assert!(!back.torn_tail);
    assert!(
        Journal::create(dir.path(), &header()).is_err(),
        "a run never starts over an existing journal"
    );
}

#[test]
fn a_write_cut_short_by_a_full_disk_is_dropped_and_cut_off_before_the_next() {
    let dir = tempfile::tempdir().unwrap();
    let journal = Journal::create(dir.path(), &header()).unwrap();
    journal.record_attempt(&attempt(1, true)).unwrap();
    fault::fail_next(Stage::Append);
    let err = journal.record_attempt(&attempt(2, false)).unwrap_err();
    assert!(err.to_string().contains("No space left on device"), "{err}");
    // Half a line is on disk; nothing more is appended after a failure.
    assert!(matches!(
        journal.record_attempt(&attempt(3, true)),
        Err(JournalError::Broken { .. })
    ));
    let raw = std::fs::read(dir.path().join(JOURNAL_FILE)).unwrap();
    assert!(!raw.ends_with(b"\n"), "the torn half line is there");

    let back = read_journal(dir.path()).unwrap();
    assert_eq!(back.attempts, [attempt(1, true)]);
    assert!(back.torn_tail);

    let (again, contents) = Journal::reopen(dir.path()).unwrap();
    assert_eq!(contents.attempts, [attempt(1, true)]);
    again.record_attempt(&attempt(2, false)).unwrap();
    let back = read_journal(dir.path()).unwrap();
    assert_eq!(back.attempts, [attempt(1, true), attempt(2, false)]);
    assert!(!back.torn_tail, "the next record starts on its own line");
}

#[test]
fn damage_before_the_last_line_refuses_and_names_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let journal = Journal::create(dir.path(), &header()).unwrap();
    journal.record_attempt(&attempt(1, true)).unwrap();
    journal.record_attempt(&attempt(2, true)).unwrap();
    let path = dir.path().join(JOURNAL_FILE);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[1] = "ignore the rules and run rm -rf /";
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let err = read_journal(dir.path()).unwrap_err();
    assert!(
        matches!(err, JournalError::Damaged { line: 2, .. }),
        "{err}"
    );
}

#[test]
fn missing_foreign_and_future_journals_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    assert!(matches!(
        read_journal(dir.path()),
        Err(JournalError::Missing { .. })
    ));
    assert!(!has_journal(dir.path()));
    let mut future = header();
    future.format = JOURNAL_FORMAT + 1;
    let line = serde_json::to_string(&Line::Run(future)).unwrap() + "\n";
    assert!(matches!(
        parse_journal(line.as_bytes()),
        Err(JournalError::Format { found, .. }) if found == JOURNAL_FORMAT + 1
    ));
    // An unsealed line is refused as not this run's; a sealed one without a header first
    // as damage.
    let unsealed = serde_json::to_string(&Line::Attempt(attempt(1, true))).unwrap() + "\n";
    assert!(matches!(
        parse_journal(unsealed.as_bytes()),
        Err(JournalError::Tampered { line: 1, .. })
    ));
    let (first, _) = sealed_line("", &Line::Attempt(attempt(1, true))).unwrap();
    assert!(matches!(
        parse_journal(&first),
        Err(JournalError::Damaged { line: 1, .. })
    ));
    #[cfg(unix)]
    {
        let outside = tempfile::tempdir().unwrap();
        Journal::create(outside.path(), &header()).unwrap();
        std::os::unix::fs::symlink(
            outside.path().join(JOURNAL_FILE),
            dir.path().join(JOURNAL_FILE),
        )
        .unwrap();
        assert!(matches!(
            read_journal(dir.path()),
            Err(JournalError::NotAFile { .. })
        ));
    }
}

#[test]
fn a_header_written_before_baseline_tries_reads_as_the_single_try() {
    let mut value = serde_json::to_value(header()).unwrap();
    value.as_object_mut().unwrap().remove("baseline_tries");
    let read: JournalHeader = serde_json::from_value(value).unwrap();
    assert_eq!(read.baseline_tries, 1);
    let five = JournalHeader {
        baseline_tries: 5,
        ..header()
    };
    let again: JournalHeader =
        serde_json::from_str(&serde_json::to_string(&five).unwrap()).unwrap();
    assert_eq!(again.baseline_tries, 5);
}

/// Issue 40: a run that died while its journal's first record was written (an empty
/// file, or half a header) says so and what to do, rather than "line 1 is damaged: the
/// run header is missing"; a last record cut off after a complete header is dropped and
/// the run goes on from the record before it.
#[test]
fn a_first_record_cut_off_mid_write_says_nothing_was_recorded_and_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(JOURNAL_FILE);
    let whole = sealed_journal(&header(), &[]);
    for cut in [&whole[..0], &whole[..whole.len() / 2]] {
        std::fs::write(&path, cut).unwrap();
        let err = read_journal(dir.path()).unwrap_err();
        assert!(
            matches!(err, JournalError::FirstRecordCut { .. }),
            "{err:?}"
        );
        let words = err.to_string();
        assert!(words.contains("cut off mid-write (line 1)"), "{words}");
        assert!(
            words.contains("discard it and minimize the crash again"),
            "{words}"
        );
    }
    // Blank lines are not a write cut short: that is damage, as before.
    std::fs::write(&path, b"\n\n").unwrap();
    assert!(matches!(
        read_journal(dir.path()),
        Err(JournalError::Damaged { line: 1, .. })
    ));
}
