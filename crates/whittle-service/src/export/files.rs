//! A bundle's folder while it is written: made new in the folder the export goes to, every
//! file and subfolder of it made inside that folder's handle (`export_dir.rs`: no link
//! followed, no existing entry overwritten), and removed again — exactly what was made,
//! nothing else — unless the bundle is finished.

use std::io;
use std::path::PathBuf;

use sha2::{Digest, Sha256};

use super::export_dir::ExportDir;
use super::{ExportError, ManifestFile};
use crate::atomic::FileMode;

pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// A bundle folder being written (see the module documentation).
pub(crate) struct NewBundle<'a> {
    out: &'a ExportDir,
    name: String,
    dir: ExportDir,
    /// What was made inside, in order, as paths relative to the bundle (a folder's
    /// ending in `/`), for the removal of a bundle that was not finished.
    made: Vec<String>,
    finished: bool,
}

impl<'a> NewBundle<'a> {
    /// Makes the folder `name` in `out`; it must not exist (a bundle is never
    /// overwritten, nor a link planted there entered).
    pub(crate) fn create(out: &'a ExportDir, name: &str) -> Result<NewBundle<'a>, ExportError> {
        let path = out.path().join(name);
        match out.make_dir(name) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                return Err(ExportError::Exists(path))
            }
            Err(e) => return Err(ExportError::io(&path)(e)),
        }
        let dir = match out.open_dir(name) {
            Ok(dir) => dir,
            Err(e) => {
                // Swapped between the mkdir and the open: what stands there is not ours.
                return Err(ExportError::io(&path)(e.into()));
            }
        };
        Ok(NewBundle {
            out,
            name: name.to_owned(),
            dir,
            made: Vec::new(),
            finished: false,
        })
    }

    /// The bundle's path, as the folder it went into was named when opened.
    pub(crate) fn path(&self) -> PathBuf {
        self.out.path().join(&self.name)
    }

    /// The bundle's folder name (already validated as one safe component).
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// Makes the subfolder `rel` (`screenshots`).
    pub(crate) fn create_dir(&mut self, rel: &str) -> Result<(), ExportError> {
        let path = self.path().join(rel);
        let (folder, name) = self.folder_of(rel).map_err(ExportError::io(&path))?;
        folder.make_dir(name).map_err(ExportError::io(&path))?;
        self.made.push(format!("{rel}/"));
        Ok(())
    }

    /// Writes `bytes` to the new file `rel` and returns its manifest line.
    pub(crate) fn write(&mut self, rel: &str, bytes: &[u8]) -> Result<ManifestFile, ExportError> {
        let path = self.path().join(rel);
        let (folder, name) = self.folder_of(rel).map_err(ExportError::io(&path))?;
        folder
            .write_new(name, bytes)
            .map_err(ExportError::io(&path))?;
        self.made.push(rel.to_owned());
        Ok(ManifestFile {
            path: rel.to_string(),
            sha256: sha256_hex(bytes),
        })
    }

    /// Writes the file `name` of the bundle's own folder atomically: it appears whole or
    /// not at all.
    pub(crate) fn write_atomic(&mut self, name: &str, bytes: &[u8]) -> Result<(), ExportError> {
        // Shared like the bundle's other files: a bundle is made to be handed on.
        self.dir
            .write_atomic(name, bytes, FileMode::Shared)
            .map_err(ExportError::io(self.path().join(name)))?;
        self.made.push(name.to_owned());
        Ok(())
    }

    /// Keeps the bundle; returns its path.
    pub(crate) fn finish(mut self) -> PathBuf {
        self.finished = true;
        self.path()
    }

    /// The folder holding `rel` (entered step by step, never through a link) and its
    /// last name.
    fn folder_of<'r>(&self, rel: &'r str) -> io::Result<(Folder<'_>, &'r str)> {
        let mut steps: Vec<&str> = rel.split('/').collect();
        let name = steps.pop().unwrap_or(rel);
        let mut folder = Folder::Bundle(&self.dir);
        for step in steps {
            folder = Folder::Inner(folder.enter(step)?);
        }
        Ok((folder, name))
    }

    /// Removes what was made, last first. Best effort: an entry that is not there any
    /// more, or a folder something else was put in, stays as it is.
    fn remove_made(&self) {
        for rel in self.made.iter().rev() {
            let (rel, is_dir) = match rel.strip_suffix('/') {
                Some(folder) => (folder, true),
                None => (rel.as_str(), false),
            };
            let Ok((folder, name)) = self.folder_of(rel) else {
                continue;
            };
            let _ = if is_dir {
                folder.remove_dir(name)
            } else {
                folder.remove_file(name)
            };
        }
        let _ = self.out.remove_dir(&self.name);
    }
}

impl Drop for NewBundle<'_> {
    fn drop(&mut self) {
        if !self.finished {
            self.remove_made();
        }
    }
}

/// The bundle's folder, or one opened inside it.
enum Folder<'a> {
    Bundle(&'a ExportDir),
    Inner(ExportDir),
}

impl std::ops::Deref for Folder<'_> {
    type Target = ExportDir;
    fn deref(&self) -> &ExportDir {
        match self {
            Folder::Bundle(dir) => dir,
            Folder::Inner(dir) => dir,
        }
    }
}

impl Folder<'_> {
    fn enter(&self, name: &str) -> io::Result<ExportDir> {
        Ok((**self).open_dir(name)?)
    }
}
