//! The bearer token `--listen` requires: read once, never printed, compared in constant
//! time so a client cannot learn it byte by byte from response times.
use std::fmt;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// The environment variable read when `--token-file` is not given.
pub const TOKEN_ENV: &str = "WHITTLE_SERVER_TOKEN";

/// Why the bearer token could not be read; never quotes the token.
#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    #[error("--token-file {}: {source}", file.display())]
    FileUnreadable {
        file: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("--token-file {}: {source}", file.display())]
    FileWeak {
        file: PathBuf,
        #[source]
        source: WeakTokenError,
    },
    #[error("{TOKEN_ENV}: is not valid UTF-8")]
    EnvNotUnicode,
    #[error("{TOKEN_ENV}: {0}")]
    EnvWeak(#[source] WeakTokenError),
}

/// Why a token is too easy to guess or cannot travel in a header; never quotes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum WeakTokenError {
    #[error("the token must be at least {MIN_TOKEN_LEN} characters (e.g. `openssl rand -hex 32`)")]
    TooShort,
    #[error("the token must be printable ASCII without spaces")]
    NotPrintable,
}

/// Shorter tokens are guessable; `openssl rand -hex 32` gives 64 characters.
pub const MIN_TOKEN_LEN: usize = 16;

/// A secret: `Debug` shows `[redacted]`, there is no `Display`.
#[derive(Clone)]
pub struct BearerToken {
    /// SHA-256 of the token: both sides are hashed before the comparison, so neither
    /// its content nor its length shows in the time a wrong guess takes.
    digest: [u8; 32],
}

impl fmt::Debug for BearerToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("BearerToken([redacted])")
    }
}

impl BearerToken {
    /// The token from `file` (surrounding whitespace, e.g. a final newline, dropped).
    pub fn from_file(file: &Path) -> Result<BearerToken, TokenError> {
        let text = std::fs::read_to_string(file).map_err(|source| TokenError::FileUnreadable {
            file: file.to_path_buf(),
            source,
        })?;
        BearerToken::new(text.trim()).map_err(|source| TokenError::FileWeak {
            file: file.to_path_buf(),
            source,
        })
    }

    /// The token from `WHITTLE_SERVER_TOKEN`, when it is set.
    pub fn from_env() -> Result<Option<BearerToken>, TokenError> {
        match std::env::var(TOKEN_ENV) {
            Err(std::env::VarError::NotPresent) => Ok(None),
            Err(std::env::VarError::NotUnicode(_)) => Err(TokenError::EnvNotUnicode),
            Ok(value) => BearerToken::new(value.trim())
                .map(Some)
                .map_err(TokenError::EnvWeak),
        }
    }

    /// A token of printable ASCII (it travels in an HTTP header), at least
    /// `MIN_TOKEN_LEN` long. The error never quotes the value.
    pub fn new(token: &str) -> Result<BearerToken, WeakTokenError> {
        if token.len() < MIN_TOKEN_LEN {
            return Err(WeakTokenError::TooShort);
        }
        if !token.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(WeakTokenError::NotPrintable);
        }
        Ok(BearerToken {
            digest: Sha256::digest(token.as_bytes()).into(),
        })
    }

    /// True when `header` (an `Authorization` value) is `Bearer <this token>`; the
    /// scheme is case-insensitive (RFC 7235).
    pub fn accepts(&self, header: Option<&[u8]>) -> bool {
        let Some(header) = header else {
            return false;
        };
        let Some((scheme, presented)) = split_scheme(header) else {
            return false;
        };
        if !scheme.eq_ignore_ascii_case(b"bearer") {
            return false;
        }
        let presented: [u8; 32] = Sha256::digest(presented).into();
        presented.ct_eq(&self.digest).into()
    }
}

fn split_scheme(header: &[u8]) -> Option<(&[u8], &[u8])> {
    let at = header.iter().position(|b| *b == b' ')?;
    let (scheme, rest) = header.split_at(at);
    let rest = rest.trim_ascii();
    (!rest.is_empty()).then_some((scheme, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "0123456789abcdef-lab";

    #[test]
    fn only_the_exact_bearer_token_is_accepted() {
        let t = BearerToken::new(TOKEN).unwrap();
        assert!(t.accepts(Some(format!("Bearer {TOKEN}").as_bytes())));
        assert!(t.accepts(Some(format!("bearer {TOKEN}").as_bytes())));
        for bad in [
            String::new(),
            TOKEN.to_string(),
            format!("Basic {TOKEN}"),
            format!("Bearer {TOKEN}x"),
            format!("Bearer {}", &TOKEN[1..]),
            "Bearer ".to_string(),
            format!("Bearer{TOKEN}"),
        ] {
            assert!(!t.accepts(Some(bad.as_bytes())), "{bad:?}");
        }
        assert!(!t.accepts(None));
    }

    #[test]
    fn weak_tokens_are_refused_without_quoting_them() {
        let short = BearerToken::new("hunter2").unwrap_err().to_string();
        assert!(short.contains("at least 16") && !short.contains("hunter2"));
        let spaced = BearerToken::new("a long token with spaces")
            .unwrap_err()
            .to_string();
        assert!(!spaced.contains("with spaces"));
    }

    #[test]
    fn debug_never_shows_the_token() {
        let t = BearerToken::new(TOKEN).unwrap();
        let shown = format!("{t:?}");
        assert!(!shown.contains(TOKEN) && shown.contains("redacted"));
    }

    #[test]
    fn a_token_file_loses_its_final_newline() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("token");
        std::fs::write(&file, format!("{TOKEN}\n")).unwrap();
        let t = BearerToken::from_file(&file).unwrap();
        assert!(t.accepts(Some(format!("Bearer {TOKEN}").as_bytes())));
        let missing = BearerToken::from_file(&dir.path().join("nope")).unwrap_err();
        assert!(missing.to_string().contains("nope"));
    }
}
