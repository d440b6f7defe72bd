//! The same crash from two builds of one app must keep one fingerprint: R8, D8 and kotlinc
//! rename lambdas, accessors and inlined bodies whenever unrelated code changes, and line
//! numbers move. A different crash must still get another fingerprint.
use whittle_core::model::CrashKind;
use whittle_core::signature::compute_signature;

fn fingerprint(stack: &str) -> String {
    let sig = compute_signature(stack, Some(CrashKind::Java));
    assert!(sig.stable, "{stack}\n{sig:?}");
    sig.fingerprint
        .unwrap_or_else(|| panic!("no fingerprint for\n{stack}"))
}

/// A release build's crash in a Kotlin click lambda: kotlinc's `onStepper$lambda$N` body,
/// R8's `$r8$lambda$<hash>` bridge and D8's `$$ExternalSyntheticLambda<n>` class.
fn stepper_crash(lambda: &str, r8_hash: &str, synthetic: u32, line: u32) -> String {
    format!(
        "FATAL EXCEPTION: main\n\
         Process: com.example.shop, PID: 4242\n\
         java.lang.IllegalStateException: quantity 0 is out of range\n\
         \tat com.example.shop.cart.CartFragment.onStepper${lambda}(CartFragment.kt:{line})\n\
         \tat com.example.shop.cart.CartFragment.$r8$lambda${r8_hash}(Unknown Source:0)\n\
         \tat com.example.shop.cart.CartFragment$$ExternalSyntheticLambda{synthetic}.onClick(Unknown Source:2)\n\
         \tat android.view.View.performClick(View.java:7448)\n\
         \tat android.view.View.performClickInternal(View.java:7425)\n\
         \tat android.view.View.access$3600(View.java:810)\n\
         \tat android.view.View$PerformClick.run(View.java:28305)\n\
         \tat android.os.Handler.handleCallback(Handler.java:938)\n"
    )
}

/// Issue 15, failure #4, as reported: two builds, `$r8$lambda$Qx1bZ0` vs
/// `$r8$lambda$Hh72kP`, `onStepper$lambda$7` vs `$lambda$9`, other line numbers.
#[test]
fn the_same_crash_from_two_r8_builds_keeps_its_fingerprint() {
    let build_a = stepper_crash("lambda$7", "Qx1bZ0", 3, 88);
    let build_b = stepper_crash("lambda$9", "Hh72kP", 5, 93);
    assert_eq!(fingerprint(&build_a), fingerprint(&build_b));
    // A Kotlin compiler before 1.8 names the same body `onStepper$lambda-7`.
    let old_kotlin = stepper_crash("lambda-7", "Qx1bZ0", 3, 88);
    assert_eq!(fingerprint(&old_kotlin), fingerprint(&build_a));
}

#[test]
fn another_crash_in_the_same_screen_keeps_another_fingerprint() {
    let base = fingerprint(&stepper_crash("lambda$7", "Qx1bZ0", 3, 88));
    let other_exception = stepper_crash("lambda$7", "Qx1bZ0", 3, 88)
        .replace("IllegalStateException", "IllegalArgumentException");
    assert_ne!(fingerprint(&other_exception), base);
    let other_lambda =
        stepper_crash("lambda$7", "Qx1bZ0", 3, 88).replace("onStepper$", "onRemove$");
    assert_ne!(fingerprint(&other_lambda), base);
    let other_screen = stepper_crash("lambda$7", "Qx1bZ0", 3, 88)
        .replace("cart.CartFragment", "checkout.CheckoutFragment");
    assert_ne!(fingerprint(&other_screen), base);
}

/// One stack, one varying frame: every row's two spellings come from two builds of the
/// same code and must give one fingerprint.
const SAME_CODE: &[(&str, &str)] = &[
    // R8 lambda bridge hashes (the frame is a stub and is left out).
    (
        "at a.b.C.$r8$lambda$POx-TmK2WSOJBkePyIaa7Owc0OY(Unknown Source:0)",
        "at a.b.C.$r8$lambda$6wTweYXir6hszoSc0kHGIz55KsU(Unknown Source:0)",
    ),
    // D8 lambda classes: counters, the pre-AGP-7 hash class, the JVM hidden class.
    (
        "at a.b.C$$ExternalSyntheticLambda0.run(Unknown Source:2)",
        "at a.b.C$$ExternalSyntheticLambda12.run(Unknown Source:4)",
    ),
    (
        "at a.b.C$$ExternalSyntheticLambda0.run(Unknown Source:2)",
        "at a.b.-$$Lambda$C$3bF-QV4a2Xkq1mDSHjvQ_yQ8zv0.run(Unknown Source:2)",
    ),
    (
        "at a.b.C$$ExternalSyntheticLambda0.run(Unknown Source:2)",
        "at a.b.C$$Lambda$14/0x0000000800c03000.run(C.java)",
    ),
    // javac/D8 lambda bodies, short and long forms.
    (
        "at a.b.C.lambda$onCreate$0(C.java:15)",
        "at a.b.C.lambda$onCreate$3$a-b-C(C.java:19)",
    ),
    (
        "at a.b.C.lambda$onCreate$0(C.java:15)",
        "at a.b.C.lambda$onCreate$1$C(Unknown Source:9)",
    ),
    // kotlinc lambda bodies, both generations, and nested ones.
    (
        "at a.b.C.load$lambda$2(C.kt:40)",
        "at a.b.C.load$lambda-5(C.kt:41)",
    ),
    (
        "at a.b.C.MenuItem$lambda$1$lambda$0(C.kt:40)",
        "at a.b.C.MenuItem$lambda$3$lambda$2(C.kt:44)",
    ),
    // Kotlin inlined lambdas and anonymous classes.
    (
        "at a.b.C$start$1$invokeSuspend$$inlined$collect$1.emit(Collect.kt:2)",
        "at a.b.C$start$2$invokeSuspend$$inlined$collect$3.emit(Collect.kt:133)",
    ),
    // Kotlin internal members carry the module and build variant.
    (
        "at a.b.C.getTab$app_debug(C.kt:3)",
        "at a.b.C.getTab$app_release(SourceFile:3)",
    ),
    // Source positions of every shape.
    (
        "at a.b.C.run(C.java:177)",
        "at a.b.C.run(Unknown Source:12)",
    ),
    ("at a.b.C.run(SourceFile:3)", "at a.b.C.run(unavailable:-1)"),
    ("at a.b.C.run((null):~-1)", "at a.b.C.run (C.java:1)"),
    ("at a.b.C.run(D8$$SyntheticClass:0)", "at a.b.C.run"),
];

fn with_frame(frame: &str) -> String {
    format!(
        "java.lang.IllegalStateException: boom\n\
         \t{frame}\n\
         \tat a.b.Screen.onClick(Screen.kt:10)\n\
         \tat android.view.View.performClick(View.java:7448)\n"
    )
}

#[test]
fn every_synthetic_name_shape_is_ignored() {
    for (a, b) in SAME_CODE {
        assert_eq!(
            fingerprint(&with_frame(a)),
            fingerprint(&with_frame(b)),
            "{a}  vs  {b}"
        );
    }
}

/// Forwarding stubs appear in one build and not in another: javac's `access$NNN`,
/// kotlinc's `access$name`, D8's `-$$Nest$m…`, R8's `$r8$lambda$…`.
#[test]
fn forwarding_stubs_may_come_and_go() {
    let without = with_frame("at a.b.C.consume(C.kt:12)");
    for stub in [
        "at a.b.C.access$000(C.java:40)",
        "at a.b.C.access$consume(C.kt:1)",
        "at a.b.C.-$$Nest$mconsume(Unknown Source:0)",
        "at a.b.C.$r8$lambda$im9-z3xxgDDV52szIGJhZ5tniMs(Unknown Source:0)",
    ] {
        let with = without.replace(
            "\tat a.b.Screen.onClick",
            &format!("\t{stub}\n\tat a.b.Screen.onClick"),
        );
        assert_eq!(fingerprint(&with), fingerprint(&without), "{stub}");
    }
}

/// The exception chain counts, including `Caused by` in every console's spelling, and
/// every console's header spelling reads as the same header.
#[test]
fn headers_and_causes_of_every_console_read_alike() {
    let frames = "  at a.b.C.run (C.java:3)\n  at a.b.D.go (D.java:9)\n";
    let logcat = format!(
        "java.lang.RuntimeException: x\n{frames}Caused by: java.io.IOException: y\n{frames}"
    );
    for header in [
        "Fatal Exception: java.lang.RuntimeException: x",
        "Non-fatal Exception: java.lang.RuntimeException: x",
        "Exception java.lang.RuntimeException: x",
        "Exception in thread \"main\" java.lang.RuntimeException: x",
    ] {
        for cause in [
            "Caused by: java.io.IOException: y",
            "Caused by java.io.IOException: y",
        ] {
            let text = format!("{header}\n{frames}{cause}\n{frames}");
            assert_eq!(
                fingerprint(&text),
                fingerprint(&logcat),
                "{header} / {cause}"
            );
        }
    }
    let other_cause = logcat.replace("java.io.IOException", "java.lang.NullPointerException");
    assert_ne!(fingerprint(&other_cause), fingerprint(&logcat));
}
