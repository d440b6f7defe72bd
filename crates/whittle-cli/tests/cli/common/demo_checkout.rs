//! The demo as a source checkout, for the tests that run the documents' commands
//! verbatim (README.md, docs/cli.md, docs/ci.md): `demo/` copied with the shop's delays
//! zeroed (as a faster phone would), the built `whittle` and `whittle-servers` in
//! `target/debug/`, and a `PATH` that finds them first.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::{repo_root, servers_binary};

pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A binary into the checkout's `target/debug/`: a hard link when the file system
/// allows (the copy is made next to the real target folder for that), else a copy.
fn place_binary(from: &Path, bin_dir: &Path) {
    let to = bin_dir.join(from.file_name().unwrap());
    if std::fs::hard_link(from, &to).is_err() {
        std::fs::copy(from, &to).unwrap();
    }
}

/// The demo as a source checkout: `demo/` copied, the shop's delays zeroed, the built
/// binaries in `target/debug/`.
pub fn demo_checkout() -> tempfile::TempDir {
    let whittle = PathBuf::from(env!("CARGO_BIN_EXE_whittle"));
    let servers = servers_binary();
    let target = whittle.parent().unwrap().parent().unwrap();
    let root = tempfile::tempdir_in(target).unwrap();
    copy_dir(&repo_root().join("demo"), &root.path().join("demo"));
    let shop = root.path().join("demo/shop.json");
    let mut model: Value = serde_json::from_slice(&std::fs::read(&shop).unwrap()).unwrap();
    model["timing"] = json!({"launch_ms": 0, "action_ms": 0});
    std::fs::write(&shop, serde_json::to_vec_pretty(&model).unwrap()).unwrap();
    let bin_dir = root.path().join("target/debug");
    std::fs::create_dir_all(&bin_dir).unwrap();
    place_binary(&whittle, &bin_dir);
    place_binary(&servers, &bin_dir);
    root
}

/// `PATH` with the checkout's `target/debug/` first.
pub fn checkout_path(root: &Path) -> OsString {
    std::env::join_paths(
        std::iter::once(root.join("target/debug")).chain(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        )),
    )
    .unwrap()
}
