//! One typed facade per role over the hub; arguments and results are the
//! `whittle_contract` types, and every call carries the per-call timeout.

mod analyzer;
mod log;
mod mobile;
mod report;
mod ui;

pub use analyzer::Analyzer;
pub use log::Log;
pub use mobile::Mobile;
pub use report::Report;
pub use ui::Ui;
