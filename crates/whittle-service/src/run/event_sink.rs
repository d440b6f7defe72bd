//! Where a run's progress goes. Every front end takes its events; a front end that shows
//! the devices (the window) also takes live frames, which cost device time, so they are
//! only taken for a sink that says it is `watching`.

use super::RunEvent;
use crate::watch::LiveFrame;

pub trait RunEvents: Send + Sync {
    fn event(&self, event: RunEvent);

    /// Whether live frames are wanted (`crate::watch`).
    fn watching(&self) -> bool {
        false
    }

    fn frame(&self, _frame: LiveFrame) {}
}

/// A plain callback takes the events and no frames (the terminal, `whittle mcp`).
impl<F: Fn(RunEvent) + Send + Sync> RunEvents for F {
    fn event(&self, event: RunEvent) {
        self(event)
    }
}

/// Events to one callback, live frames to another.
pub struct Watched<E, W> {
    pub events: E,
    pub frames: W,
}

impl<E, W> RunEvents for Watched<E, W>
where
    E: Fn(RunEvent) + Send + Sync,
    W: Fn(LiveFrame) + Send + Sync,
{
    fn event(&self, event: RunEvent) {
        (self.events)(event)
    }

    fn watching(&self) -> bool {
        true
    }

    fn frame(&self, frame: LiveFrame) {
        (self.frames)(frame)
    }
}
