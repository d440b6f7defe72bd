//! The record kept beside each archived screenshot (`attempt-NNN.masks.json`): what
//! was burned into it, so the viewer can outline it and later masks can match it, and
//! the hierarchy the picture shows, blanked where it is masked (the inspector's nodes).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use whittle_core::inspect::InspectNode;

use crate::atomic::{write_atomic, FileMode};
use crate::config::PrivacyLevel;
use crate::mask::{MaskRect, MaskStyle, TextLines};

/// Next to each archived `attempt-NNN.png`: which masks are burned into it, at which
/// privacy level it was archived (`None` in records written before levels existed), and
/// where the hierarchy reported text (so masks added later hide it as well as the first
/// ones).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MaskRecord {
    pub style: MaskStyle,
    pub masks: Vec<MaskRect>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<PrivacyLevel>,
    #[serde(default)]
    pub text_lines: TextLines,
    /// The UI hierarchy read with the picture, in its pixels, with the words of every
    /// node a mask touches blanked (`mask/nodes.rs`); empty in records written before
    /// the inspector, and for blank frames.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nodes: Vec<InspectNode>,
}

/// The record file of a screenshot: `attempt-NNN.masks.json`.
pub fn record_path(png: &Path) -> PathBuf {
    png.with_extension("masks.json")
}

/// Writes the record of the masks just burned into `png`. A missing record only costs
/// the overlays in the viewer, never privacy, so failures are the caller's to report.
pub fn write_record(png: &Path, record: &MaskRecord) -> std::io::Result<()> {
    let json = serde_json::to_vec_pretty(record).map_err(std::io::Error::other)?;
    write_atomic(&record_path(png), &json, FileMode::Private)
}

pub(crate) fn read_record(png: &Path) -> MaskRecord {
    std::fs::read(record_path(png))
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default()
}
