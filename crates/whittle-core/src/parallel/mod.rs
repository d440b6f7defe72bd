//! Parallel replay on N devices (issue #7, part 2; streaming since issue 31):
//! speculation by lookahead, results consumed in the strategy's own order.
//!
//! The scheduler keeps one *chain* of jobs: the real reducer's own request, then the
//! requests a clone of it makes on *predicted* outcomes ([`Predictor`]). Whenever a
//! device is free, [`Scheduler::dispatch`] extends the chain by one job per free
//! device. Devices report in any order; the chain's finished prefix is fed to the real
//! reducer at once, each job the very request (phase, candidate, attempt number) it
//! makes at that point. An outcome other than the one a later job was speculated on
//! cuts the chain where the reducer would ask for something else: the jobs past the
//! cut run in vain. They ran on devices that would otherwise have idled, their
//! verdicts are never used, and the budget does not count them (they are counted
//! apart, and capped by the speculation limit, by default the budget again); their
//! attempt numbers are skipped. The real reducer therefore sees exactly the requests
//! and outcomes it would have seen on one device, is charged exactly what it would be,
//! and reaches the same result with the same flags: more devices only ever make it
//! sooner (issue 31).
//!
//! Streaming keeps every device busy; a driver may as well dispatch in rounds (only
//! when nothing runs, completing in attempt order): the decisions are the same. No
//! I/O, no clock.

mod job;
mod predict;
mod scheduler;
mod tree;

#[cfg(test)]
mod props;

pub use job::{Job, Settled};
pub use predict::{Guess, Predictor};
pub use scheduler::Scheduler;
