//! Logs: a rolling file in the OS log folder (one per day, the last 7 kept) and stderr.
//! Only ids, paths, phases and errors are logged; input values never reach a span
//! (the plan keeps them behind `Secret`, whose Debug is redacted), and whatever
//! `RUST_LOG` says every target but Whittle's own stops at warn
//! ([`whittle_service::api::LOG_CEILING`]: below that rmcp and the HTTP stack write
//! whole messages), as for the CLI.

use std::path::{Path, PathBuf};

use tracing_appender::non_blocking::WorkerGuard;
use tracing_appender::rolling::{Builder, Rotation};
use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{fmt, EnvFilter, Layer};
use whittle_service::api::LOG_CEILING;

const KEEP_FILES: usize = 7;

/// Starts logging; keep the guard alive for the app's lifetime (dropping it flushes).
/// Returns the folder the file goes to, or `None` when it could not be created (the app
/// still logs to stderr).
pub fn init(dir: Option<&Path>) -> (Option<PathBuf>, Option<WorkerGuard>) {
    let filter = || EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let file = dir.and_then(|dir| {
        std::fs::create_dir_all(dir).ok()?;
        let appender = Builder::new()
            .rotation(Rotation::DAILY)
            .filename_prefix("whittle")
            .filename_suffix("log")
            .max_log_files(KEEP_FILES)
            .build(dir)
            .ok()?;
        Some((dir.to_path_buf(), tracing_appender::non_blocking(appender)))
    });
    let (dir, writer, guard) = match file {
        Some((dir, (writer, guard))) => (Some(dir), Some(writer), Some(guard)),
        None => (None, None, None),
    };
    let file_layer = writer.map(|w| {
        fmt::layer()
            .with_ansi(false)
            .with_writer(w)
            .with_filter(filter())
    });
    // A filter of its own for both outputs, so no `RUST_LOG` directive can lift it; were
    // the constant ever not to parse, everything stops at warn (quieter, never louder).
    let ceiling = LOG_CEILING
        .parse::<Targets>()
        .unwrap_or_else(|_| Targets::new().with_default(LevelFilter::WARN));
    let _ = tracing_subscriber::registry()
        .with(ceiling)
        .with(
            fmt::layer()
                .with_writer(std::io::stderr)
                // Colour only on a terminal and without NO_COLOR (a launcher's log file
                // gets plain text).
                .with_ansi(whittle_text::stderr_colour_allowed())
                .with_filter(filter()),
        )
        .with(file_layer)
        .try_init();
    (dir, guard)
}
