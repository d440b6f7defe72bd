use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum MaskError {
    #[error("masking id pattern is not a valid regex: {0}")]
    Pattern(#[from] regex::Error),
    #[error("cannot write masked screenshot {path}: {source}")]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot encode masked screenshot {path}: {message}")]
    Encode { path: PathBuf, message: String },
}
