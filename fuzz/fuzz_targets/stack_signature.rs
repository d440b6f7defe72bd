//! The analyzer's stack normalizer (`compute_signature`, `group_crashes`) on any text:
//! never a panic, deterministic, and a fingerprint is always 12 hex digits.
//! The first byte picks the kind hint (none, java, anr, native).
#![no_main]

use libfuzzer_sys::fuzz_target;
use whittle_core::model::{Crash, CrashKind};
use whittle_core::signature::{compute_signature, group_crashes, FINGERPRINT_LEN};

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(stack) = std::str::from_utf8(rest) else {
        return;
    };
    let hint = [
        None,
        Some(CrashKind::Java),
        Some(CrashKind::Anr),
        Some(CrashKind::Native),
    ][usize::from(pick) % 4];
    let signature = compute_signature(stack, hint);
    assert_eq!(signature, compute_signature(stack, hint));
    if let Some(fingerprint) = &signature.fingerprint {
        assert_eq!(fingerprint.len(), FINGERPRINT_LEN);
        assert!(fingerprint.bytes().all(|b| b.is_ascii_hexdigit()));
    }
    let crash = Crash {
        crash_id: "c1".into(),
        ts: None,
        kind: hint.unwrap_or(signature.kind),
        process: String::new(),
        label: None,
        stack: stack.to_owned(),
        step_index: 1,
        repro_path: vec![1],
    };
    let twice = [
        crash.clone(),
        Crash {
            crash_id: "c2".into(),
            ..crash
        },
    ];
    assert_eq!(
        group_crashes(&twice).len(),
        1,
        "the same stack is one group"
    );
});
