use std::path::{Path, PathBuf};

use super::files::write_file;
use super::filmstrip::write_filmstrip;
use super::manifest::{ManifestShotDraft, BUNDLE_SCHEMA};
use super::redact::{redact_json, safe_line};
use super::{maestro_flow, repro_extras, robo_script, MAESTRO_FILE, ROBO_FILE};
use super::{
    repro_md, validate_bundle_name, ExportError, ExportInput, Manifest, ManifestShot, ReplayFile,
    MANIFEST_FILE, REPLAY_FILE, REPRO_FILE, SCREENSHOTS_DIR,
};
use crate::atomic::{write_atomic, FileMode};

/// Removes a bundle folder that was not completed.
struct PartialBundle {
    dir: PathBuf,
    done: bool,
}

impl Drop for PartialBundle {
    fn drop(&mut self) {
        if !self.done {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// Writes `<out_dir>/<name>/` and returns its path. Never overwrites an existing
/// folder; on any failure the partial folder is removed.
pub fn export_bundle(
    input: &ExportInput,
    out_dir: &Path,
    name: &str,
) -> Result<PathBuf, ExportError> {
    validate_bundle_name(name)?;
    for shot in &input.screenshots {
        if !shot.path.is_file() {
            return Err(ExportError::Screenshot(shot.path.clone()));
        }
    }
    std::fs::create_dir_all(out_dir).map_err(ExportError::io(out_dir))?;
    let dir = out_dir.join(name);
    match std::fs::create_dir(&dir) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            return Err(ExportError::Exists(dir))
        }
        Err(e) => return Err(ExportError::io(&dir)(e)),
    }
    let mut guard = PartialBundle {
        dir: dir.clone(),
        done: false,
    };
    write_contents(input, &dir)?;
    guard.done = true;
    Ok(dir)
}

fn write_contents(input: &ExportInput, dir: &Path) -> Result<(), ExportError> {
    let mut files = Vec::new();

    let shots_dir = dir.join(SCREENSHOTS_DIR);
    let mut shots = Vec::new();
    if !input.screenshots.is_empty() {
        std::fs::create_dir(&shots_dir).map_err(ExportError::io(&shots_dir))?;
    }
    for (i, shot) in input.screenshots.iter().enumerate() {
        let src = &shot.path;
        let bytes = std::fs::read(src).map_err(|_| ExportError::Screenshot(src.clone()))?;
        let mut rel = match &shot.attempt {
            Some(label) => format!(
                "{SCREENSHOTS_DIR}/attempt-{:03}-{}.png",
                label.attempt,
                label.verdict.slug()
            ),
            None => format!("{SCREENSHOTS_DIR}/{:02}-{}", i + 1, safe_file_name(src)),
        };
        if shots.iter().any(|s: &ManifestShotDraft| s.path == rel) {
            // Two screenshots claiming one attempt: keep both, told apart by position.
            rel = format!("{SCREENSHOTS_DIR}/{:02}-{}", i + 1, safe_file_name(src));
        }
        files.push(write_file(dir, &rel, &bytes)?);
        shots.push(ManifestShotDraft {
            path: rel,
            label: shot.attempt.clone(),
        });
    }
    let mut steps = input.steps.clone();
    for step in &mut steps {
        step.description = safe_line(&step.description);
        redact_json(&mut step.action);
    }
    let replay = ReplayFile {
        schema: BUNDLE_SCHEMA,
        package: input.package.clone(),
        app_version: input.app_version.clone(),
        target_fingerprint: input.target_fingerprint.clone(),
        target_label: input.target_label.clone(),
        original_path: input.original_path.clone(),
        minimal_path: input.minimal_path.clone(),
        steps,
    };
    files.push(write_file(dir, REPLAY_FILE, &to_json(&replay, dir)?)?);
    let (film_files, filmstrip) = match &input.filmstrip {
        Some(film) => {
            let (files, manifest) = write_filmstrip(dir, film)?;
            (files, Some(manifest))
        }
        None => (Vec::new(), None),
    };
    files.extend(film_files);
    files.push(write_file(
        dir,
        MAESTRO_FILE,
        maestro_flow(input).as_bytes(),
    )?);
    files.push(write_file(dir, ROBO_FILE, robo_script(input).as_bytes())?);
    let repro = repro_md::render(input, name_of(dir), &shots)
        + &repro_extras::render(input, filmstrip.as_ref());
    files.push(write_file(dir, REPRO_FILE, repro.as_bytes())?);

    let manifest = Manifest {
        schema: BUNDLE_SCHEMA,
        engine_version: input.engine_version.clone(),
        package: input.package.clone(),
        app_version: input.app_version.clone(),
        device: input.device.clone(),
        device_name: input.device_name.clone(),
        os_version: input.os_version.clone(),
        target_fingerprint: input.target_fingerprint.clone(),
        target_label: input.target_label.clone(),
        attempts: input.attempts,
        confidence: input.confidence,
        complete: input.complete,
        masking_level: input.masking_level,
        seal: Some(input.seal),
        screenshots: shots
            .into_iter()
            .filter_map(|s| {
                Some(ManifestShot {
                    path: s.path,
                    label: s.label?,
                })
            })
            .collect(),
        review: input.review.clone(),
        filmstrip,
        files,
    };
    write_manifest_last(dir, &to_json(&manifest, dir)?)
}

/// The bundle's folder name (already validated as one safe component).
fn name_of(dir: &Path) -> &str {
    dir.file_name().and_then(|n| n.to_str()).unwrap_or("bundle")
}

fn to_json<T: serde::Serialize>(value: &T, dir: &Path) -> Result<Vec<u8>, ExportError> {
    let mut bytes = serde_json::to_vec_pretty(value).map_err(|e| ExportError::Malformed {
        path: dir.to_path_buf(),
        message: e.to_string(),
    })?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// Atomic, so `manifest.json` appears whole or not at all; it is written last, so a
/// bundle with a manifest is complete.
fn write_manifest_last(dir: &Path, bytes: &[u8]) -> Result<(), ExportError> {
    let path = dir.join(MANIFEST_FILE);
    // Shared like the bundle's other files: a bundle is made to be handed on.
    write_atomic(&path, bytes, FileMode::Shared).map_err(ExportError::io(&path))
}

/// The screenshot's own file name restricted to safe characters.
fn safe_file_name(src: &Path) -> String {
    let name = crate::safe_chars::to_safe_chars(
        &src.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
    );
    if name.is_empty() || name.starts_with('.') {
        format!("screenshot{name}.png")
    } else {
        name
    }
}
