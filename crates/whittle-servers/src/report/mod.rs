//! The `report` role (docs/design.md §2): a session store in a workspace folder.
mod error;
mod id;
mod markdown;
mod store;
mod tools;

pub use error::ReportError;
pub use store::{ReportStore, REPORT_FILE};
