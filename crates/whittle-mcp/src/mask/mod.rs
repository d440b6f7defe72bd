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
mod text_lines;

pub use auto::auto_masks;
pub use burn::{block_edge, burn_in, burn_in_over_text, ScreenPixel};
pub use error::MaskError;
pub use raw::RawScreenshot;
pub use rect::MaskRect;
pub(crate) use screenshot::write_png_atomically;
pub use screenshot::{mask_screenshot, MaskOutcome};
pub use style::MaskStyle;
pub use text_lines::TextLines;
pub use whittle_core::sensitive::looks_sensitive_text;
