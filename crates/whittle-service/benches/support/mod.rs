//! What both benches of this crate need: the demo session they replay, their runtime,
//! a scratch copy of the demo workspace and the figures they report (milliseconds,
//! medians).

use std::future::Future;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The demo session both benches replay.
pub const SESSION: &str = "2026-05-14_160354_checkout-npe";
/// The demo crash's minimal path without the launch (docs/cli.md: `[1,10,11,12]`).
pub const MINIMAL: [u32; 3] = [10, 11, 12];

pub type BenchResult<T> = Result<T, Box<dyn std::error::Error>>;

/// Runs `bench` to its end on a two-worker tokio runtime, given the repository root and
/// whether the environment variable `quick_var` asks for fewer repetitions.
pub fn run_bench<F>(quick_var: &str, bench: impl FnOnce(PathBuf, bool) -> F) -> BenchResult<()>
where
    F: Future<Output = BenchResult<()>>,
{
    let quick = std::env::var_os(quick_var).is_some();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    rt.block_on(bench(root, quick))
}

pub fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

pub fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}
