use whittle_core::strategy::{SearchOptions, Strategy};

use super::RunError;

/// Default `--max-replays` (Phase 0 (docs/design.md §13) step 2).
pub const DEFAULT_MAX_REPLAYS: i64 = 30;

/// What the user asked for. Everything is validated before any side effect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MinimizeOptions {
    /// A session id, or an absolute session folder inside the workspace.
    pub session: String,
    pub crash: Option<String>,
    /// Must be an integer >= 1; kept wide so a bad value is refused, not wrapped.
    pub max_replays: i64,
    pub device: Option<String>,
    pub package: Option<String>,
    /// The search strategy; the seed's unless the user opts in to another.
    pub strategy: Strategy,
    /// Size of the device pool replays run on at once (>= 1; 1 = one replay at a time).
    /// Fewer devices available is not an error: the run uses what there is.
    pub devices: u32,
    /// Replays of the full path allowed until it reproduces (>= 1; 1 = the seed's).
    pub baseline_tries: u32,
}

impl MinimizeOptions {
    pub fn new(session: impl Into<String>) -> MinimizeOptions {
        MinimizeOptions {
            session: session.into(),
            crash: None,
            max_replays: DEFAULT_MAX_REPLAYS,
            device: None,
            package: None,
            strategy: Strategy::Seed,
            devices: 1,
            baseline_tries: 1,
        }
    }

    /// What the engine tunes around the strategy, or a refusal (checked with the
    /// budget, before any side effect).
    pub fn search_options(&self) -> Result<SearchOptions, RunError> {
        if self.baseline_tries < 1 {
            return Err(RunError::InvalidArgument(format!(
                "baseline tries must be an integer >= 1 (got {})",
                self.baseline_tries
            )));
        }
        Ok(SearchOptions {
            baseline_tries: self.baseline_tries,
        })
    }

    /// The pool size, or a refusal (checked with the budget, before any side effect).
    pub fn pool_size(&self) -> Result<usize, RunError> {
        if self.devices < 1 {
            return Err(RunError::InvalidArgument(format!(
                "devices must be an integer >= 1 (got {})",
                self.devices
            )));
        }
        Ok(usize::try_from(self.devices).unwrap_or(usize::MAX))
    }

    /// The budget as the engine takes it, or a refusal naming the bad value.
    pub fn budget(&self) -> Result<u32, RunError> {
        if self.max_replays < 1 {
            return Err(RunError::InvalidArgument(format!(
                "max replays must be an integer >= 1 (got {})",
                self.max_replays
            )));
        }
        u32::try_from(self.max_replays).map_err(|_| {
            RunError::InvalidArgument(format!("max replays {} is too large", self.max_replays))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_must_be_at_least_one() {
        let mut o = MinimizeOptions::new("s");
        assert_eq!(o.budget().unwrap(), 30);
        for bad in [0, -1, i64::MIN, i64::from(u32::MAX) + 1] {
            o.max_replays = bad;
            assert!(
                matches!(o.budget(), Err(RunError::InvalidArgument(_))),
                "{bad}"
            );
        }
        o.max_replays = 1;
        assert_eq!(o.budget().unwrap(), 1);
    }

    #[test]
    fn baseline_tries_must_be_at_least_one() {
        let mut o = MinimizeOptions::new("s");
        assert_eq!(o.search_options().unwrap(), SearchOptions::default());
        o.baseline_tries = 0;
        assert!(
            matches!(o.search_options(), Err(RunError::InvalidArgument(m)) if m.contains("baseline tries"))
        );
        o.baseline_tries = 5;
        assert_eq!(o.search_options().unwrap().baseline_tries, 5);
    }

    #[test]
    fn devices_must_be_at_least_one() {
        let mut o = MinimizeOptions::new("s");
        assert_eq!(o.pool_size().unwrap(), 1);
        o.devices = 0;
        assert!(
            matches!(o.pool_size(), Err(RunError::InvalidArgument(m)) if m.contains("devices"))
        );
        o.devices = 4;
        assert_eq!(o.pool_size().unwrap(), 4);
    }
}
