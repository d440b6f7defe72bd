use std::io::Write;
use std::path::Path;

use sha2::{Digest, Sha256};

use super::{ExportError, ManifestFile};

pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Writes `bytes` to `bundle/rel` and returns its manifest line.
pub(crate) fn write_file(
    bundle: &Path,
    rel: &str,
    bytes: &[u8],
) -> Result<ManifestFile, ExportError> {
    let path = bundle.join(rel);
    let mut file = std::fs::File::create(&path).map_err(ExportError::io(&path))?;
    file.write_all(bytes).map_err(ExportError::io(&path))?;
    file.sync_all().map_err(ExportError::io(&path))?;
    Ok(ManifestFile {
        path: rel.to_string(),
        sha256: sha256_hex(bytes),
    })
}
