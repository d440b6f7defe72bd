//! logcat threadtime text through the adb server's crash-record parser, then each record
//! through the analyzer's signature (what a replay's verdict is built from): never a
//! panic, and every record has an id and a non-empty stack.
#![no_main]

use libfuzzer_sys::fuzz_target;
use whittle_core::signature::{compute_signature, strip_logcat_prefix};
use whittle_servers::adb::crash_log::{belongs_to, crash_records};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for line in text.lines() {
        let _ = strip_logcat_prefix(line);
    }
    for record in crash_records(text) {
        assert!(!record.record_id.is_empty());
        let _ = belongs_to(&record, "com.example.shop");
        let _ = compute_signature(&record.stack, Some(record.kind));
    }
});
