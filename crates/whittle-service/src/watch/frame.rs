use serde::Serialize;
use whittle_core::plan::StepWords;

use crate::evidence::ShotOmission;

/// One look at a device during a replay. Never archived.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct LiveFrame {
    pub device: String,
    pub attempt: u32,
    /// The plan step being replayed (the last one while the replay waits for a crash);
    /// `None` while the app launches.
    pub step: Option<u32>,
    /// `step`'s action as data for the front end to word (the queue holds no plan to
    /// look it up in); `None` while the app launches.
    pub step_words: Option<StepWords>,
    /// Taken after the replay reached `step` and before its action: the screen the
    /// action is about to act on, the only frame with an `outline`. `false` once the
    /// action is done (the frame shows its result) and while the app launches.
    pub before_action: bool,
    /// Counts up per replay, so a late frame never replaces a newer one.
    pub seq: u32,
    /// The masked frame; `None` when it could not be masked (`omitted` says why).
    pub image: Option<LiveImage>,
    pub omitted: Option<ShotOmission>,
    /// The element the step is about to act on, `[left, top, right, bottom]` in
    /// `image`'s pixels, when it is on the screen (only `before_action` frames).
    pub outline: Option<[i32; 4]>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct LiveImage {
    pub data_url: String,
    pub width: u32,
    pub height: u32,
}
