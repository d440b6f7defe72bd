//! Every refusal of the `--listen` options, made before any socket opens.

use super::token::{TokenError, TOKEN_ENV};

#[derive(Debug, thiserror::Error)]
pub enum ListenError {
    #[error("--{0} needs --listen HOST:PORT")]
    NeedsListen(&'static str),
    #[error("--listen {listen}: {reason}")]
    Address { listen: String, reason: String },
    #[error(
        "--listen {listen} is reachable from the network and no bearer token is set: \
         give --token-file FILE or set {TOKEN_ENV} (nothing was opened)"
    )]
    NoToken { listen: String },
    /// The bearer token could not be read.
    #[error(transparent)]
    Token(#[from] TokenError),
    #[error("TLS needs both --tls-cert and --tls-key")]
    TlsPair,
    #[error("TLS: {0}")]
    Tls(String),
    #[error("--files-under {}: {source}", dir.display())]
    FilesUnder {
        dir: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("--files-under {}: not a folder", dir.display())]
    FilesUnderNotAFolder { dir: std::path::PathBuf },
    #[error("cannot listen on {listen}: {source}")]
    Bind {
        listen: String,
        #[source]
        source: std::io::Error,
    },
}
