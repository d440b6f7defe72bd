use super::ExportError;

/// A bundle name is one path component of `[A-Za-z0-9._-]`, 1-128 chars, not `.`/`..`,
/// so it can never point outside the output folder.
pub fn validate_bundle_name(name: &str) -> Result<(), ExportError> {
    let ok = (1..=128).contains(&name.len())
        && name != "."
        && name != ".."
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    if ok {
        Ok(())
    } else {
        Err(ExportError::BadName(name.to_string()))
    }
}
