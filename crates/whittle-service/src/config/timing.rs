use serde::{Deserialize, Serialize};

/// How the replay waits after an action and before the crash drain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WaitMode {
    /// Poll the UI hierarchy until it stops changing, with the fixed value as the bound:
    /// as fast as the device allows, never slower than the seed by more than one query.
    #[default]
    Evidence,
    /// The seed's sleeps exactly. For devices whose hierarchy dump is itself slow
    /// (`uiautomator dump` on adb takes 1–3 s), where polling would cost more than it saves.
    Fixed,
}

/// Replay pacing (docs/design.md §8 `timing`), in milliseconds. `settle_ms` and
/// `action_pause_ms` are upper bounds in `evidence` mode and exact sleeps in `fixed`
/// mode; `drain_interval_ms` is always a time window (see `replay::drain`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Timing {
    pub settle_ms: u32,
    pub drain_interval_ms: u32,
    pub action_pause_ms: u32,
    pub wait: WaitMode,
    /// How often `evidence` mode asks for the hierarchy.
    pub poll_ms: u32,
}

/// `evidence` mode's default polling interval: short next to the seed's 500–1000 ms
/// bounds, long enough that polling is not most of what the ui server does.
pub const DEFAULT_POLL_MS: u32 = 50;

impl Default for Timing {
    fn default() -> Self {
        Timing {
            settle_ms: 1000,
            drain_interval_ms: 500,
            action_pause_ms: 500,
            wait: WaitMode::Evidence,
            poll_ms: DEFAULT_POLL_MS,
        }
    }
}

impl Timing {
    /// The `settle_ms` passed to `tap_element`. `fixed` passes the seed's value, so a
    /// server that sleeps it (adb does) sleeps it. `evidence` passes 0: the replay's own
    /// evidence wait follows every action, so a server-side sleep would only add idle time.
    pub fn tap_settle_ms(&self) -> u32 {
        match self.wait {
            WaitMode::Evidence => 0,
            WaitMode::Fixed => self.settle_ms,
        }
    }
}

/// The `timing` keys as written in a file: every key optional, so a per-device entry
/// overrides only what it names and inherits the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimingOverride {
    pub settle_ms: Option<u32>,
    pub drain_interval_ms: Option<u32>,
    pub action_pause_ms: Option<u32>,
    pub wait: Option<WaitMode>,
    pub poll_ms: Option<u32>,
}

impl TimingOverride {
    /// `base` with the keys this override names replaced.
    pub fn apply(&self, base: Timing) -> Timing {
        Timing {
            settle_ms: self.settle_ms.unwrap_or(base.settle_ms),
            drain_interval_ms: self.drain_interval_ms.unwrap_or(base.drain_interval_ms),
            action_pause_ms: self.action_pause_ms.unwrap_or(base.action_pause_ms),
            wait: self.wait.unwrap_or(base.wait),
            poll_ms: self.poll_ms.unwrap_or(base.poll_ms),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_override_replaces_only_the_keys_it_names() {
        let base = Timing::default();
        let fixed = TimingOverride {
            wait: Some(WaitMode::Fixed),
            settle_ms: Some(2000),
            ..TimingOverride::default()
        };
        let t = fixed.apply(base);
        assert_eq!((t.wait, t.settle_ms), (WaitMode::Fixed, 2000));
        assert_eq!(
            (t.drain_interval_ms, t.action_pause_ms, t.poll_ms),
            (base.drain_interval_ms, base.action_pause_ms, base.poll_ms)
        );
        assert_eq!(TimingOverride::default().apply(base), base);
    }
}
