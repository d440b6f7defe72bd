//! Names the compilers make up. R8, D8, javac and kotlinc give lambdas, accessors and
//! inlined bodies names built from a counter or a hash; both change whenever unrelated code
//! changes, so two builds of the same crash print them differently. This module reduces a
//! class or method name to what survives a rebuild, and tells which frames are pure
//! forwarding stubs (they exist in one build and not in another, so they are left out).
use std::sync::LazyLock;

use regex::{Captures, Regex};

/// Compiled once; the patterns are constants, so a failure is a programming error that
/// every test would catch.
fn re(pattern: &str) -> Regex {
    Regex::new(pattern).expect("synthetic-name regex")
}

/// D8 before AGP 7 put a lambda in `pkg.-$$Lambda$Outer$<27-char hash>`; R8's merged
/// lambda groups are `-$$LambdaGroup$ks$<hash>` (Kotlin style) or `$js$` (Java style).
static D8_LAMBDA_CLASS: LazyLock<Regex> =
    LazyLock::new(|| re(r"-\$\$Lambda\$([\w$]+?)\$[A-Za-z0-9_-]{20,}"));
static LAMBDA_GROUP: LazyLock<Regex> =
    LazyLock::new(|| re(r"-\$\$LambdaGroup\$([a-z]{2})\$[A-Za-z0-9_-]+"));
/// Every other lambda class shape: D8's `$$ExternalSyntheticLambda0`, ART/desugar's
/// `$$Lambda$Outer$hash`, retrolambda's `$$Lambda$3`, and the JVM's hidden classes
/// `$$Lambda$14/0x0000000800c03000` and `$$Lambda/0x...`.
static LAMBDA_CLASS: LazyLock<Regex> = LazyLock::new(|| {
    re(r"\$\$(?:ExternalSyntheticLambda\d+|Lambda(?:\$[\w-]+)*)(?:/0x[0-9a-fA-F]+)?")
});
/// D8's other synthetic helper classes (`$$ExternalSyntheticOutline0`,
/// `$$ExternalSyntheticApiModelOutline1`, `$$ExternalSyntheticBackport0`...): the kind
/// says what the helper is, the counter says nothing.
static EXTERNAL_SYNTHETIC: LazyLock<Regex> =
    LazyLock::new(|| re(r"\$\$(ExternalSynthetic[A-Za-z]*?)\d+"));
/// R8's bridge to a lambda body: `$r8$lambda$<base64 hash of the body>`.
static R8_LAMBDA: LazyLock<Regex> = LazyLock::new(|| re(r"\$r8\$lambda\$[A-Za-z0-9_-]+"));
/// javac/D8 lambda bodies: `lambda$onCreate$0`, and D8's long forms that append the
/// declaring class, `lambda$onCreate$0$MainActivity` or `lambda$m$0$pkg-Class`.
static JAVA_LAMBDA_METHOD: LazyLock<Regex> =
    LazyLock::new(|| re(r"^lambda\$([^$]+)\$\d+(?:\$.*)?$"));
/// kotlinc lambda bodies: `onCreate$lambda$3` (Kotlin 1.8+), `onCreate$lambda-3` (before);
/// Compose's `ComposableSingletons$FooKt$lambda-1` and `$lambda$-1234` alike.
static KOTLIN_LAMBDA: LazyLock<Regex> = LazyLock::new(|| re(r"\$lambda[-$]-?\d+"));
/// Anonymous and local classes (`$1`), accessor counters, inlined-lambda counters
/// (`$$inlined$collect$1`).
static INDEX: LazyLock<Regex> = LazyLock::new(|| re(r"\$\d+"));
/// Kotlin mangles `internal` members with the module name, which carries the build
/// variant: `getCurrentTab$app_nightly` vs `getCurrentTab$app_release`.
static MODULE_SUFFIX: LazyLock<Regex> =
    LazyLock::new(|| re(r"\$[a-z][a-z0-9]*(?:_[A-Za-z0-9]+)+$"));

/// Methods that only forward to another one. javac's `access$000`, kotlinc's
/// `access$getBinding$p`, D8's nest-based `-$$Nest$mfoo` / `-$$Nest$fgetbar`, and R8's
/// `$r8$lambda$hash` appear in some builds and not in others (nestmates, inlining), and
/// the method they forward to is the frame next to them anyway.
pub fn is_forwarding_stub(method: &str) -> bool {
    method.starts_with("access$")
        || method.starts_with("-$$Nest$")
        || method.starts_with("$r8$lambda$")
}

/// Debug-mode coroutine frames kotlinx adds (`_COROUTINE._BOUNDARY._`): present only in
/// builds with coroutine debugging on.
pub fn is_artificial_class(class: &str) -> bool {
    class.starts_with("_COROUTINE.")
}

/// A class name without the build-specific parts of its synthetic suffixes.
pub fn normalize_class(class: &str) -> String {
    let s = D8_LAMBDA_CLASS.replace_all(class, "$1$$$$Lambda");
    let s = LAMBDA_GROUP.replace_all(&s, "-$$$$LambdaGroup$$$1");
    let s = LAMBDA_CLASS.replace_all(&s, "$$$$Lambda");
    let s = EXTERNAL_SYNTHETIC.replace_all(&s, "$$$$$1");
    let s = KOTLIN_LAMBDA.replace_all(&s, "$$lambda");
    INDEX.replace_all(&s, "$$").into_owned()
}

/// A method name without counters, hashes, D8's class suffix or Kotlin's module suffix.
pub fn normalize_method(method: &str) -> String {
    let m = method.trim_end_matches('!');
    let m = JAVA_LAMBDA_METHOD.replace(m, |c: &Captures<'_>| format!("lambda${}", &c[1]));
    let m = R8_LAMBDA.replace_all(&m, "$$r8$$lambda$$");
    let m = KOTLIN_LAMBDA.replace_all(&m, "$$lambda");
    let m = MODULE_SUFFIX.replace(&m, "");
    INDEX.replace_all(&m, "$$").into_owned()
}

/// `pkg.Class.method` normalized as a whole (used for exception class names too, which
/// have no method part worth splitting).
pub fn normalize_symbol(symbol: &str) -> String {
    let s = symbol.trim_end_matches('!');
    match s.rsplit_once('.') {
        Some((class, method)) => format!("{}.{}", normalize_class(class), normalize_method(method)),
        None => normalize_class(s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lambda_classes_of_every_toolchain_read_the_same() {
        for class in [
            "org.mozilla.geckoview.-$$Lambda$GeckoResult$-hYJKiV7OmgfRN8NZFvKg9ij7nk",
            "org.mozilla.geckoview.GeckoResult$$ExternalSyntheticLambda4",
            "org.mozilla.geckoview.GeckoResult$$Lambda$GeckoResult$xYz12",
            "org.mozilla.geckoview.GeckoResult$$Lambda$14/0x0000000800c03000",
            "org.mozilla.geckoview.GeckoResult$$Lambda/0x0000000800c03000",
        ] {
            assert_eq!(
                normalize_class(class),
                "org.mozilla.geckoview.GeckoResult$$Lambda",
                "{class}"
            );
        }
        assert_eq!(
            normalize_class("-$$LambdaGroup$ks$3dk2TV2PDS17-TeNsA6Slr1xVgA"),
            "-$$LambdaGroup$ks"
        );
        assert_eq!(
            normalize_class("a.B$$ExternalSyntheticApiModelOutline3"),
            "a.B$$ExternalSyntheticApiModelOutline"
        );
    }

    #[test]
    fn lambda_methods_lose_counters_hashes_and_class_suffixes() {
        for (raw, expected) in [
            ("lambda$onCreate$0", "lambda$onCreate"),
            ("lambda$onCreate$7", "lambda$onCreate"),
            ("lambda$setListeners$1$AnrFragment", "lambda$setListeners"),
            (
                "lambda$dispatchMessageToQueue$0$io-flutter-embedding-engine-dart-DartMessenger",
                "lambda$dispatchMessageToQueue",
            ),
            (
                "lambda$getRunnable$0$android-app-LoadedApk$ReceiverDispatcher$Args",
                "lambda$getRunnable",
            ),
            ("onStepper$lambda$7", "onStepper$lambda"),
            ("onStepper$lambda-9", "onStepper$lambda"),
            ("MenuItem$lambda$1$lambda$0", "MenuItem$lambda$lambda"),
            ("$r8$lambda$Qx1bZ0", "$r8$lambda$"),
            ("getCurrentTab$app_nightly", "getCurrentTab"),
            ("getPage-WZ4Q5Ns$lmdb_kt", "getPage-WZ4Q5Ns"),
            ("getMetadataPage$default", "getMetadataPage$default"),
            ("collect$suspendImpl", "collect$suspendImpl"),
            ("findLoadedClass!", "findLoadedClass"),
        ] {
            assert_eq!(normalize_method(raw), expected, "{raw}");
        }
    }

    #[test]
    fn different_names_stay_different() {
        assert_ne!(
            normalize_method("lambda$onCreate$0"),
            normalize_method("lambda$onResume$0")
        );
        assert_ne!(normalize_method("md5"), normalize_method("md"));
        assert_ne!(normalize_class("a.B$Inner"), normalize_class("a.B$Other"));
        assert_ne!(
            normalize_class("a.B$$ExternalSyntheticOutline0"),
            normalize_class("a.B$$ExternalSyntheticLambda0")
        );
    }

    #[test]
    fn forwarding_stubs_are_recognized() {
        for stub in [
            "access$3700",
            "access$getBinding$p",
            "-$$Nest$mthrowRemoteServiceException",
            "-$$Nest$fgetdownloadSegmentLivedata",
            "$r8$lambda$IPp7Vm9a1KDy8D4770JTjI9qOG4",
        ] {
            assert!(is_forwarding_stub(stub), "{stub}");
        }
        for real in ["accessor", "run", "lambda$onCreate$0", "onCreate$lambda$0"] {
            assert!(!is_forwarding_stub(real), "{real}");
        }
    }
}
