//! Which processes are an app's: its main process (named as its package) and every
//! `package:suffix` process Android starts for it (`android:process=":sync"` — sync
//! adapters, push handlers, WebView renderers). A crash in any of them is the app's
//! crash; `com.acme.notes2` is another app, not a process of `com.acme.notes`.

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
    fn the_main_and_colon_processes_are_the_apps_and_prefixes_are_not() {
        assert!(runs_in_app("com.acme.notes", "com.acme.notes"));
        assert!(runs_in_app("com.acme.notes:sync", "com.acme.notes"));
        assert!(!runs_in_app("com.acme.notes2", "com.acme.notes"));
        assert!(!runs_in_app("com.acme.note", "com.acme.notes"));
        assert!(!runs_in_app("com.acme.notes", ""));
    }
}
