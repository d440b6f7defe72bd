//! What a fingerprint must ignore (line numbers, lambda indices, addresses, pids, times,
//! message numbers, logcat format) and what it must not (exception class, app frames,
//! signal, ANR reason); and that no input makes it panic.
use std::path::PathBuf;

use proptest::prelude::*;
use regex::Regex;
use whittle_core::model::CrashKind;
use whittle_core::signature::compute_signature;

fn fixture(rel: &str) -> String {
    let path = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/stacks"
    ))
    .join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn fp(text: &str) -> Option<String> {
    compute_signature(text, None).fingerprint
}

/// Changes every standalone decimal number (line numbers, pids, tids, times, `$0` lambda
/// indices, message numbers) and every synthetic-lambda index. Digits are rotated, so a
/// number keeps its width and a timestamp keeps its shape.
fn renumber(text: &str) -> String {
    let numbers = Regex::new(r"\b\d+\b").unwrap();
    let text = numbers.replace_all(text, |c: &regex::Captures<'_>| {
        c[0].chars()
            .map(|d| char::from(b'0' + (d as u8 - b'0' + 3) % 10))
            .collect::<String>()
    });
    let synthetic = Regex::new(r"(ExternalSyntheticLambda|\$\$Lambda\$\w+?\$)(\w+)").unwrap();
    synthetic.replace_all(&text, "${1}9").into_owned()
}

/// Changes addresses, offsets, BuildIds and the random part of app install paths.
fn readdress(text: &str) -> String {
    let hex = Regex::new(r"\b(?:0x)?[0-9a-f]{8,40}\b").unwrap();
    let text = hex.replace_all(text, "00000000deadbeef");
    let random_path = Regex::new(r"-[A-Za-z0-9_]{22}==").unwrap();
    renumber(&random_path.replace_all(&text, "-QQQQQQQQQQQQQQQQQQQQQQ=="))
}

const ALL: &[&str] = &[
    "java/java_crash_01_threadtime_oom_pthread_create.txt",
    "java/java_crash_02_crash_buffer_compose_coroutines_suppressed.txt",
    "java/java_crash_03_logcat_b_crash_worker_thread_kotlin_flow.txt",
    "java/java_crash_05_brief_format_flutter_caused_by_synthetic_lambda.txt",
    "java/java_crash_06_studio_logcat_lambda_onCreate_ExternalSyntheticLambda0.txt",
    "anr/anr_01_aosp_bugreport_logcat_anr_in_plus_vm_traces.txt",
    "anr/anr_02_aosp_system_server_deadlock_blocked_threads.txt",
    "anr/anr_03_aosp_logcat_anr_broadcast_reason.txt",
    "anr/anr_04_embrace_android12_input_dispatch_trace_WHITESPACE_COLLAPSED.txt",
    "native/native_01_logcat_F_DEBUG_arm64_sigabrt_jni_abort_message.txt",
    "native/native_02_studio_logcat_A_DEBUG_arm64_sigsegv_null_deref_buildid.txt",
    "native/native_03_logcat_F_DEBUG_x86_sigsegv_strcpy_null.txt",
    "native/native_04_raw_tombstone_header_android10_null_deref_TRUNCATED.txt",
];

#[test]
fn renumbered_and_readdressed_fixtures_keep_their_fingerprint() {
    for file in ALL {
        let text = fixture(file);
        let original = fp(&text);
        assert!(original.is_some(), "{file}");
        let renumbered = renumber(&text);
        assert_ne!(
            renumbered, text,
            "{file}: the mutation must change something"
        );
        assert_eq!(fp(&renumbered), original, "{file} renumbered");
        assert_eq!(fp(&readdress(&text)), original, "{file} readdressed");
    }
}

#[test]
fn lambda_indices_and_message_numbers_are_ignored() {
    let text =
        fixture("java/java_crash_06_studio_logcat_lambda_onCreate_ExternalSyntheticLambda0.txt");
    let mutated = text
        .replace("lambda$onCreate$0", "lambda$onCreate$3")
        .replace("$$ExternalSyntheticLambda0", "$$ExternalSyntheticLambda7")
        .replace("PID: 7357", "PID: 1200")
        .replace("veR3ZUFYzXjZ48FDcAW0Nw==", "abcdefghijklmnopqrstuv==");
    assert_eq!(fp(&mutated), fp(&text));

    let npe = |msg: &str| {
        format!("java.lang.IllegalStateException: {msg}\n\tat com.shop.CheckoutActivity.onClick(CheckoutActivity.kt:42)\n")
    };
    assert_eq!(
        fp(&npe("order 1234 not found (id=0x7f0a)")),
        fp(&npe("order 99 not found (id=0x1)"))
    );
}

/// Re-prints a threadtime capture in the other formats logcat and Studio produce.
fn reformat(threadtime: &str) -> Vec<(&'static str, String)> {
    let line = Regex::new(r"^(\d\d-\d\d) (\S+)\s+(\d+)\s+(\d+) (\w) (\S+)\s*: (.*)$").unwrap();
    let mut out: Vec<(&'static str, String)> = ["brief", "time", "studio", "studio-new", "bare"]
        .iter()
        .map(|n| (*n, String::new()))
        .collect();
    for l in threadtime.lines() {
        let Some(c) = line.captures(l) else { continue };
        let (date, time, pid, tid, level, tag, msg) =
            (&c[1], &c[2], &c[3], &c[4], &c[5], &c[6], &c[7]);
        let lines = [
            format!("{level}/{tag}({pid:>5}): {msg}"),
            format!("{date} {time} {level}/{tag}({pid:>5}): {msg}"),
            format!("2024-{date} {time} {pid}-{tid}/com.example.app {level}/{tag}: {msg}"),
            format!("2024-{date} {time}  {pid}-{tid}  {tag}  com.example.app  {level}  {msg}"),
            msg.to_string(),
        ];
        for ((_, buf), l) in out.iter_mut().zip(lines) {
            buf.push_str(&l);
            buf.push('\n');
        }
    }
    out
}

#[test]
fn every_logcat_format_gives_the_same_fingerprint() {
    for file in [
        "java/java_crash_01_threadtime_oom_pthread_create.txt",
        "java/java_crash_02_crash_buffer_compose_coroutines_suppressed.txt",
        "java/java_crash_03_logcat_b_crash_worker_thread_kotlin_flow.txt",
        "native/native_01_logcat_F_DEBUG_arm64_sigabrt_jni_abort_message.txt",
        "native/native_03_logcat_F_DEBUG_x86_sigsegv_strcpy_null.txt",
        "anr/anr_01_aosp_bugreport_logcat_anr_in_plus_vm_traces.txt",
    ] {
        let text = fixture(file);
        let original = compute_signature(&text, None);
        for (format, other) in reformat(&text) {
            let sig = compute_signature(&other, Some(original.kind));
            if file.starts_with("anr/") {
                // The logcat part of this sample holds only the reason; the traces are not
                // logcat lines and are dropped by `reformat`, so compare reason labels.
                assert!(
                    sig.label.starts_with("ANR executing service"),
                    "{format}: {sig:?}"
                );
                continue;
            }
            assert_eq!(
                sig.fingerprint, original.fingerprint,
                "{file} as {format}:\n{other}"
            );
        }
    }
}

#[test]
fn different_crashes_do_not_match() {
    let text = fixture("java/java_crash_03_logcat_b_crash_worker_thread_kotlin_flow.txt");
    let base = fp(&text);
    let other_class = text.replace(
        "java.lang.IndexOutOfBoundsException",
        "java.lang.IllegalStateException",
    );
    let other_frame = text.replace("consumeSelfPlayLatch", "consumeRemoteLatch");
    assert_ne!(fp(&other_class), base);
    assert_ne!(fp(&other_frame), base);

    let cause = |c: &str| {
        format!("java.lang.RuntimeException: boom\n\tat com.x.A.run(A.java:1)\nCaused by: {c}: x\n\tat com.x.B.go(B.java:2)\n")
    };
    assert_ne!(
        fp(&cause("java.io.IOException")),
        fp(&cause("java.lang.NullPointerException"))
    );

    let native = fixture("native/native_03_logcat_F_DEBUG_x86_sigsegv_strcpy_null.txt");
    assert_ne!(fp(&native.replace("(SIGSEGV)", "(SIGBUS)")), fp(&native));
    assert_ne!(fp(&native.replace("testLeak", "testOther")), fp(&native));

    let anr = fixture("anr/anr_04_embrace_android12_input_dispatch_trace_WHITESPACE_COLLAPSED.txt");
    assert_ne!(
        fp(&anr.replace(
            "Subject: Input dispatching timed out",
            "Subject: executing service"
        )),
        fp(&anr)
    );
    assert_ne!(
        fp(&anr.replace("triggerLongAnr", "triggerShortAnr")),
        fp(&anr)
    );
}

#[test]
fn unusable_input_has_no_fingerprint() {
    for text in ["", "   \n\n", "hello world", "--------- beginning of crash"] {
        for kind in [
            None,
            Some(CrashKind::Java),
            Some(CrashKind::Anr),
            Some(CrashKind::Native),
        ] {
            let sig = compute_signature(text, kind);
            assert_eq!(sig.fingerprint, None, "{text:?} {kind:?}");
            assert!(!sig.stable);
        }
    }
}

fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        Just("\tat a.B.c(B.java:1)".to_string()),
        Just("at (".to_string()),
        Just("Caused by: ".to_string()),
        Just("\tSuppressed: x.Y".to_string()),
        Just("java.lang.X: é".to_string()),
        Just("\"main\" prio=5 tid=1".to_string()),
        Just("Reason: ".to_string()),
        Just("signal 11 (SIGSEGV)".to_string()),
        Just("#00 pc 0001 /x/é.so ((((".to_string()),
        Just("#01 pc 0001 /x/y.so (a+)".to_string()),
        Just("E/AndroidRuntime(1): ".to_string()),
        "[ -~\t]{0,40}",
    ]
}

proptest! {
    #[test]
    fn never_panics_on_arbitrary_strings(s in any::<String>()) {
        let sig = compute_signature(&s, None);
        if let Some(f) = sig.fingerprint {
            prop_assert_eq!(f.len(), 12);
        }
    }

    #[test]
    fn never_panics_on_stack_shaped_garbage(lines in prop::collection::vec(fragment(), 0..30),
                                           kind in prop::option::of(prop_oneof![
                                               Just(CrashKind::Java), Just(CrashKind::Anr), Just(CrashKind::Native)])) {
        let text = lines.join("\n");
        let sig = compute_signature(&text, kind);
        if let Some(f) = &sig.fingerprint {
            prop_assert!(f.len() == 12 && f.chars().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
            prop_assert!(sig.canonical_key.is_some());
        }
        prop_assert!(sig.top_frames.len() <= 5);
    }
}
