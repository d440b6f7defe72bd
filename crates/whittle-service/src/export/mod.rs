//! Bug-ticket bundles (docs/design.md §7): `<out>/<name>/` with repro.md, replay.json, masked
//! screenshots and, written last, manifest.json with the SHA-256 of every file, so a
//! folder with a manifest is complete.

mod error;
mod export_dir;
mod files;
mod filmstrip;
mod flow_steps;
mod input;
mod maestro_flow;
mod manifest;
mod name;
mod read;
mod redact;
mod repro_extras;
mod repro_md;
mod review_summary;
mod robo_script;
mod seal_check;
mod ticket;
mod write;

pub use error::ExportError;
pub use export_dir::{BeneathError, ExportDir};
pub use input::{
    BundleFrame, ExportInput, ExportShot, ExportStep, FilmstripInput, ShotLabel, ShotVerdict,
};
pub use maestro_flow::{maestro_flow, maestro_selector};
pub use manifest::{
    Manifest, ManifestFile, ManifestFilmstrip, ManifestFrame, ManifestShot, ReplayFile,
    FILMSTRIP_DIR, FILMSTRIP_GIF, MAESTRO_FILE, MANIFEST_FILE, REPLAY_FILE, REPRO_FILE, ROBO_FILE,
    SCREENSHOTS_DIR,
};
pub use name::validate_bundle_name;
pub use read::{read_bundle, Bundle};
pub use redact::safe_block;
pub use review_summary::{FrameRef, ReviewSummary};
pub use robo_script::{robo_descriptor, robo_script};
pub use seal_check::SealCheck;
pub use ticket::ticket_markdown;
pub use write::{export_bundle, export_bundle_in};
