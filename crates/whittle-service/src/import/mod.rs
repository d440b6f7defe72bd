//! `whittle import`: a Maestro flow or a Robo script becomes a session of the workspace
//! (docs/design.md §1 format, new-format `notes.replay`), written whole or not at all; `record`
//! then replays it once to find the crashes it causes.

mod error;
mod record;
mod record_end;
mod record_result;
mod summary;
mod write;

pub use error::{ImportFailure, RecordError};
pub use record::{record_device, record_session, RecordOptions, RecordOutcome, RecordedCrash};
pub use record_end::RecordEnd;
pub use summary::{ImportSummary, SkippedStep};
pub use write::{import_flow, read_flow, ImportOptions, ReadFlow};
