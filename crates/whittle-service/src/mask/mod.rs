//! Local masking of replay screenshots before they are archived, failing closed
//! (`docs/SECURITY.md` §4): a screenshot is archived only when the UI hierarchy read
//! before and after it accounts for what it shows; then masks from the hierarchy
//! (password fields, private-looking text, configured ids, focused inputs, views it
//! cannot see into, surfaces of other windows over the app and the soft keyboard's band,
//! and at the strict level all text and images) plus the user's own
//! rectangles are burned into the pixels. Otherwise it is omitted, with the reason.

mod auto;
mod burn;
mod capture;
mod decode;
mod error;
mod frame;
mod nodes;
mod omit;
mod opaque;
mod outline;
mod overlay;
mod policy;
mod raw;
mod rect;
mod screenshot;
mod shot_omission;
mod strict;
mod text_lines;
mod uniform;

pub use auto::auto_masks;
pub use burn::{block_edge, burn_in, burn_in_over_text, ScreenPixel};
pub(crate) use capture::same_screen;
pub use capture::ShotMoment;
pub use decode::{
    decode_screenshot, read_screenshot, DecodeFailure, ScreenshotFormat, MAX_DECODE_ALLOC,
    MAX_SCREENSHOT_FILE_BYTES, MAX_SCREENSHOT_SIDE,
};
pub use error::MaskError;
pub(crate) use nodes::blank_under;
pub use omit::OmitReason;
pub use raw::RawScreenshot;
pub use rect::MaskRect;
pub(crate) use screenshot::mask_screenshot_outlined;
pub(crate) use screenshot::write_png_atomically;
pub use screenshot::{mask_screenshot, MaskOutcome};
pub use shot_omission::ShotOmission;
// Chosen in `whittle.json` (`masking.style`), so the configuration defines it.
pub use crate::config::MaskStyle;
pub use text_lines::TextLines;
pub use whittle_core::sensitive::looks_sensitive_text;
