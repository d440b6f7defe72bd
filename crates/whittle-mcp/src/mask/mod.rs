//! Local masking of replay screenshots before they are archived (SPEC §5): masks come
//! from the UI hierarchy (password fields, sensitive-looking text, configured ids,
//! focused inputs) plus the user's own rectangles, and are burned into the pixels.

mod auto;
mod burn;
mod error;
mod raw;
mod rect;
mod screenshot;
mod style;

pub use auto::auto_masks;
pub use burn::{burn_in, ScreenPixel};
pub use error::MaskError;
pub use raw::RawScreenshot;
pub use rect::MaskRect;
pub(crate) use screenshot::write_png_atomically;
pub use screenshot::{mask_screenshot, MaskOutcome};
pub use style::MaskStyle;
pub use whittle_core::sensitive::looks_sensitive_text;
