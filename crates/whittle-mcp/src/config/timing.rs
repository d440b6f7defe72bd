use serde::{Deserialize, Serialize};

/// Replay pacing (SPEC §8 `timing`), in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Timing {
    pub settle_ms: u32,
    pub drain_interval_ms: u32,
    pub action_pause_ms: u32,
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            settle_ms: 1000,
            drain_interval_ms: 500,
            action_pause_ms: 500,
        }
    }
}
