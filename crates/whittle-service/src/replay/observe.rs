//! A look at the device between the steps of a replay, for callers that need one: the
//! filmstrip of the final confirmation (a masked screenshot after each step), the frame
//! before the last action (what the screen showed right before the crash, when the app
//! is gone after it) and `import --record` (which step a crash followed). The replay
//! itself is unchanged: an observer only reads the device, and the plain
//! [`super::replay`] has none.

use std::future::Future;

pub trait ReplayObserver {
    /// After the launch (and its anchor wait), before the first action.
    fn after_launch(&mut self) -> impl Future<Output = ()> + Send;
    /// Right before plan step `step`'s action (after the pause between actions).
    fn before_action(&mut self, _step: u32) -> impl Future<Output = ()> + Send {
        std::future::ready(())
    }
    /// After plan step `step`'s action succeeded (a failed action stops the replay).
    fn after_action(&mut self, step: u32) -> impl Future<Output = ()> + Send;
}

/// Looks at nothing: a plain replay.
pub struct NoObserver;

impl ReplayObserver for NoObserver {
    fn after_launch(&mut self) -> impl Future<Output = ()> + Send {
        std::future::ready(())
    }

    fn after_action(&mut self, _step: u32) -> impl Future<Output = ()> + Send {
        std::future::ready(())
    }
}

/// Two observers, the first looking first at each point.
impl<A: ReplayObserver + Send, B: ReplayObserver + Send> ReplayObserver for (A, B) {
    async fn after_launch(&mut self) {
        self.0.after_launch().await;
        self.1.after_launch().await;
    }

    async fn before_action(&mut self, step: u32) {
        self.0.before_action(step).await;
        self.1.before_action(step).await;
    }

    async fn after_action(&mut self, step: u32) {
        self.0.after_action(step).await;
        self.1.after_action(step).await;
    }
}

/// An observer that may not be there (the live view's marker, when nobody watches).
impl<O: ReplayObserver + Send> ReplayObserver for Option<O> {
    async fn after_launch(&mut self) {
        if let Some(o) = self {
            o.after_launch().await;
        }
    }

    async fn before_action(&mut self, step: u32) {
        if let Some(o) = self {
            o.before_action(step).await;
        }
    }

    async fn after_action(&mut self, step: u32) {
        if let Some(o) = self {
            o.after_action(step).await;
        }
    }
}
