//! Bug-ticket bundles (SPEC §7): `<out>/<name>/` with repro.md, replay.json, masked
//! screenshots and, written last, manifest.json with the SHA-256 of every file, so a
//! folder with a manifest is complete.

mod error;
mod files;
mod input;
mod manifest;
mod name;
mod read;
mod redact;
mod repro_md;
mod write;

pub use error::ExportError;
pub use input::{ExportInput, ExportShot, ExportStep, ShotLabel, ShotVerdict};
pub use manifest::{
    Manifest, ManifestFile, ManifestShot, ReplayFile, MANIFEST_FILE, REPLAY_FILE, REPRO_FILE,
    SCREENSHOTS_DIR,
};
pub use name::validate_bundle_name;
pub use read::{read_bundle, Bundle};
pub use redact::safe_block;
pub use write::export_bundle;
