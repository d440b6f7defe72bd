//! What a minimize run leaves in its evidence session besides the report server's
//! steps: masked screenshots and filmstrip frames (one picture name each, `picture.rs`),
//! `result.json`, the Phase-5 section of `report.md`, and the export of all that into a
//! bug-ticket bundle.

mod before_frame;
mod checklist;
mod filmstrip;
mod mask_record;
mod picture;
mod preview;
mod report_section;
mod review;
mod review_error;
mod screenshot;
mod shot_name;
mod thumbnail;

pub use before_frame::{AttemptShot, BeforeLastAction};
pub use checklist::{mark_reviewed, review_checklist, ReviewChecklist, ShotReview, REVIEW_FILE};
// Defined with the bundle manifest that records it; named here too, beside the checklist.
pub use crate::export::ReviewSummary;
pub(crate) use filmstrip::for_export as filmstrip_for_export;
pub use filmstrip::{FilmRecorder, FilmSource, FilmstripRecord, FILMSTRIP_DIR};
pub use picture::{NotAPicture, PictureName};
pub use preview::{preview_masks, MaskPatch};
pub use report_section::append_report_section;
// `result.json` belongs to `crate::result`; named here too, beside the rest of the
// evidence session's files.
pub use crate::mask::ShotOmission;
pub use crate::result::{read_result, write_result, ResultFileError};
pub use mask_record::MaskRecord;
pub use review::{apply_masks, omit_shot, review_shot, ReviewedShot};
pub use review_error::ReviewError;
pub use screenshot::{archive_screenshot, ArchivedShot, SCREENSHOTS_DIR};
pub(crate) use screenshot::{DeviceScreen, HubScreen};
pub(crate) use shot_name::shot_path;
pub use shot_name::validate_shot_name;
pub use thumbnail::{png_data_url, session_step_png, thumbnail_png, THUMBNAIL_HEIGHT};
