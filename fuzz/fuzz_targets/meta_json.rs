//! `meta.json` through the parser `load_session` uses: never a panic, errors name the file.
#![no_main]

use libfuzzer_sys::fuzz_target;
use whittle_core::session::{parse_meta, META_FILE};

fuzz_target!(|data: &[u8]| {
    if let Err(e) = parse_meta(data) {
        assert_eq!(e.file, META_FILE);
        assert!(e.to_string().starts_with("meta.json: "));
    }
});
