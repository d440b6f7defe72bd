use std::num::NonZeroU32;
use std::time::Duration;

use whittle_core::strategy::{SearchOptions, SearchStrategy};

use super::reproof::Reproof;

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
    /// Start from another run's minimal path instead of the crash's whole path, to
    /// re-prove that run here (`reproof.rs`); `None` for every ordinary run.
    pub reprove: Option<Reproof>,
}

/// What a front end was asked for a new run, each option absent when the user left it:
/// [`RunSpec::asked`] fills in the defaults, which live in [`RunSpec::new`] alone.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AskedRun {
    pub crash: Option<String>,
    pub max_replays: Option<NonZeroU32>,
    pub device: Option<String>,
    pub package: Option<String>,
    pub strategy: Option<SearchStrategy>,
    pub devices: Option<NonZeroU32>,
    pub baseline_tries: Option<NonZeroU32>,
    pub wait_device: Option<Duration>,
}

impl RunSpec {
    /// The run of `session` that `asked` describes, the defaults of [`RunSpec::new`] for
    /// what it leaves out.
    pub fn asked(session: impl Into<String>, asked: AskedRun) -> RunSpec {
        let default = RunSpec::new(session);
        RunSpec {
            crash: asked.crash.or(default.crash),
            max_replays: asked.max_replays.unwrap_or(default.max_replays),
            device: asked.device.or(default.device),
            package: asked.package.or(default.package),
            strategy: asked.strategy.unwrap_or(default.strategy),
            devices: asked.devices.unwrap_or(default.devices),
            baseline_tries: asked.baseline_tries.unwrap_or(default.baseline_tries),
            wait_device: asked.wait_device.or(default.wait_device),
            reprove: default.reprove,
            session: default.session,
        }
    }

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
            reprove: None,
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

#[cfg(test)]
mod asked_tests {
    use super::*;

    #[test]
    fn what_was_not_asked_is_the_default_of_new_and_what_was_is_kept() {
        assert_eq!(RunSpec::asked("s", AskedRun::default()), RunSpec::new("s"));
        let three = NonZeroU32::new(3).unwrap();
        let asked = RunSpec::asked(
            "s",
            AskedRun {
                crash: Some("c2".into()),
                devices: Some(three),
                strategy: Some(SearchStrategy::Binary),
                ..AskedRun::default()
            },
        );
        assert_eq!(asked.crash.as_deref(), Some("c2"));
        assert_eq!(asked.devices, three);
        assert_eq!(asked.strategy, SearchStrategy::Binary);
        assert_eq!(asked.max_replays, DEFAULT_MAX_REPLAYS);
        assert_eq!(asked.baseline_tries, NonZeroU32::MIN);
    }
}
