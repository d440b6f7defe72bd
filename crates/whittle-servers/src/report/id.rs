//! New session ids: `YYYY-MM-DD_HHMMSS_<name>`, within the id alphabet `[A-Za-z0-9._-]`.
use chrono::NaiveDateTime;

/// Longest id a session may have (same bound as `validate_session_id`).
const MAX_ID_LEN: usize = 128;
/// Room kept for a `-NN` suffix when the id is already taken.
const SUFFIX_ROOM: usize = 4;

/// Maps a free-form name to the id alphabet: other characters (and `.`, so no name can
/// look like a path step) become `_`, runs of `_` collapse, and a name with nothing
/// usable becomes `session`.
pub fn sanitize_name(name: &str) -> String {
    let mut out = String::new();
    for c in name.trim().chars() {
        let c = if c.is_ascii_alphanumeric() || matches!(c, '_' | '-') {
            c
        } else {
            '_'
        };
        if !(c == '_' && out.ends_with('_')) {
            out.push(c);
        }
    }
    let trimmed = out.trim_matches('_');
    if trimmed.is_empty() {
        "session".to_string()
    } else {
        trimmed.to_string()
    }
}

/// The id for a session started at `now` (local wall-clock time) under `name`.
pub fn base_id(now: NaiveDateTime, name: &str) -> String {
    let stamp = now.format("%Y-%m-%d_%H%M%S").to_string();
    let mut name = sanitize_name(name);
    let room = MAX_ID_LEN - SUFFIX_ROOM - stamp.len() - 1;
    if name.len() > room {
        // The sanitized name is ASCII, so any byte index is a char boundary.
        name.truncate(room);
    }
    format!("{stamp}_{name}")
}

/// The `attempt`-th candidate: the base id, then `<base>-2`, `<base>-3`...
pub fn candidate(base: &str, attempt: u32) -> String {
    if attempt <= 1 {
        base.to_string()
    } else {
        format!("{base}-{attempt}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use whittle_core::session::validate_session_id;

    fn at() -> NaiveDateTime {
        chrono::NaiveDate::from_ymd_opt(2025, 3, 9)
            .and_then(|d| d.and_hms_opt(7, 5, 3))
            .unwrap()
    }

    #[test]
    fn ids_have_the_spec_shape_and_a_safe_name() {
        assert_eq!(
            base_id(at(), "checkout flow"),
            "2025-03-09_070503_checkout_flow"
        );
        assert_eq!(
            base_id(at(), "../../etc/passwd"),
            "2025-03-09_070503_etc_passwd"
        );
        assert_eq!(base_id(at(), "日本"), "2025-03-09_070503_session");
        assert_eq!(base_id(at(), ""), "2025-03-09_070503_session");
        assert_eq!(base_id(at(), "a\0b"), "2025-03-09_070503_a_b");
    }

    #[test]
    fn every_candidate_is_a_valid_id() {
        for name in ["x".repeat(500), "..".into(), "a/b".into(), " \t".into()] {
            let base = base_id(at(), &name);
            for attempt in [1, 2, 999] {
                let id = candidate(&base, attempt);
                assert!(validate_session_id(&id).is_ok(), "{id}");
            }
        }
    }
}
