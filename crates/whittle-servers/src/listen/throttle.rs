//! A log line that may come thousands of times a second (a failing `accept`, a connection
//! shed under a flood) is written at most once per period, saying how many were left
//! out: a flood must not become a flood of stderr.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// At most one line per period for each kind of event.
pub(super) const LOG_PERIOD: Duration = Duration::from_secs(10);

#[derive(Debug)]
pub(super) struct Throttle {
    period: Duration,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    last: Option<Instant>,
    suppressed: u64,
}

impl Throttle {
    pub(super) fn new(period: Duration) -> Throttle {
        Throttle {
            period,
            state: Mutex::new(State::default()),
        }
    }

    /// `Some(left_out)` when a line may be written now (`left_out`: the events since the
    /// last line that were not written); `None` when this one is left out.
    pub(super) fn admit(&self, now: Instant) -> Option<u64> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let due = state
            .last
            .is_none_or(|last| now.saturating_duration_since(last) >= self.period);
        if due {
            state.last = Some(now);
            Some(std::mem::take(&mut state.suppressed))
        } else {
            state.suppressed += 1;
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_per_period_counting_the_rest() {
        let throttle = Throttle::new(Duration::from_secs(10));
        let t0 = Instant::now();
        assert_eq!(throttle.admit(t0), Some(0));
        for i in 1..=1000 {
            assert_eq!(throttle.admit(t0 + Duration::from_millis(i)), None);
        }
        assert_eq!(throttle.admit(t0 + Duration::from_secs(10)), Some(1000));
        assert_eq!(throttle.admit(t0 + Duration::from_secs(11)), None);
        assert_eq!(throttle.admit(t0 + Duration::from_secs(20)), Some(1));
    }
}
