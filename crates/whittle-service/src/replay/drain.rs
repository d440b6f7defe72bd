//! The seed's `drain_android_crashes`: a delayed crash must land in THIS replay's
//! verdict, not leak into the next candidate or vanish. Records are accumulated and
//! deduplicated by `record_id` (stable across queries); "quiet" means a round that
//! brought no NEW record, not an empty answer. The log is never cleared mid-drain.
//!
//! Unlike the settle, this wait stays on the clock in every wait mode: a crash that lands
//! late gives no evidence before it lands, so only `interval` of quiet rules it out
//! (docs/performance.md).

use std::collections::HashSet;
use std::future::Future;
use std::time::Duration;

use whittle_contract::log::{LogCrash, RecentCrashes};

use crate::client::McpError;

/// At most this many queries per replay (seed: `max_scan_rounds=5`).
pub const MAX_SCAN_ROUNDS: u32 = 5;
/// Consecutive rounds without a new record that end the drain (seed: `quiet_rounds=2`).
pub const QUIET_ROUNDS: u32 = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrainLimits {
    pub interval: Duration,
    pub max_rounds: u32,
    pub quiet_rounds: u32,
}

impl DrainLimits {
    pub fn seed(interval_ms: u32) -> DrainLimits {
        DrainLimits {
            interval: Duration::from_millis(u64::from(interval_ms)),
            max_rounds: MAX_SCAN_ROUNDS,
            quiet_rounds: QUIET_ROUNDS,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DrainError {
    #[error(
        "crash evidence not fully drained: new crash records kept arriving for {rounds} rounds"
    )]
    NotDrained { rounds: u32 },
    #[error("crash evidence not fully drained: {0}")]
    Query(#[from] McpError),
}

/// Queries `query` once now and then every `interval` until `quiet_rounds` consecutive
/// rounds bring nothing new, at most `max_rounds` times; returns every distinct record
/// in first-seen order.
pub async fn drain_crashes<F, Fut>(
    mut query: F,
    limits: DrainLimits,
) -> Result<Vec<LogCrash>, DrainError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<RecentCrashes, McpError>>,
{
    let mut seen = HashSet::new();
    let mut crashes = Vec::new();
    let mut quiet = 0;
    for round in 1..=limits.max_rounds {
        if round > 1 {
            tokio::time::sleep(limits.interval).await;
        }
        let answer = query().await?;
        let mut new_records = false;
        for crash in answer.crashes {
            if seen.insert(crash.record_id.clone()) {
                crashes.push(crash);
                new_records = true;
            }
        }
        quiet = if new_records { 0 } else { quiet + 1 };
        if quiet >= limits.quiet_rounds {
            return Ok(crashes);
        }
    }
    Err(DrainError::NotDrained {
        rounds: limits.max_rounds,
    })
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use whittle_contract::Role;
    use whittle_core::model::CrashKind;

    use super::*;
    use crate::client::McpErrorKind;

    fn record(id: &str) -> LogCrash {
        LogCrash {
            record_id: id.into(),
            ts: String::new(),
            kind: CrashKind::Java,
            process: "com.x".into(),
            stack: format!("stack of {id}"),
        }
    }

    /// A fake log whose answer in round n is `rounds[n]` (the last one repeats).
    async fn run(rounds: Vec<Vec<&str>>) -> (Result<Vec<LogCrash>, DrainError>, usize) {
        let calls = RefCell::new(0usize);
        let limits = DrainLimits {
            interval: Duration::ZERO,
            max_rounds: 5,
            quiet_rounds: 2,
        };
        let result = drain_crashes(
            || {
                let n = *calls.borrow();
                *calls.borrow_mut() += 1;
                let ids = rounds[n.min(rounds.len() - 1)].clone();
                async move {
                    let crashes: Vec<_> = ids.into_iter().map(record).collect();
                    Ok(RecentCrashes {
                        count: crashes.len() as u32,
                        crashes,
                    })
                }
            },
            limits,
        )
        .await;
        let n = *calls.borrow();
        (result, n)
    }

    #[tokio::test]
    async fn no_crash_ends_after_two_quiet_rounds() {
        let (result, calls) = run(vec![vec![]]).await;
        assert!(result.unwrap().is_empty());
        assert_eq!(calls, 2);
    }

    #[tokio::test]
    async fn repeated_records_are_quiet_not_new() {
        // The same record answered every round is one crash, and quiet after round 1.
        let (result, calls) = run(vec![vec!["r1"], vec!["r1"]]).await;
        let ids: Vec<_> = result.unwrap().into_iter().map(|c| c.record_id).collect();
        assert_eq!(ids, ["r1"]);
        assert_eq!(calls, 3);
    }

    #[tokio::test]
    async fn a_late_record_resets_quiet_and_is_accumulated() {
        let (result, calls) =
            run(vec![vec![], vec!["r1"], vec!["r1", "r2"], vec!["r1", "r2"]]).await;
        let ids: Vec<_> = result.unwrap().into_iter().map(|c| c.record_id).collect();
        assert_eq!(ids, ["r1", "r2"]);
        assert_eq!(calls, 5);
    }

    #[tokio::test]
    async fn records_that_keep_coming_are_a_drain_failure() {
        let (result, calls) = run(vec![
            vec!["a"],
            vec!["a", "b"],
            vec!["b", "c"],
            vec!["d"],
            vec![],
            vec![],
        ])
        .await;
        assert_eq!(result.unwrap_err(), DrainError::NotDrained { rounds: 5 });
        assert_eq!(calls, 5, "never more than five rounds");
    }

    #[tokio::test]
    async fn a_query_error_is_an_error_not_an_empty_drain() {
        let limits = DrainLimits {
            interval: Duration::ZERO,
            max_rounds: 5,
            quiet_rounds: 2,
        };
        let err = McpError {
            role: Role::Log,
            server: "sim".into(),
            tool: "get_recent_crashes".into(),
            kind: McpErrorKind::ServerGone,
        };
        let result = drain_crashes(
            || {
                let e = err.clone();
                async move { Err(e) }
            },
            limits,
        )
        .await;
        assert!(matches!(result, Err(DrainError::Query(_))));
    }
}
