//! What a flow file may be before either parser reads it: its size, its encoding, how
//! many steps it may hold.

use super::error::{ImportError, ImportProblem};

/// A flow file larger than this is refused before it is parsed: real flows and recorded
/// Robo scripts are kilobytes to a few hundred kilobytes.
pub const MAX_FLOW_BYTES: usize = 2 * 1024 * 1024;
/// More steps than this is not a flow a person wrote or recorded.
pub const MAX_FLOW_STEPS: usize = 10_000;

/// The size and encoding checks both parsers start with.
pub(crate) fn checked_text<'a>(file: &str, bytes: &'a [u8]) -> Result<&'a str, ImportError> {
    if bytes.len() > MAX_FLOW_BYTES {
        return Err(ImportError::file(
            file,
            ImportProblem::TooLarge {
                limit_bytes: MAX_FLOW_BYTES,
            },
        ));
    }
    std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        ImportError::at(file, Some(line), None, ImportProblem::NotUtf8)
    })
}
