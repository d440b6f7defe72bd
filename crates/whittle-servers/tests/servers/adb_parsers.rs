//! The adb backend's crash-log parsers on real Android output (threadtime crash logs from
//! `tests/fixtures/stacks`). The uiautomator dumps are tested in `adb_real_dumps.rs`.
use crate::fixture_support;

use fixture_support::fixture;
use whittle_core::model::CrashKind;
use whittle_core::signature::compute_signature;
use whittle_servers::adb::crash_log::crash_records;

/// One crash block of a fixture, with what the analyzer makes of its stack.
fn single_block(rel: &str, kind: CrashKind, process: &str) -> Option<String> {
    let text = fixture(rel)?;
    let records = crash_records(&text);
    assert_eq!(records.len(), 1, "{rel}: {records:#?}");
    let r = &records[0];
    assert_eq!((r.kind, r.process.as_str()), (kind, process), "{rel}");
    let sig = compute_signature(&r.stack, Some(kind));
    assert!(
        sig.fingerprint.is_some(),
        "{rel}: analyzer cannot read {:?}",
        r.stack
    );
    Some(r.stack.clone())
}

#[test]
fn java_blocks_from_threadtime_logs() {
    if let Some(stack) = single_block(
        "java/java_crash_01_threadtime_oom_pthread_create.txt",
        CrashKind::Java,
        "com.baiiu.nativeleak",
    ) {
        assert!(stack.starts_with("FATAL EXCEPTION: main\n"));
        assert!(stack.contains("java.lang.OutOfMemoryError: pthread_create"));
        assert!(stack.contains("\tat java.lang.Thread.nativeCreate(Native Method)"));
    }
    if let Some(stack) = single_block(
        "java/java_crash_02_crash_buffer_compose_coroutines_suppressed.txt",
        CrashKind::Java,
        "com.example.walletwise",
    ) {
        assert!(
            !stack.contains("FIREBASE"),
            "the line before the header is not part"
        );
        assert!(stack.ends_with("AndroidUiDispatcher@4f29801]"));
    }
    single_block(
        "java/java_crash_03_logcat_b_crash_worker_thread_kotlin_flow.txt",
        CrashKind::Java,
        "com.jointheparty.app",
    );
}

#[test]
fn native_blocks_with_and_without_the_banner() {
    if let Some(stack) = single_block(
        "native/native_01_logcat_F_DEBUG_arm64_sigabrt_jni_abort_message.txt",
        CrashKind::Native,
        "com.albertsnow.graphicdemo",
    ) {
        assert!(stack.starts_with("*** *** ***"));
        assert!(
            !stack.contains("Fatal signal 6"),
            "libc's line has another pid"
        );
        assert!(stack.contains("signal 6 (SIGABRT)"));
        assert!(stack.contains("#10 pc"));
    }
    if let Some(stack) = single_block(
        "native/native_03_logcat_F_DEBUG_x86_sigsegv_strcpy_null.txt",
        CrashKind::Native,
        "com.baiiu.nativeleak",
    ) {
        assert!(stack.starts_with("Build fingerprint:"));
        assert!(stack.contains("(strcpy+1591)"));
    }
}

#[test]
fn anr_blocks_from_activity_manager_lines() {
    if let Some(text) = fixture("anr/anr_01_aosp_bugreport_logcat_anr_in_plus_vm_traces.txt") {
        let r = crash_records(&text);
        let procs: Vec<_> = r.iter().map(|c| (c.kind, c.process.as_str())).collect();
        assert_eq!(
            procs,
            [
                (CrashKind::Anr, "com.google.android.youtube"),
                (CrashKind::Anr, "com.google.android.apps.plus")
            ]
        );
        assert!(r[1].stack.contains("Reason: executing service"));
        assert!(!r[1].stack.contains("Killing"), "the I line ends the block");
        assert_ne!(r[0].record_id, r[1].record_id);
    }
    if let Some(stack) = single_block(
        "anr/anr_03_aosp_logcat_anr_broadcast_reason.txt",
        CrashKind::Anr,
        "com.google.android.apps.magazines",
    ) {
        assert!(stack.contains("Reason: Broadcast of Intent"));
    }
}

#[test]
fn other_log_formats_are_not_read() {
    // The server always asks logcat for threadtime; brief/Studio/raw text is not its input.
    for rel in [
        "java/java_crash_05_brief_format_flutter_caused_by_synthetic_lambda.txt",
        "java/java_crash_06_studio_logcat_lambda_onCreate_ExternalSyntheticLambda0.txt",
        "native/native_02_studio_logcat_A_DEBUG_arm64_sigsegv_null_deref_buildid.txt",
        "native/native_04_raw_tombstone_header_android10_null_deref_TRUNCATED.txt",
    ] {
        let Some(text) = fixture(rel) else { return };
        assert!(crash_records(&text).is_empty(), "{rel}");
    }
}
