//! The exit codes of `whittle`: one table, each outcome its own code, the same for every
//! command (docs/design.md §8, docs/cli.md). Codes are ordered from the best outcome to
//! the worst, so `minimize --all` exits with the largest of its items' codes. Every
//! `--help` ends with this table ([`Exit::table`]) and every `--json` object carries
//! its code as `exit`.

use std::process::ExitCode;

use whittle_service::api::{Check, CheckStatus, DoctorReport, Finding};
use whittle_service::api::{RefusalStatus, RunRefusal};
use whittle_service::api::{RunEnd, RunError};
use whittle_text::{ExitMeaning, ExitWords};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exit {
    /// Minimized with the proof complete (`RunEnd::Minimized`, high confidence); verify:
    /// every replay reproduced; any other command: done as asked.
    Proven = 0,
    /// A reproducing path whose minimality is not proven (`RunEnd::Unproven`); verify:
    /// some replays reproduced.
    Unproven = 1,
    /// The crash did not reproduce (maybe fixed); `import --record`: the flow ran to its
    /// end without a crash; verify: no replay reproduced.
    NotReproduced = 2,
    /// Refused input: bad arguments or configuration, an unusable session, evidence or
    /// bundle (no crash, no live run possible, a resume refused); nothing was replayed.
    Refused = 3,
    /// A device, server, log capture or disk failure.
    Infrastructure = 4,
    /// SIGINT, SIGTERM or SIGHUP (or an MCP client's cancel): the run finalized its
    /// evidence and can be resumed.
    Cancelled = 5,
    /// `import --record` only: the replay stopped before the flow's end (an element not
    /// found), without a crash: neither passed nor a crash.
    Stopped = 6,
}

impl Exit {
    /// Every code, in the table's order.
    pub const ALL: [Exit; 7] = [
        Exit::Proven,
        Exit::Unproven,
        Exit::NotReproduced,
        Exit::Refused,
        Exit::Infrastructure,
        Exit::Cancelled,
        Exit::Stopped,
    ];

    pub fn code(self) -> ExitCode {
        ExitCode::from(self.number())
    }

    /// The number the process exits with (and `--json`'s `exit`).
    pub fn number(self) -> u8 {
        self as u8
    }

    /// The `exit` field every `--json` object carries.
    pub fn json(self) -> serde_json::Value {
        self.number().into()
    }

    /// The code numbered `number` (a `ToolFailure`'s `exit`); a number outside the table
    /// is a failure.
    pub fn of_number(number: u8) -> Exit {
        Exit::ALL
            .into_iter()
            .find(|e| e.number() == number)
            .unwrap_or(Exit::Infrastructure)
    }

    /// The table's line for this code, in `words`' language.
    pub fn meaning(self, words: &ExitWords) -> &ExitMeaning {
        match self {
            Exit::Proven => &words.proven,
            Exit::Unproven => &words.unproven,
            Exit::NotReproduced => &words.not_reproduced,
            Exit::Refused => &words.refused,
            Exit::Infrastructure => &words.failed,
            Exit::Cancelled => &words.cancelled,
            Exit::Stopped => &words.stopped,
        }
    }

    /// The table `--help` ends with: the heading, then `  N  outcome  what it covers`.
    pub fn table(words: &ExitWords) -> String {
        let width = Exit::ALL
            .iter()
            .map(|e| columns(e.meaning(words).outcome))
            .max()
            .unwrap_or(0);
        let mut out = format!("{}\n", words.heading);
        for exit in Exit::ALL {
            let meaning = exit.meaning(words);
            let pad = width - columns(meaning.outcome);
            out.push_str(&format!(
                "  {}  {}{}  {}\n",
                exit.number(),
                meaning.outcome,
                " ".repeat(pad),
                meaning.covers
            ));
        }
        out
    }

    pub fn of_end(end: &RunEnd) -> Exit {
        match end {
            RunEnd::Minimized => Exit::Proven,
            RunEnd::Unproven => Exit::Unproven,
            RunEnd::NotReproduced => Exit::NotReproduced,
            // The session's plan allows no live run: nothing was replayed.
            RunEnd::Static => Exit::Refused,
            RunEnd::CaptureFailed { .. } | RunEnd::RuntimeFailed { .. } => Exit::Infrastructure,
            RunEnd::Cancelled => Exit::Cancelled,
        }
    }

    pub fn of_error(error: &RunError) -> Exit {
        Exit::of_refusal(&RunRefusal::of(error))
    }

    /// A run refused or failed before its evidence existed: the request, the
    /// configuration or what it names → refused; the infrastructure (a device, a
    /// server, the file system) → failed; a cancel → cancelled.
    pub fn of_refusal(refusal: &RunRefusal) -> Exit {
        match refusal {
            RunRefusal::InvalidCount { .. }
            | RunRefusal::InvalidArgument { .. }
            | RunRefusal::ConfigUnusable { .. }
            | RunRefusal::SessionNotFound { .. }
            | RunRefusal::SessionUnusable { .. }
            | RunRefusal::NoCrash
            | RunRefusal::NeedsCrash { .. }
            | RunRefusal::CrashNotFound { .. }
            | RunRefusal::NeedsDevice { .. }
            | RunRefusal::DeviceNotFound { .. }
            | RunRefusal::NeedsPackage { .. }
            // A path with a step the ui server cannot replay: the roles' configuration.
            | RunRefusal::MissingTool { .. }
            | RunRefusal::EvidenceNotFound { .. }
            // Still running, already ended, changed since, or unreadable evidence:
            // refused, nothing was replayed.
            | RunRefusal::ResumeRefused { .. }
            // The run to re-prove has nothing to start from here: nothing replayed.
            | RunRefusal::ReproofRefused { .. } => Exit::Refused,
            RunRefusal::NoDevice
            // Held by another run: the device is not available now, as with none online.
            | RunRefusal::DeviceBusy { .. }
            | RunRefusal::DeviceLockFailed { .. }
            | RunRefusal::ServerFailed { .. }
            | RunRefusal::EvidenceLockFailed { .. } => Exit::Infrastructure,
            RunRefusal::Cancelled => Exit::Cancelled,
            // A server that did not start is infrastructure; a role unassigned, without
            // its tools or refused its token is configuration.
            RunRefusal::ServersUnavailable { .. } => match refusal.status() {
                RefusalStatus::Failed => Exit::Infrastructure,
                RefusalStatus::Refused => Exit::Refused,
            },
        }
    }

    /// `whittle doctor`: the worst of its failed checks, each classified as `minimize`
    /// classifies the same problem (a server that does not start is a failure in both).
    pub fn of_doctor(report: &DoctorReport) -> Exit {
        report
            .checks
            .iter()
            .filter(|c| c.status == CheckStatus::Fail)
            .map(Exit::of_failed_check)
            .max()
            .unwrap_or(Exit::Proven)
    }

    fn of_failed_check(check: &Check) -> Exit {
        match check.finding {
            // The configuration: what `minimize` refuses as `servers_unavailable`
            // (refused), or an adb path or remote that names nothing.
            Finding::PlainHttp
            | Finding::RoleUnassigned
            | Finding::RoleUnknownServer
            | Finding::RoleUnauthorized
            | Finding::RoleMissingTools
            | Finding::AdbMissing
            // The journal key: the user's data folder, as the configuration is theirs.
            | Finding::JournalKeyDamaged
            | Finding::JournalKeyNotPrivate
            | Finding::JournalKeyUnusable => Exit::Refused,
            // What stops a run behind a working configuration: a server that did not
            // start, adb, the devices, the app on them, the capture.
            Finding::RoleStartFailed
            | Finding::AdbFailed
            | Finding::RemoteNotReady
            | Finding::RemoteMissing
            | Finding::ServersUnavailable
            | Finding::DevicesUnavailable
            | Finding::NoAndroidDevice
            | Finding::DeviceUnauthorized
            | Finding::DeviceNotReady
            | Finding::AppIsSystem
            | Finding::AppMissing
            | Finding::AppsUnavailable
            | Finding::CaptureNotRunning
            | Finding::CaptureNotStopped
            | Finding::CaptureUnavailable => Exit::Infrastructure,
            // Findings that never fail a check; listed so a new one must be placed.
            Finding::RoleReady
            | Finding::RoleReadyWithoutOptional
            | Finding::AdbFound
            | Finding::RemoteConnected
            | Finding::DeviceReady
            | Finding::DeviceNotAndroid
            | Finding::AppInstalled
            | Finding::AppsCounted
            | Finding::CaptureRunning
            | Finding::JournalKeyReady
            | Finding::JournalKeyNotMadeYet => Exit::Infrastructure,
        }
    }
}

/// The terminal columns `text` takes: CJK characters take two.
fn columns(text: &str) -> usize {
    text.chars()
        .map(|c| if c >= '\u{2E80}' { 2 } else { 1 })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table docs/cli.md shows, as `exit.rs` would write it in English.
    fn markdown_table() -> String {
        let words = &whittle_text::catalogue(whittle_text::Locale::En)
            .cli
            .exit_codes;
        let mut out = String::from("| Code | Outcome | Covers |\n|---|---|---|\n");
        for exit in Exit::ALL {
            let meaning = exit.meaning(words);
            out.push_str(&format!(
                "| {} | {} | {} |\n",
                exit.number(),
                meaning.outcome,
                meaning.covers
            ));
        }
        out
    }

    #[test]
    fn docs_cli_shows_the_one_table() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/cli.md");
        let docs = std::fs::read_to_string(path).expect("docs/cli.md");
        let table = markdown_table();
        assert!(
            docs.contains(&table),
            "docs/cli.md's exit-code table differs from exit.rs; it should read:\n{table}"
        );
    }

    #[test]
    fn codes_are_distinct_ordered_and_zero_is_only_proven() {
        let numbers: Vec<u8> = Exit::ALL.iter().map(|e| e.number()).collect();
        assert_eq!(numbers, (0..7).collect::<Vec<u8>>());
        assert!(Exit::ALL.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(Exit::of_end(&RunEnd::Minimized), Exit::Proven);
        assert_eq!(Exit::of_end(&RunEnd::Unproven), Exit::Unproven);
        assert_eq!(Exit::of_end(&RunEnd::NotReproduced), Exit::NotReproduced);
        assert_eq!(Exit::of_end(&RunEnd::Cancelled), Exit::Cancelled);
        assert_eq!(Exit::of_refusal(&RunRefusal::Cancelled), Exit::Cancelled);
        assert_eq!(Exit::of_refusal(&RunRefusal::NoCrash), Exit::Refused);
        assert_eq!(
            Exit::of_refusal(&RunRefusal::NoDevice),
            Exit::Infrastructure
        );
    }

    #[test]
    fn every_language_words_every_code_on_one_line() {
        for locale in [whittle_text::Locale::En, whittle_text::Locale::ZhCn] {
            let words = &whittle_text::catalogue(locale).cli.exit_codes;
            let table = Exit::table(words);
            assert_eq!(table.lines().count(), 1 + Exit::ALL.len(), "{table}");
            for exit in Exit::ALL {
                let meaning = exit.meaning(words);
                assert!(!meaning.outcome.is_empty() && !meaning.covers.contains('\n'));
            }
        }
    }
}
