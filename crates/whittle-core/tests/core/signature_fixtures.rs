//! Signatures of the real Android samples in tests/fixtures/stacks: every sample gets a
//! fingerprint, noise does not change it, different crashes do not share it.
use std::path::{Path, PathBuf};

use whittle_core::model::CrashKind;
use whittle_core::signature::compute_signature;

fn fixtures_dir() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/stacks"
    ))
}

fn fixture(dir: &Path, rel: &str) -> String {
    std::fs::read_to_string(dir.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

const JAVA: &[(&str, &str, &str)] = &[
    (
        "java/java_crash_01_threadtime_oom_pthread_create.txt",
        "OutOfMemoryError in Thread.nativeCreate",
        "java.lang.Thread.nativeCreate",
    ),
    (
        "java/java_crash_02_crash_buffer_compose_coroutines_suppressed.txt",
        "MissingResourceException in DefaultAndroidResourceReader.throwMissingResourceException",
        "org.jetbrains.compose.resources.DefaultAndroidResourceReader.throwMissingResourceException",
    ),
    (
        "java/java_crash_03_logcat_b_crash_worker_thread_kotlin_flow.txt",
        "IndexOutOfBoundsException in SessionViewModel.consumeSelfPlayLatch",
        "com.jointheparty.app.ui.session.SessionViewModel.consumeSelfPlayLatch",
    ),
    (
        "java/java_crash_05_brief_format_flutter_caused_by_synthetic_lambda.txt",
        "ForegroundServiceDidNotStartInTimeException in FlutterBackgroundServicePlugin.start",
        "id.flutter.flutter_background_service.FlutterBackgroundServicePlugin.start",
    ),
    (
        "java/java_crash_06_studio_logcat_lambda_onCreate_ExternalSyntheticLambda0.txt",
        "NoSuchMethodError in ViewTest.disposable",
        "com.github.hanlyjiang.lib_mod.ViewTest.disposable",
    ),
];

const ANR: &[(&str, &str, bool)] = &[
    (
        "anr/anr_01_aosp_bugreport_logcat_anr_in_plus_vm_traces.txt",
        "ANR executing service in VMClassLoader.findLoadedClass",
        true,
    ),
    (
        "anr/anr_02_aosp_system_server_deadlock_blocked_threads.txt",
        "ANR in UserManagerService.exists",
        true,
    ),
    (
        "anr/anr_03_aosp_logcat_anr_broadcast_reason.txt",
        "ANR Broadcast of Intent",
        false,
    ),
    (
        "anr/anr_04_embrace_android12_input_dispatch_trace_WHITESPACE_COLLAPSED.txt",
        "ANR Input dispatching timed out in AnrFragment.lambda$triggerLongAnr",
        true,
    ),
];

const NATIVE: &[(&str, &str, bool)] = &[
    (
        "native/native_01_logcat_F_DEBUG_arm64_sigabrt_jni_abort_message.txt",
        "SIGABRT in _JNIEnv::CallVoidMethod",
        true,
    ),
    (
        "native/native_02_studio_logcat_A_DEBUG_arm64_sigsegv_null_deref_buildid.txt",
        "SIGSEGV in _JNIEnv::GetVersion",
        true,
    ),
    (
        "native/native_03_logcat_F_DEBUG_x86_sigsegv_strcpy_null.txt",
        "SIGSEGV in Java_com_baiiu_nativeleak_MainActivity_testLeak",
        true,
    ),
    (
        "native/native_04_raw_tombstone_header_android10_null_deref_TRUNCATED.txt",
        "SIGSEGV",
        false,
    ),
];

fn is_fingerprint(fp: &Option<String>) -> bool {
    fp.as_deref().is_some_and(|f| {
        f.len() == 12
            && f.chars()
                .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c))
    })
}

#[test]
fn java_fixtures_get_a_stable_fingerprint_and_label() {
    let dir = fixtures_dir();
    for (file, label, top) in JAVA {
        let text = fixture(&dir, file);
        for hint in [None, Some(CrashKind::Java)] {
            let sig = compute_signature(&text, hint);
            assert!(is_fingerprint(&sig.fingerprint), "{file}: {sig:?}");
            assert_eq!(sig.kind, CrashKind::Java, "{file}");
            assert!(sig.stable, "{file}");
            assert_eq!(sig.label, *label, "{file}");
            assert_eq!(
                sig.top_frames.first().map(String::as_str),
                Some(*top),
                "{file}"
            );
            assert!(sig.top_frames.len() <= 5);
        }
    }
}

#[test]
fn anr_fixtures_get_a_fingerprint_and_label() {
    let dir = fixtures_dir();
    for (file, label, stable) in ANR {
        let text = fixture(&dir, file);
        for hint in [None, Some(CrashKind::Anr)] {
            let sig = compute_signature(&text, hint);
            assert!(is_fingerprint(&sig.fingerprint), "{file}: {sig:?}");
            assert_eq!(sig.kind, CrashKind::Anr, "{file}");
            assert_eq!(sig.label, *label, "{file}");
            assert_eq!(sig.stable, *stable, "{file}");
        }
    }
}

#[test]
fn native_fixtures_get_a_fingerprint_and_label() {
    let dir = fixtures_dir();
    for (file, label, stable) in NATIVE {
        let text = fixture(&dir, file);
        for hint in [None, Some(CrashKind::Native)] {
            let sig = compute_signature(&text, hint);
            assert!(is_fingerprint(&sig.fingerprint), "{file}: {sig:?}");
            assert_eq!(sig.kind, CrashKind::Native, "{file}");
            assert_eq!(sig.label, *label, "{file}");
            assert_eq!(sig.stable, *stable, "{file}");
            let key = sig.canonical_key.unwrap_or_default();
            assert!(
                !key.contains("BuildId") && !key.contains("=="),
                "{file}: {key}"
            );
        }
    }
}

#[test]
fn every_fixture_has_its_own_fingerprint() {
    let dir = fixtures_dir();
    let files = JAVA
        .iter()
        .map(|j| j.0)
        .chain(ANR.iter().map(|a| a.0))
        .chain(NATIVE.iter().map(|n| n.0));
    let mut seen = std::collections::BTreeMap::new();
    for file in files {
        let fp = compute_signature(&fixture(&dir, file), None).fingerprint;
        if let Some(other) = seen.insert(fp.clone(), file) {
            panic!("{file} and {other} share fingerprint {fp:?}");
        }
    }
}

#[test]
fn native_frames_drop_offsets_buildids_and_install_paths() {
    let dir = fixtures_dir();
    let sig = compute_signature(
        &fixture(
            &dir,
            "native/native_02_studio_logcat_A_DEBUG_arm64_sigsegv_null_deref_buildid.txt",
        ),
        None,
    );
    assert_eq!(
        sig.top_frames,
        vec![
            "libnative-lib.so!_JNIEnv::GetVersion()",
            "libnative-lib.so!willCrash()",
            "libnative-lib.so!Java_com_xfhy_allinone_jni_CallMethodActivity_nativeCrashTest",
        ]
    );
}

/// Issue 43: a crash thrown inside the JDK's own checks is named by its first app frame,
/// with the one connector every view uses — as the recorder names it — while its
/// fingerprint is the one version 2 always gave it.
#[test]
fn a_crash_thrown_in_jdk_code_is_named_by_its_first_app_frame() {
    let stack = "FATAL EXCEPTION: DefaultDispatcher-worker-3\nProcess: com.example.shop, PID: 4242\n\
        java.lang.IndexOutOfBoundsException: Index 3 out of bounds for length 3\n\
        \tat jdk.internal.util.Preconditions.outOfBounds(Preconditions.java:64)\n\
        \tat java.util.Objects.checkIndex(Objects.java:359)\n\
        \tat java.util.ArrayList.get(ArrayList.java:434)\n\
        \tat com.example.shop.search.SearchResultsMerger.merge(SearchResultsMerger.kt:29)\n\
        \tat com.example.shop.search.SearchViewModel$runQuery$1.invokeSuspend(SearchViewModel.kt:52)\n";
    let sig = compute_signature(stack, Some(CrashKind::Java));
    assert_eq!(
        sig.label,
        "IndexOutOfBoundsException in SearchResultsMerger.merge"
    );
    assert!(
        sig.top_frames[0].starts_with("jdk.internal.util.Preconditions"),
        "the fingerprint's frames are unchanged: {:?}",
        sig.top_frames
    );
}
