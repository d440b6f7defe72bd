//! The pause after a failed `accept`. A failure that is not one connection's own (out of
//! descriptors, of memory, of buffers) comes back at once if retried at once: the loop
//! would spin on a core and fill the log. The pause doubles up to a ceiling and resets
//! on the next success.

use std::io;
use std::time::Duration;

const FIRST: Duration = Duration::from_millis(5);
const CEILING: Duration = Duration::from_secs(1);

#[derive(Debug, Default)]
pub(super) struct Backoff {
    next: Option<Duration>,
}

impl Backoff {
    /// The pause after `error`; zero for a failure that was only the peer's (it reset or
    /// aborted before being accepted), which the next `accept` does not repeat.
    pub(super) fn after(&mut self, error: &io::Error) -> Duration {
        if matches!(
            error.kind(),
            io::ErrorKind::ConnectionAborted
                | io::ErrorKind::ConnectionReset
                | io::ErrorKind::Interrupted
                | io::ErrorKind::WouldBlock
        ) {
            return Duration::ZERO;
        }
        let pause = self.next.unwrap_or(FIRST);
        self.next = Some((pause * 2).min(CEILING));
        pause
    }

    pub(super) fn reset(&mut self) {
        self.next = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resource_failures_back_off_to_a_ceiling_and_peer_failures_do_not() {
        let mut backoff = Backoff::default();
        let emfile = io::Error::other("Too many open files");
        let pauses: Vec<_> = (0..12).map(|_| backoff.after(&emfile)).collect();
        assert_eq!(pauses[0], FIRST);
        assert!(pauses.windows(2).all(|w| w[1] >= w[0]));
        assert_eq!(*pauses.last().unwrap(), CEILING);
        let aborted = io::Error::from(io::ErrorKind::ConnectionAborted);
        assert_eq!(backoff.after(&aborted), Duration::ZERO);
        backoff.reset();
        assert_eq!(backoff.after(&emfile), FIRST);
    }
}
