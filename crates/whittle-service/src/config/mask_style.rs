use serde::{Deserialize, Serialize};

/// How a masked region is obscured. Solid and pixelate destroy the content; blur is
/// applied on top of a pixelation so it cannot be deconvolved back to the original.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "lowercase")]
pub enum MaskStyle {
    #[default]
    Solid,
    Pixelate,
    Blur,
}
