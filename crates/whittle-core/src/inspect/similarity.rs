//! How alike two values are, as the inspector scores a near miss: normalized
//! Levenshtein (strsim), case-insensitive, so a typo or a case slip scores high and an
//! unrelated value low.
use crate::plan::element_match::normalize;

/// 0.0..=1.0, 1 = the same after lower-casing; `None` when either side is blank.
pub(super) fn text_similarity(found: &str, wanted: &str) -> Option<f64> {
    let (found, wanted) = (normalize(found), normalize(wanted));
    if found.is_empty() || wanted.is_empty() {
        return None;
    }
    Some(strsim::normalized_levenshtein(
        &found.to_lowercase(),
        &wanted.to_lowercase(),
    ))
}

/// Like [`text_similarity`] for resource ids: by view name (the part after `:id/`), so
/// `com.x:id/sbumit` is close to `submit` however long the package, and by the whole
/// ids, so a testID or a mistyped prefix (`com.x.id/submit`) is compared as written. The
/// whole ids are left out when both name a view: two ids of one package share a long
/// prefix that says nothing about the view (`…launcher:id/clock` and
/// `…launcher:id/mic_icon` would look alike).
pub(super) fn id_similarity(found: &str, wanted: &str) -> Option<f64> {
    let whole = text_similarity(found, wanted)?;
    let (found_name, found_is_view) = view_name(found.trim());
    let (wanted_name, wanted_is_view) = view_name(wanted.trim());
    let name = text_similarity(found_name, wanted_name).unwrap_or(0.0);
    Some(if found_is_view && wanted_is_view {
        name
    } else {
        whole.max(name)
    })
}

/// `pkg:id/name` and `id/name` → (`name`, true); anything else (a testID) is its own
/// name (false).
fn view_name(id: &str) -> (&str, bool) {
    id.split_once(":id/")
        .map(|(_, name)| name)
        .or_else(|| id.strip_prefix("id/"))
        .filter(|name| !name.is_empty())
        .map_or((id, false), |name| (name, true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_and_white_space_do_not_count_and_blanks_are_not_compared() {
        assert_eq!(text_similarity("SIGN UP ", "sign\u{a0}up"), Some(1.0));
        assert_eq!(text_similarity("", "a"), None);
        assert_eq!(text_similarity("a", " "), None);
        let typo = text_similarity("Submit", "Sbumit").unwrap_or_default();
        assert!(typo > 0.6 && typo < 1.0, "{typo}");
        let unrelated = text_similarity("Submit", "Cancel").unwrap_or_default();
        assert!(unrelated < 0.4, "{unrelated}");
    }

    #[test]
    fn ids_compare_whole_and_by_view_name() {
        assert_eq!(id_similarity("com.x:id/submit", "SUBMIT"), Some(1.0));
        assert_eq!(id_similarity("id/submit", "submit"), Some(1.0));
        assert_eq!(view_name("com.x:id/"), ("com.x:id/", false));
        assert_eq!(view_name("login:submit"), ("login:submit", false));
        let same_package =
            id_similarity("com.x.long.package:id/clock", "com.x.long.package:id/icon");
        assert!(same_package.unwrap_or(1.0) < 0.4, "{same_package:?}");
        let bad_prefix = id_similarity("com.x:id/submit", "com.x.id/submit").unwrap_or(0.0);
        assert!(bad_prefix > 0.9, "{bad_prefix}");
        let typo = id_similarity("com.example.longpackage:id/submit", "sbumit").unwrap_or(0.0);
        assert!(typo > 0.6, "{typo}");
    }
}
