//! Why a picture of an evidence session (a screenshot or a filmstrip frame) could not be
//! shown, masked, previewed or omitted.

use std::path::PathBuf;

use super::picture::NotAPicture;
use crate::mask::{DecodeFailure, MaskError};

/// Why a review action on an archived screenshot failed.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    #[error("“{0}” is not a screenshot of this evidence session")]
    BadName(String),
    #[error("screenshot {0} is not there (omitted, or never archived)")]
    Missing(String),
    #[error("screenshot {name} is {bytes} bytes, over the {limit}-byte limit")]
    TooLarge {
        name: String,
        bytes: u64,
        limit: u64,
    },
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("screenshot {name} is not a readable PNG: {message}")]
    Decode { name: String, message: String },
    #[error("screenshot {name} could not be decoded: {reason}")]
    Undecodable {
        name: String,
        #[source]
        reason: DecodeFailure,
    },
    #[error("cannot remove {path}: {source}")]
    Remove {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("a mask must have a width and a height of at least 1 pixel")]
    EmptyMask,
    #[error("cannot save {path}: {source}")]
    Save {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Mask(#[from] MaskError),
}

impl From<NotAPicture> for ReviewError {
    fn from(NotAPicture(name): NotAPicture) -> Self {
        ReviewError::BadName(name)
    }
}
