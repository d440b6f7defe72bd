//! The language of the CLI's human output: the POSIX environment decides (`LC_ALL`,
//! then `LC_MESSAGES`, then `LANG`; the first non-empty one). `--json` output never
//! depends on it. Every word, the CLI's own lines included, is in the `whittle-text`
//! catalogue; this module only reads the environment once.

use std::sync::OnceLock;

pub use whittle_text::{CliWords, Locale};

/// Read once: the environment does not change while the command runs.
pub fn current() -> Locale {
    static LOCALE: OnceLock<Locale> = OnceLock::new();
    *LOCALE.get_or_init(|| Locale::from_posix_env(|name| std::env::var(name).ok()))
}

/// The CLI's own words around the report (prompt, progress, errors), in the current
/// language.
pub fn words() -> &'static CliWords {
    &whittle_text::catalogue(current()).cli
}
