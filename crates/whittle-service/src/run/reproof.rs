//! A run that re-proves another run's minimal path on this machine's device
//! (docs/SECURITY.md §12, "A run made elsewhere"). Nothing here can prove a run sealed by
//! another installation's journal key — a CI runner's, a colleague's — so it is never
//! approved as it is; its minimal path is only where a new run starts
//! (`ReplayPlan::starting_from`), and that run, replayed and sealed here, proves (or
//! disproves) it with the seed's own checks: every single deletion 0/3, the final path
//! 3/3.

use serde::{Deserialize, Serialize};

/// Where a re-proving run starts, and which run it re-proves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reproof {
    /// The evidence session of the run re-proven (in this workspace; made elsewhere).
    pub evidence_session: String,
    /// That run's minimal path: steps of the crash's recorded path, in its order.
    /// Untrusted (it was read from the other run's files): checked against the crash's
    /// own path before anything replays.
    pub path: Vec<u32>,
}
