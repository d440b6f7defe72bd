//! A look at the device between the steps of a replay, for callers that need one: the
//! filmstrip of the final confirmation (a masked screenshot after each step) and
//! `import --record` (which step a crash followed). The replay itself is unchanged: an
//! observer only reads the device, and the plain [`super::replay`] has none.

use std::future::Future;

pub trait ReplayObserver {
    /// After the launch (and its anchor wait), before the first action.
    fn after_launch(&mut self) -> impl Future<Output = ()> + Send;
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
