//! Where a guess the search no longer needs may be stopped: only where none of its calls
//! that act on the device is in flight. Dropping a replay mid-call does not stop the
//! server's side of that call (MCP has no cancel a server must honour), so a tap still
//! under way could land on the next replay the device takes. The gate is the first
//! observer of the replay (`attempt.rs`) and knows where it is: from the launch's end to
//! the next action's start, and after the last action, only reads and waits are under
//! way (the pause between actions, the settle, the crash drain, the signatures), and
//! the replay may be dropped there at once; a stop asked during an action takes effect
//! when the action ends, the replay parked before its next one.

use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use crate::replay::ReplayObserver;

pub(crate) struct StopGate<'a> {
    /// Cancelled when the job is asked to stop (`None`: it never is).
    stop: Option<&'a CancellationToken>,
    /// Whether the replay is where it may be dropped (no call that acts on the device
    /// in flight).
    safe: watch::Sender<bool>,
}

impl<'a> StopGate<'a> {
    pub(crate) fn new(stop: Option<&'a CancellationToken>) -> Self {
        StopGate {
            stop,
            // The terminate, the launch and its anchor come first.
            safe: watch::Sender::new(false),
        }
    }

    /// Resolves once the job was asked to stop and the replay may be dropped; never for
    /// a job that cannot be stopped.
    pub(crate) fn stopped(&self) -> impl std::future::Future<Output = ()> + Send + 'a {
        let stop = self.stop;
        let mut safe = self.safe.subscribe();
        async move {
            let Some(stop) = stop else {
                return std::future::pending().await;
            };
            stop.cancelled().await;
            // The sender lives as long as the replay this future is raced against.
            if safe.wait_for(|safe| *safe).await.is_err() {
                std::future::pending::<()>().await;
            }
        }
    }
}

impl ReplayObserver for StopGate<'_> {
    async fn after_launch(&mut self) {
        self.safe.send_replace(true);
    }

    async fn before_action(&mut self, _step: u32) {
        if self.stop.is_some_and(CancellationToken::is_cancelled) {
            // Parked for good where it may be dropped.
            std::future::pending::<()>().await;
        }
        self.safe.send_replace(false);
    }

    async fn after_action(&mut self, _step: u32) {
        self.safe.send_replace(true);
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    async fn finishes(future: impl std::future::Future<Output = ()>) -> bool {
        tokio::time::timeout(Duration::from_millis(50), future)
            .await
            .is_ok()
    }

    #[tokio::test]
    async fn a_stop_during_an_action_waits_for_its_end() {
        let stop = CancellationToken::new();
        let mut gate = StopGate::new(Some(&stop));
        let stopped = gate.stopped();
        tokio::pin!(stopped);
        gate.after_launch().await;
        assert!(finishes(gate.before_action(3)).await, "not asked: goes on");
        stop.cancel();
        // The action is in flight: not yet.
        assert!(!finishes(&mut stopped).await);
        gate.after_action(3).await;
        assert!(finishes(&mut stopped).await, "at once when it ended");
        assert!(
            !finishes(gate.before_action(4)).await,
            "and no next action starts"
        );
    }

    #[tokio::test]
    async fn between_actions_and_after_the_last_a_stop_is_at_once() {
        for actions in [0, 1, 2] {
            let stop = CancellationToken::new();
            let mut gate = StopGate::new(Some(&stop));
            let stopped = gate.stopped();
            tokio::pin!(stopped);
            gate.after_launch().await;
            for step in 1..=actions {
                gate.before_action(step).await;
                gate.after_action(step).await;
            }
            // In the pause before the next action, or the drain after the last one.
            stop.cancel();
            assert!(finishes(&mut stopped).await, "{actions} actions");
        }
    }

    #[tokio::test]
    async fn a_stop_during_the_launch_waits_for_its_end() {
        let stop = CancellationToken::new();
        let mut gate = StopGate::new(Some(&stop));
        let stopped = gate.stopped();
        tokio::pin!(stopped);
        stop.cancel();
        assert!(!finishes(&mut stopped).await);
        gate.after_launch().await;
        assert!(finishes(&mut stopped).await);
    }

    #[tokio::test]
    async fn a_job_that_cannot_be_stopped_never_is() {
        let mut gate = StopGate::new(None);
        gate.after_launch().await;
        assert!(finishes(gate.before_action(1)).await);
        assert!(!finishes(gate.stopped()).await);
    }
}
