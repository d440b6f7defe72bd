//! The journal key's check: every run's journal is sealed with it, and a resume or an
//! approval read from files checks the seal with it, so a key that is damaged, readable
//! by others or cannot be kept makes later runs unapprovable (or forgeable) — said here,
//! before a tester finds out at Approve.

use std::path::Path;

use super::check::{Check, CheckName, Finding};
use crate::journal_key::{key_file, key_state, KeyState};

pub fn journal_key_check() -> Check {
    check_of(key_file().as_deref())
}

fn check_of(path: Option<&Path>) -> Check {
    let subject = path.map(|p| p.display().to_string());
    let check = |finding, detail: String| {
        let check = Check::new(CheckName::JournalKey, finding, detail);
        match &subject {
            Some(subject) => check.subject(subject.clone()),
            None => check,
        }
    };
    match key_state(path) {
        KeyState::Ready => check(
            Finding::JournalKeyReady,
            "runs are sealed with this installation's key".into(),
        ),
        KeyState::NotMadeYet => check(
            Finding::JournalKeyNotMadeYet,
            "no key yet: the first run makes it".into(),
        ),
        KeyState::Damaged { detail } => check(Finding::JournalKeyDamaged, detail).fail(
            "the next run puts the damaged key aside and makes a new one; runs sealed with the old key can no longer be resumed or approved here: re-prove them (whittle minimize --reprove <evidence>)",
        ),
        KeyState::NotPrivate { mode } => check(
            Finding::JournalKeyNotPrivate,
            format!("the key may be read by others (mode {mode:o}): they could forge a run's seal"),
        )
        .fail(format!(
            "chmod 600 {}",
            subject.clone().unwrap_or_default()
        )),
        KeyState::Unusable { detail } => check(Finding::JournalKeyUnusable, detail).fail(
            "give Whittle a data folder it can write ($XDG_DATA_HOME or $HOME/.local/share): until then no run can be resumed or approved by a later process",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doctor::CheckStatus;

    #[test]
    fn every_state_of_the_key_is_a_line_and_only_a_usable_key_passes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.key");
        let fresh = check_of(Some(&path));
        assert_eq!(
            (fresh.finding, fresh.status),
            (Finding::JournalKeyNotMadeYet, CheckStatus::Ok)
        );
        std::fs::write(&path, b"short").unwrap();
        let damaged = check_of(Some(&path));
        assert_eq!(
            (damaged.finding, damaged.status),
            (Finding::JournalKeyDamaged, CheckStatus::Fail)
        );
        assert!(damaged.fix.unwrap().contains("--reprove"));
        assert_eq!(check_of(None).finding, Finding::JournalKeyUnusable);
    }
}
