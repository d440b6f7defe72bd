use std::path::{Path, PathBuf};

use super::export_dir::ExportDir;
use super::files::NewBundle;
use super::filmstrip::write_filmstrip;
use super::manifest::{ManifestShotDraft, BUNDLE_SCHEMA};
use super::redact::{redact_json, safe_line};
use super::{maestro_flow, repro_extras, robo_script, MAESTRO_FILE, ROBO_FILE};
use super::{
    repro_md, validate_bundle_name, ExportError, ExportInput, Manifest, ManifestShot, ReplayFile,
    MANIFEST_FILE, REPLAY_FILE, REPRO_FILE, SCREENSHOTS_DIR,
};

/// Writes `<out_dir>/<name>/` into the tester's own folder `out_dir` (created if
/// missing, opened as its path says) and returns its path. See [`export_bundle_in`].
pub fn export_bundle(
    input: &ExportInput,
    out_dir: &Path,
    name: &str,
) -> Result<PathBuf, ExportError> {
    check_request(input, name)?;
    let out = ExportDir::create(out_dir).map_err(ExportError::io(out_dir))?;
    export_bundle_in(input, &out, name)
}

/// Writes the bundle `name` into the open folder `out` and returns its path. Every file
/// is made inside `out`'s handle, never through a link; an existing bundle is never
/// overwritten; on any failure what was made is removed.
pub fn export_bundle_in(
    input: &ExportInput,
    out: &ExportDir,
    name: &str,
) -> Result<PathBuf, ExportError> {
    check_request(input, name)?;
    let mut bundle = NewBundle::create(out, name)?;
    write_contents(input, &mut bundle)?;
    Ok(bundle.finish())
}

/// A bad name or a missing screenshot is refused before anything is made.
fn check_request(input: &ExportInput, name: &str) -> Result<(), ExportError> {
    validate_bundle_name(name)?;
    for shot in &input.screenshots {
        if !shot.path.is_file() {
            return Err(ExportError::Screenshot(shot.path.clone()));
        }
    }
    Ok(())
}

fn write_contents(input: &ExportInput, bundle: &mut NewBundle<'_>) -> Result<(), ExportError> {
    let mut files = Vec::new();

    let mut shots = Vec::new();
    if !input.screenshots.is_empty() {
        bundle.create_dir(SCREENSHOTS_DIR)?;
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
        files.push(bundle.write(&rel, &bytes)?);
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
    files.push(bundle.write(REPLAY_FILE, &to_json(&replay, &bundle.path())?)?);
    let (film_files, filmstrip) = match &input.filmstrip {
        Some(film) => {
            let (files, manifest) = write_filmstrip(bundle, film)?;
            (files, Some(manifest))
        }
        None => (Vec::new(), None),
    };
    files.extend(film_files);
    files.push(bundle.write(MAESTRO_FILE, maestro_flow(input).as_bytes())?);
    files.push(bundle.write(ROBO_FILE, robo_script(input).as_bytes())?);
    let repro = repro_md::render(input, bundle.name(), &shots)
        + &repro_extras::render(input, filmstrip.as_ref());
    files.push(bundle.write(REPRO_FILE, repro.as_bytes())?);

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
    // Atomic, so `manifest.json` appears whole or not at all; it is written last, so a
    // bundle with a manifest is complete.
    let manifest = to_json(&manifest, &bundle.path())?;
    bundle.write_atomic(MANIFEST_FILE, &manifest)
}

fn to_json<T: serde::Serialize>(value: &T, dir: &Path) -> Result<Vec<u8>, ExportError> {
    let mut bytes = serde_json::to_vec_pretty(value).map_err(|e| ExportError::Malformed {
        path: dir.to_path_buf(),
        message: e.to_string(),
    })?;
    bytes.push(b'\n');
    Ok(bytes)
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
