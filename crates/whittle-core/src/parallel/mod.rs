//! Parallel replay on N devices (issue #7, part 2): speculation by lookahead, results
//! consumed in the strategy's own order.
//!
//! Each round, [`Scheduler::dispatch`] clones the real reducer and runs the clone ahead
//! on *predicted* outcomes ([`Predictor`]), collecting up to one request per free
//! device. The driver runs the whole round concurrently and reports every outcome;
//! the scheduler then feeds them to the real reducer in order for as long as the real
//! reducer asks for exactly the request that was speculated (phase, candidate and
//! attempt number). From the first mismatch on, the rest of the round is wasted: those
//! replays ran on devices that would otherwise have idled, but their verdicts are never
//! used, and the budget does not count them (they are counted apart, and capped by the
//! speculation limit, by default the budget again). The real reducer therefore sees
//! exactly the requests and outcomes it would have seen on one device, is charged
//! exactly what it would be, and reaches the same result with the same flags: more
//! devices only ever make it sooner (issue 31).
//!
//! Rounds are synchronous (dispatch a chain, wait for all of it, consume): simpler
//! than a streaming pipeline and deterministic, at the cost of waiting for a round's
//! slowest replay. No I/O, no clock.

mod job;
mod predict;
mod scheduler;

#[cfg(test)]
mod props;

pub use job::{Job, Settled};
pub use predict::Predictor;
pub use scheduler::Scheduler;
