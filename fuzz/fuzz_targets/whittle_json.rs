//! `whittle.json` through `Config::parse`: never a panic; every error names the file.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use whittle_service::config::Config;

const FILE: &str = "/fuzz/config/whittle.json";

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Config::parse(text, Path::new(FILE)) {
        // Relative paths are resolved against the file's (absolute) folder.
        Ok(config) => assert!(config.workspace.is_absolute()),
        Err(e) => assert!(e.to_string().contains(FILE), "file not named: {e}"),
    }
});
