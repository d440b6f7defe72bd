//! The benchmark harness behind `whittle bench` and `cargo bench -p whittle-bench`:
//! generated scenarios, an in-process oracle with the simulator's timing (read from the
//! simulator's own model of the demo app), the replay lower bound, N devices driven by
//! the parallel scheduler, and the report (table, JSON, SVG). No I/O and no clock: the
//! command measures wall-clock and writes the files. Its own crate because none of it
//! is the domain (`docs/architecture.md`).

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

pub use devices::simulate_on;
pub use flaky_summary::{
    flaky_goal, flaky_summary, flaky_summary_markdown, FlakyGoal, FlakySummary,
};
pub use flaky_table::{flaky_markdown, flaky_table, run_once, FlakyBench, FlakyRow};
pub use oracle::{OracleTiming, SimOracle, SimReplay};
pub use report::{median, ratio_text, summarize, table, Row, Summary};
pub use rng::SplitMix64;
pub use run::{simulate, ReplayRecord, Run};
pub use scenario::{suite, Scenario, ScenarioKind};
pub use svg::plot;
pub use whittle_core::bound::{ceil_log2_binomial, lower_bound};
pub use workload::{decide_all, Shape};
