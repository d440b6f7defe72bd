use std::num::NonZeroU32;
use std::time::Duration;

use whittle_core::strategy::{SearchOptions, SearchStrategy};

/// Default `--max-replays` (Phase 0 (docs/design.md §13) step 2).
pub const DEFAULT_MAX_REPLAYS: NonZeroU32 = NonZeroU32::new(30).unwrap();

/// A new minimize run as the user asked for it, already valid: each count is a
/// `NonZeroU32`, parsed once where the user typed it (`whittle_service::api::parse_count`),
/// so nothing below checks it again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunSpec {
    /// A session id, or an absolute session folder inside the workspace.
    pub session: String,
    pub crash: Option<String>,
    /// The replay budget.
    pub max_replays: NonZeroU32,
    pub device: Option<String>,
    pub package: Option<String>,
    /// The search strategy; the seed's unless the user opts in to another.
    pub strategy: SearchStrategy,
    /// Size of the device pool replays run on at once (1 = one replay at a time).
    /// Fewer devices available is not an error: the run uses what there is.
    pub devices: NonZeroU32,
    /// Replays of the full path allowed until it reproduces (1 = the seed's).
    pub baseline_tries: NonZeroU32,
    /// How long to wait for the device while another run holds it (`--wait-device`);
    /// `None` refuses at once, naming the holder.
    pub wait_device: Option<Duration>,
}

impl RunSpec {
    pub fn new(session: impl Into<String>) -> RunSpec {
        RunSpec {
            session: session.into(),
            crash: None,
            max_replays: DEFAULT_MAX_REPLAYS,
            device: None,
            package: None,
            strategy: SearchStrategy::Seed,
            devices: NonZeroU32::MIN,
            baseline_tries: NonZeroU32::MIN,
            wait_device: None,
        }
    }

    /// What the engine tunes around the strategy.
    pub fn search_options(&self) -> SearchOptions {
        SearchOptions {
            baseline_tries: self.baseline_tries.get(),
        }
    }

    /// The pool size.
    pub fn pool_size(&self) -> usize {
        usize::try_from(self.devices.get()).unwrap_or(usize::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_the_seeds() {
        let spec = RunSpec::new("s");
        assert_eq!(spec.max_replays.get(), 30);
        assert_eq!(spec.search_options(), SearchOptions::default());
        assert_eq!(spec.pool_size(), 1);
    }
}
