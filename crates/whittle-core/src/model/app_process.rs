//! Which processes are an app's: its main process (named as its package) and every
//! `package:suffix` process Android starts for it (`android:process=":sync"` — sync
//! adapters, push handlers, WebView renderers). A crash in any of them is the app's
//! crash; `com.acme.notes2` is another app, not a process of `com.acme.notes`.

/// The app a process belongs to: `com.acme.notes` for `com.acme.notes:sync` (and for
/// `com.acme.notes` itself).
pub fn app_of_process(process: &str) -> &str {
    process.split_once(':').map_or(process, |(app, _)| app)
}

/// `process` when it is one of `package`'s processes other than the main one (what a
/// report names, as the package alone does not say which process crashed).
pub fn side_process<'a>(process: &'a str, package: &str) -> Option<&'a str> {
    (process != package && runs_in_app(process, package)).then_some(process)
}

/// Whether `process` runs `package`'s code.
pub fn runs_in_app(process: &str, package: &str) -> bool {
    !package.is_empty()
        && (process == package
            || process
                .strip_prefix(package)
                .is_some_and(|rest| rest.starts_with(':')))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_apps_other_processes_are_side_processes() {
        assert_eq!(
            side_process("com.acme.notes:sync", "com.acme.notes"),
            Some("com.acme.notes:sync")
        );
        assert_eq!(side_process("com.acme.notes", "com.acme.notes"), None);
        assert_eq!(side_process("com.acme.notes2", "com.acme.notes"), None);
    }

    #[test]
    fn a_process_names_its_app_before_the_colon() {
        assert_eq!(app_of_process("com.acme.notes:sync"), "com.acme.notes");
        assert_eq!(app_of_process("com.acme.notes"), "com.acme.notes");
        assert!(runs_in_app(
            "com.acme.notes:sync",
            app_of_process("com.acme.notes:sync")
        ));
    }

    #[test]
    fn the_main_and_colon_processes_are_the_apps_and_prefixes_are_not() {
        assert!(runs_in_app("com.acme.notes", "com.acme.notes"));
        assert!(runs_in_app("com.acme.notes:sync", "com.acme.notes"));
        assert!(!runs_in_app("com.acme.notes2", "com.acme.notes"));
        assert!(!runs_in_app("com.acme.note", "com.acme.notes"));
        assert!(!runs_in_app("com.acme.notes", ""));
    }
}
