use std::io::{IsTerminal, Write};

use whittle_core::engine::Phase;
use whittle_service::api::RunEvent;

use crate::locale::{self, CliWords};

/// The one-line progress bar on stderr ("attempt 7/30 · audit · [2,7]"), redrawn with
/// `\r`; silent when stderr is not a terminal or JSON output was asked for.
pub struct Progress {
    enabled: bool,
}

impl Progress {
    pub fn new(json: bool) -> Progress {
        Progress {
            enabled: !json && std::io::stderr().is_terminal(),
        }
    }

    pub fn on_event(&self, event: &RunEvent, max_replays: &std::sync::atomic::AtomicU32) {
        use std::sync::atomic::Ordering;
        if let RunEvent::Started { max_replays: m, .. } = event {
            max_replays.store(*m, Ordering::Relaxed);
        }
        if !self.enabled {
            return;
        }
        let words = locale::words();
        let mut err = std::io::stderr().lock();
        match event {
            RunEvent::AttemptStarted {
                attempt,
                phase,
                candidate,
            } => {
                let line = attempt_line(
                    words,
                    *attempt,
                    max_replays.load(Ordering::Relaxed),
                    *phase,
                    candidate,
                );
                let _ = write!(err, "\r\x1b[2K{line}");
            }
            RunEvent::Warning { message } => {
                let _ = writeln!(err, "\r\x1b[2K{}{message}", words.warning);
            }
            RunEvent::Notice { notice } => {
                let _ = writeln!(err, "\r\x1b[2K{}{notice}", words.warning);
            }
            RunEvent::Finished(_) => {
                let _ = write!(err, "\r\x1b[2K");
            }
            _ => {}
        }
        let _ = err.flush();
    }
}

/// "attempt 7/30 · audit · [2,7]" in `words`' language: the progress bar's line, and the
/// message of `whittle mcp`'s progress notifications.
pub fn attempt_line(
    words: &CliWords,
    attempt: u32,
    max_replays: u32,
    phase: Phase,
    candidate: &[u32],
) -> String {
    let candidate = candidate
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",");
    (words.attempt)(attempt, max_replays, (words.phase)(phase), &candidate)
}
