//! Java/Kotlin stack frames: parsing `at pkg.Class.method(File.java:12)` and reducing it to
//! a `pkg.Class.method` that does not change between builds or runs of the same code.
use std::sync::LazyLock;

use regex::Regex;

use super::synthetic::{
    is_artificial_class, is_forwarding_stub, normalize_class, normalize_method,
};

/// How many frames a signature keeps.
pub const MAX_FRAMES: usize = 5;

/// Packages of the platform and of common runtime libraries: their frames say little about
/// which app code crashed, so signatures prefer the first frames outside them.
const FRAMEWORK_PREFIXES: &[&str] = &[
    "java.",
    "javax.",
    "android.",
    "androidx.",
    "kotlin.",
    "kotlinx.",
    "com.android.",
    "dalvik.",
    "libcore.",
    "sun.",
    "com.google.android.",
];

/// `at pkg.Class.method(File.java:12)`; Play Console and Crashlytics print a space before
/// the parenthesis, and some consoles drop the parenthesized part altogether
/// (`at java.lang.reflect.Method.invoke`).
static FRAME: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*at\s+([^\s(]+)\s*(?:\(|$)").expect("frame regex"));

/// A frame of a Java stack trace, already normalized (`pkg.Class.method`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    pub class: String,
    pub method: String,
    /// A forwarding stub or a debug-only artificial frame: it names no code of its own
    /// and is not in every build, so no signature keys on it.
    pub noise: bool,
}

impl Frame {
    pub fn qualified(&self) -> String {
        format!("{}.{}", self.class, self.method)
    }

    /// `SimpleClass.method`, for labels: no package, no dangling `$` left by normalization.
    pub fn short(&self) -> String {
        let simple = self.class.rsplit('.').next().unwrap_or(&self.class);
        format!(
            "{}.{}",
            simple.trim_end_matches('$'),
            self.method.trim_end_matches('$')
        )
    }

    pub fn is_app(&self) -> bool {
        !self.noise && !FRAMEWORK_PREFIXES.iter().any(|p| self.class.starts_with(p))
    }
}

/// Parses one `at ...` line (logcat prefix already stripped); `None` for any other line.
/// Stub frames are returned too (marked `noise`): they still mark where a stack starts.
pub fn parse_frame(line: &str) -> Option<Frame> {
    let caps = FRAME.captures(line)?;
    let raw = caps.get(1)?.as_str().trim_end_matches('!');
    let (class, method) = raw.rsplit_once('.')?;
    if class.is_empty() || method.is_empty() {
        return None;
    }
    Some(Frame {
        noise: is_forwarding_stub(method) || is_artificial_class(class),
        class: normalize_class(class),
        method: normalize_method(method),
    })
}

/// The frames a signature keys on: the first app frames, or the top frames when the whole
/// stack is framework code.
pub fn key_frames(frames: &[Frame]) -> Vec<Frame> {
    let app: Vec<Frame> = frames
        .iter()
        .filter(|f| f.is_app())
        .take(MAX_FRAMES)
        .cloned()
        .collect();
    if app.is_empty() {
        frames
            .iter()
            .filter(|f| !f.noise)
            .take(MAX_FRAMES)
            .cloned()
            .collect()
    } else {
        app
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(line: &str) -> String {
        parse_frame(line).map(|f| f.qualified()).unwrap_or_default()
    }

    #[test]
    fn indices_and_synthetic_suffixes_are_removed() {
        assert_eq!(
            q("at com.a.MainActivity.lambda$onCreate$0(MainActivity.java:15)"),
            q("at com.a.MainActivity.lambda$onCreate$7(MainActivity.java:99)")
        );
        assert_eq!(
            q("at com.a.MainActivity$$ExternalSyntheticLambda0.onClick(Unknown Source:0)"),
            "com.a.MainActivity$$Lambda.onClick"
        );
        assert_eq!(
            q("at com.a.B$$Lambda$B$xYz12.run(Unknown Source:2)"),
            "com.a.B$$Lambda.run"
        );
        let accessor = parse_frame("at android.view.View.access$3700(View.java:836)");
        assert!(accessor.is_some_and(|f| f.noise && !f.is_app()));
        assert_eq!(q("at a.B.onCreate$lambda-0(B.kt:3)"), "a.B.onCreate$lambda");
        assert_eq!(
            q("at a.B.onCreate$lambda-0(B.kt:3)"),
            q("at a.B.onCreate$lambda$4(B.kt:9)")
        );
        assert_eq!(
            q("at java.lang.VMClassLoader.findLoadedClass!(Native method)"),
            "java.lang.VMClassLoader.findLoadedClass"
        );
        assert_eq!(q("at a.B$1.run(B.java:3)"), "a.B$.run");
    }

    #[test]
    fn frames_without_a_source_part_still_parse() {
        assert_eq!(
            q("  at java.lang.reflect.Method.invoke"),
            "java.lang.reflect.Method.invoke"
        );
        assert_eq!(
            q("    at org.mozilla.geckoview.-$$Lambda$GeckoResult$jOTMkpkhFSpBCw69vbWxDq7m7Tw.onValue"),
            "org.mozilla.geckoview.GeckoResult$$Lambda.onValue"
        );
        assert_eq!(
            q("  at a.B.c (B.java:2216)"),
            q("\tat a.B.c(Unknown Source)")
        );
        assert_eq!(q("at the moment"), "");
        assert_eq!(q("at (B.java:1)"), "");
    }

    #[test]
    fn stubs_and_debug_frames_are_never_key_frames() {
        let frames: Vec<Frame> = [
            "at _COROUTINE._BOUNDARY._(CoroutineDebugging.kt:46)",
            "at android.app.ActivityThread.-$$Nest$mthrowRemoteServiceException(Unknown Source:0)",
            "at com.x.A.$r8$lambda$im9-z3xxgDDV52szIGJhZ5tniMs(Unknown Source:0)",
            "at android.os.Handler.dispatchMessage(Handler.java:106)",
        ]
        .iter()
        .filter_map(|l| parse_frame(l))
        .collect();
        assert_eq!(frames.len(), 4);
        let key: Vec<String> = key_frames(&frames).iter().map(Frame::qualified).collect();
        assert_eq!(key, vec!["android.os.Handler.dispatchMessage"]);
    }

    #[test]
    fn names_that_differ_stay_different() {
        assert_ne!(
            q("at a.B.lambda$onCreate$0(B.java:1)"),
            q("at a.B.lambda$onResume$0(B.java:1)")
        );
        assert_ne!(q("at a.B.md5(B.java:1)"), q("at a.B.md(B.java:1)"));
    }

    #[test]
    fn app_frames_are_preferred() {
        let frames: Vec<Frame> = [
            "at java.util.ArrayList.remove(A.java:1)",
            "at com.x.Vm.run(Vm.kt:2)",
        ]
        .iter()
        .filter_map(|l| parse_frame(l))
        .collect();
        let key = key_frames(&frames);
        assert_eq!(key.len(), 1);
        assert_eq!(key[0].short(), "Vm.run");
    }
}
