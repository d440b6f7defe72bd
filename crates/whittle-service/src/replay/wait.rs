//! Waiting on evidence instead of sleeping (issue #7): after an action the replay waits
//! until the UI hierarchy stops changing — two consecutive answers identical — with the
//! seed's fixed sleep as the upper bound. A device that settles in 60 ms costs 60 ms,
//! one that never settles costs what the seed always paid, plus at most one poll.

use std::future::Future;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::Duration;

use tokio::time::Instant;
use whittle_contract::ui::Hierarchy;

use crate::client::McpError;
use crate::config::WaitMode;

/// How a wait ended; logged, and what the tests check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaitEnd {
    /// The bound is zero: nothing to wait for.
    Skipped,
    /// `fixed` mode: slept the bound exactly.
    Slept,
    /// Two consecutive hierarchies were identical after `polls` queries.
    Stable { polls: u32 },
    /// The hierarchy was still changing when the bound ran out.
    Bound { polls: u32 },
    /// The hierarchy could not be read, so the rest of the bound was slept.
    Fallback { polls: u32 },
}

/// Waits `bound` the way `mode` says: `fixed` sleeps it, `evidence` polls `hierarchy`
/// every `poll` with [`wait_stable`].
pub async fn settle<F, Fut>(
    mode: WaitMode,
    bound: Duration,
    poll: Duration,
    hierarchy: F,
) -> WaitEnd
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<Hierarchy, McpError>>,
{
    if bound.is_zero() {
        return WaitEnd::Skipped;
    }
    match mode {
        WaitMode::Fixed => {
            tokio::time::sleep(bound).await;
            WaitEnd::Slept
        }
        WaitMode::Evidence => wait_stable(hierarchy, bound, poll).await,
    }
}

/// Polls `hierarchy` now and then every `poll` until two consecutive answers have the
/// same elements, for at most `bound` in total. The last poll may start just before the
/// bound, so the bound is exceeded by at most one query's duration.
pub async fn wait_stable<F, Fut>(mut hierarchy: F, bound: Duration, poll: Duration) -> WaitEnd
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<Hierarchy, McpError>>,
{
    let deadline = Instant::now() + bound;
    let mut previous = None;
    let mut polls = 0;
    loop {
        polls += 1;
        match hierarchy().await {
            Ok(h) => {
                let digest = digest(&h);
                if previous == Some(digest) {
                    return WaitEnd::Stable { polls };
                }
                previous = Some(digest);
            }
            Err(e) => {
                // The wait only shortens the seed's sleep; it is not evidence the verdict
                // rests on. A ui server that cannot dump the hierarchy right now (a busy
                // uiautomator, an app mid-crash) must not turn the replay into a runtime
                // failure, so behave exactly as the seed: sleep the rest of the bound. A
                // server that is really gone fails the next action or the drain instead.
                tracing::debug!(error = %e, "hierarchy unavailable during a wait; sleeping the rest");
                tokio::time::sleep_until(deadline).await;
                return WaitEnd::Fallback { polls };
            }
        }
        let now = Instant::now();
        if now >= deadline {
            return WaitEnd::Bound { polls };
        }
        tokio::time::sleep(poll.min(deadline - now)).await;
    }
}

/// A hash of everything a hierarchy shows. It never leaves memory (element text may be
/// private); a collision would only end one wait early.
fn digest(h: &Hierarchy) -> u64 {
    let mut hasher = DefaultHasher::new();
    h.elements.len().hash(&mut hasher);
    for e in &h.elements {
        e.resource_id.hash(&mut hasher);
        e.text.hash(&mut hasher);
        e.content_desc.hash(&mut hasher);
        e.class.hash(&mut hasher);
        e.bounds.hash(&mut hasher);
        e.password.hash(&mut hasher);
        e.focused.hash(&mut hasher);
        e.visible.hash(&mut hasher);
    }
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use whittle_contract::ui::UiElement;
    use whittle_contract::Role;

    use super::*;
    use crate::client::McpErrorKind;

    const BOUND: Duration = Duration::from_millis(1000);
    const POLL: Duration = Duration::from_millis(50);

    fn screen(text: &str) -> Hierarchy {
        Hierarchy {
            elements: vec![UiElement {
                resource_id: "id/title".into(),
                text: text.into(),
                content_desc: String::new(),
                class: "android.widget.TextView".into(),
                bounds: [0, 0, 100, 50],
                password: false,
                focused: false,
                visible: true,
                package: None,
                depth: None,
                ..UiElement::default()
            }],
        }
    }

    fn gone() -> McpError {
        McpError {
            role: Role::Ui,
            server: "sim".into(),
            tool: "get_hierarchy".into(),
            kind: McpErrorKind::ToolError("uiautomator busy".into()),
        }
    }

    /// Runs `settle` on a paused clock with a fake hierarchy: `answer(n)` is the n-th
    /// answer (from 0). Returns the outcome, the virtual time it took and the calls.
    async fn run(
        mode: WaitMode,
        bound: Duration,
        answer: impl Fn(u32) -> Result<Hierarchy, McpError>,
    ) -> (WaitEnd, Duration, u32) {
        let calls = Cell::new(0);
        let start = Instant::now();
        let settled = settle(mode, bound, POLL, || {
            let n = calls.get();
            calls.set(n + 1);
            let a = answer(n);
            async move { a }
        })
        .await;
        (settled, start.elapsed(), calls.get())
    }

    #[tokio::test(start_paused = true)]
    async fn a_stable_screen_ends_the_wait_after_two_polls() {
        let (settled, took, calls) = run(WaitMode::Evidence, BOUND, |_| Ok(screen("Cart"))).await;
        assert_eq!(settled, WaitEnd::Stable { polls: 2 });
        assert_eq!(calls, 2);
        assert_eq!(took, POLL, "one poll interval, not the 1000 ms bound");
    }

    #[tokio::test(start_paused = true)]
    async fn a_screen_that_settles_late_is_waited_for() {
        // Changes for the first four answers (a transition), then holds.
        let (settled, took, _) = run(WaitMode::Evidence, BOUND, |n| {
            Ok(screen(&format!("frame {}", n.min(4))))
        })
        .await;
        assert_eq!(settled, WaitEnd::Stable { polls: 6 });
        assert_eq!(took, POLL * 5);
    }

    #[tokio::test(start_paused = true)]
    async fn a_screen_that_never_settles_ends_at_the_bound() {
        let (settled, took, calls) = run(WaitMode::Evidence, BOUND, |n| {
            Ok(screen(&format!("tick {n}")))
        })
        .await;
        // Polls at 0, 50, ..., 1000 ms: the bound, never more than one poll beyond it.
        assert_eq!(settled, WaitEnd::Bound { polls: 21 });
        assert_eq!(calls, 21);
        assert_eq!(took, BOUND);
    }

    #[tokio::test(start_paused = true)]
    async fn an_odd_bound_is_not_overshot_by_the_poll_interval() {
        let bound = Duration::from_millis(120);
        let (settled, took, _) = run(WaitMode::Evidence, bound, |n| {
            Ok(screen(&format!("tick {n}")))
        })
        .await;
        assert_eq!(settled, WaitEnd::Bound { polls: 4 });
        assert_eq!(took, bound, "the last sleep is cut to the bound");
    }

    #[tokio::test(start_paused = true)]
    async fn a_hierarchy_error_sleeps_the_rest_of_the_bound() {
        let (settled, took, calls) = run(WaitMode::Evidence, BOUND, |n| {
            if n < 2 {
                Ok(screen(&format!("tick {n}")))
            } else {
                Err(gone())
            }
        })
        .await;
        assert_eq!(settled, WaitEnd::Fallback { polls: 3 });
        assert_eq!(calls, 3, "no more queries after an error");
        assert_eq!(took, BOUND, "the seed's sleep, not a failure and not less");
    }

    #[tokio::test(start_paused = true)]
    async fn fixed_mode_sleeps_the_seed_value_exactly_and_never_asks() {
        for bound in [BOUND, Duration::from_millis(500), Duration::from_millis(1)] {
            let (settled, took, calls) = run(WaitMode::Fixed, bound, |_| -> Result<_, _> {
                panic!("fixed mode must not query the hierarchy")
            })
            .await;
            assert_eq!(settled, WaitEnd::Slept);
            assert_eq!(took, bound);
            assert_eq!(calls, 0);
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_zero_bound_waits_for_nothing_in_either_mode() {
        for mode in [WaitMode::Evidence, WaitMode::Fixed] {
            let (settled, took, calls) = run(mode, Duration::ZERO, |_| Ok(screen("x"))).await;
            assert_eq!(settled, WaitEnd::Skipped);
            assert_eq!((took, calls), (Duration::ZERO, 0));
        }
    }

    #[test]
    fn the_digest_sees_every_field() {
        let base = screen("Cart");
        let variants: [fn(&mut UiElement); 8] = [
            |e| e.resource_id.push('x'),
            |e| e.text.push('x'),
            |e| e.content_desc.push('x'),
            |e| e.class.push('x'),
            |e| e.bounds[3] += 1,
            |e| e.password = true,
            |e| e.focused = true,
            |e| e.visible = false,
        ];
        for change in variants {
            let mut other = base.clone();
            change(&mut other.elements[0]);
            assert_ne!(digest(&base), digest(&other), "{other:?}");
        }
        assert_eq!(digest(&base), digest(&screen("Cart")));
        assert_ne!(digest(&base), digest(&Hierarchy { elements: vec![] }));
    }
}
