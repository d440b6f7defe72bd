use std::path::PathBuf;

/// Why `whittle.json` could not be used; always names the file, and the field when one is at fault.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config {file}: {source}")]
    Read {
        file: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("config {file} is not valid JSON (line {line}, column {column}): {message}")]
    Syntax {
        file: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("config {file}: field `{field}`: {message}")]
    Field {
        file: PathBuf,
        field: String,
        message: String,
    },
}

impl ConfigError {
    /// The stable code a front end switches on and a catalogue words.
    pub fn code(&self) -> &'static str {
        match self {
            ConfigError::Read { .. } => "config_unreadable",
            ConfigError::Syntax { .. } => "config_not_json",
            ConfigError::Field { .. } => "config_field",
        }
    }
}
