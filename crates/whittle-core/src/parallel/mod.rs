//! Parallel replay on N devices (issue #7, part 2; streaming since issue 31):
//! speculation by lookahead, results consumed in the strategy's own order.
//!
//! The scheduler keeps a *tree* of jobs (`tree.rs`, issue 45): the real reducer's own
//! request at the root, and below each job the requests a clone of the reducer makes if
//! it reproduces and if it does not. The [`Predictor`] gives each guess a chance, and
//! whenever a device is free [`Scheduler::dispatch`] grows the tree where a job is
//! likeliest to be used: a chain where the prediction is sure, both answers where it is
//! a coin toss (a bisection query). Devices report in any order; the finished root is
//! fed to the real reducer at once, each job the very request (phase, candidate) it
//! makes at that point, and the branch that assumed the other outcome is cut: its jobs
//! run in vain. They ran on devices that would otherwise have idled, their verdicts are
//! never used, and the budget does not count them (they are counted apart, and capped
//! by the speculation limit, by default the budget again); their attempt numbers are
//! skipped. The real reducer therefore sees exactly the requests and outcomes it would
//! have seen on one device, is charged exactly what it would be, and reaches the same
//! result with the same flags: more devices only ever make it sooner (issue 31).
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
