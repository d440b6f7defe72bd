use std::path::Path;

use tempfile::NamedTempFile;

/// An unmasked screenshot on disk: a private (0600) temp file that is deleted when this
/// value is dropped, so the raw pixels never outlive the masking step whatever happens.
/// Pass [`RawScreenshot::path`] as the `saveTo` of `mobile_save_screenshot`.
#[derive(Debug)]
pub struct RawScreenshot {
    file: NamedTempFile,
}

impl RawScreenshot {
    /// Creates an empty private file in `dir` (use a folder outside the archive).
    pub fn new_in(dir: &Path) -> std::io::Result<RawScreenshot> {
        let file = tempfile::Builder::new()
            .prefix(".whittle-raw-")
            .suffix(".png")
            .tempfile_in(dir)?;
        Ok(RawScreenshot { file })
    }

    /// Creates it in the system temp folder.
    pub fn new() -> std::io::Result<RawScreenshot> {
        RawScreenshot::new_in(&std::env::temp_dir())
    }

    pub fn path(&self) -> &Path {
        self.file.path()
    }
}
