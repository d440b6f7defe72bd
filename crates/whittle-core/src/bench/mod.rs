//! The benchmark harness behind `whittle bench` (issue #7): generated scenarios, an
//! in-process oracle that models the simulator's timing, the replay lower bound, N
//! devices driven by the parallel scheduler, and the report (table, JSON, SVG). Pure:
//! no I/O and no clock; the command measures wall-clock and writes the files.

mod bound;
mod devices;
mod flaky_summary;
mod flaky_table;
mod oracle;
mod report;
mod rng;
mod run;
mod scenario;
mod svg;
mod workload;

pub use bound::{ceil_log2_binomial, lower_bound};
pub use devices::simulate_on;
pub use flaky_summary::{
    flaky_goal, flaky_summary, flaky_summary_markdown, FlakyGoal, FlakySummary,
};
pub use flaky_table::{flaky_markdown, flaky_table, run_once, FlakyBench, FlakyRow};
pub use oracle::{SimOracle, SimReplay, Timing};
pub use report::{median, summarize, table, Row, Summary};
pub use rng::SplitMix64;
pub use run::{simulate, ReplayRecord, Run};
pub use scenario::{suite, Scenario, ScenarioKind};
pub use svg::plot;
pub use workload::{decide_all, Shape};
