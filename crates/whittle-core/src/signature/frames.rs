//! Java/Kotlin stack frames: parsing `at pkg.Class.method(File.java:12)` and reducing it to
//! a `pkg.Class.method` that does not change between builds or runs of the same code.
use std::sync::LazyLock;

use regex::Regex;

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

static FRAME: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*at\s+([^\s(]+)\s*\(").expect("frame regex"));
/// `$$Lambda$Foo$abc123`, `$$ExternalSyntheticLambda0`, `$$ExternalSyntheticOutline3`...
static SYNTHETIC: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\$\$Lambda(?:\$[\w]*)*|\$\$(ExternalSynthetic[A-Za-z]*?)\d+").expect("synthetic")
});
/// `$1`, `lambda$onCreate$0`, `access$3700`, Kotlin's `lambda-0`.
static INDEX: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\$\d+|(lambda)-\d+").expect("index regex"));

/// A frame of a Java stack trace, already normalized (`pkg.Class.method`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    pub class: String,
    pub method: String,
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
        !FRAMEWORK_PREFIXES.iter().any(|p| self.class.starts_with(p))
    }
}

/// Parses one `at ...(...)` line (prefix already stripped); `None` for any other line.
pub fn parse_frame(line: &str) -> Option<Frame> {
    let caps = FRAME.captures(line)?;
    let full = normalize_symbol(caps.get(1)?.as_str());
    let (class, method) = full.rsplit_once('.')?;
    if class.is_empty() || method.is_empty() {
        return None;
    }
    Some(Frame {
        class: class.to_string(),
        method: method.to_string(),
    })
}

/// Removes compiler-chosen indices and synthetic-class suffixes from a class or method
/// name; ART's `!` marker on native/intrinsic methods is dropped too.
pub fn normalize_symbol(symbol: &str) -> String {
    let s = symbol.trim_end_matches('!');
    let s = SYNTHETIC.replace_all(s, |c: &regex::Captures<'_>| match c.get(1) {
        Some(kind) => format!("$${}", kind.as_str()),
        None => "$$Lambda".to_string(),
    });
    INDEX
        .replace_all(&s, |c: &regex::Captures<'_>| match c.get(1) {
            Some(word) => format!("{}-", word.as_str()),
            None => "$".to_string(),
        })
        .into_owned()
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
        frames.iter().take(MAX_FRAMES).cloned().collect()
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
            "com.a.MainActivity$$ExternalSyntheticLambda.onClick"
        );
        assert_eq!(
            q("at com.a.B$$Lambda$B$xYz12.run(Unknown Source:2)"),
            "com.a.B$$Lambda.run"
        );
        assert_eq!(
            q("at android.view.View.access$3700(View.java:836)"),
            "android.view.View.access$"
        );
        assert_eq!(
            q("at a.B.onCreate$lambda-0(B.kt:3)"),
            "a.B.onCreate$lambda-"
        );
        assert_eq!(
            q("at java.lang.VMClassLoader.findLoadedClass!(Native method)"),
            "java.lang.VMClassLoader.findLoadedClass"
        );
        assert_eq!(q("at a.B$1.run(B.java:3)"), "a.B$.run");
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
