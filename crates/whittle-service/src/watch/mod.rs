//! Watching a replay as it happens (the window's live view): while a device replays, a
//! masked, scaled-down frame of its screen every few hundred milliseconds, with the plan
//! step being replayed and the element it acts on outlined. Frames go only to the front
//! end that asked for them (`run::RunEvents::watching`); nothing is archived, and a
//! frame that cannot be masked is not shown, as evidence would not be.

mod frame;
mod take;
mod watcher;

pub use frame::{LiveFrame, LiveImage};
pub(crate) use watcher::LiveWatch;
