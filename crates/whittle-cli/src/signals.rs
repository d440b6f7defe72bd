//! The signals that cancel what `whittle` is doing: SIGINT (a terminal's Ctrl-C),
//! SIGTERM (what GitLab, Docker and Kubernetes send on a cancel or a timeout, and GitHub
//! Actions after SIGINT) and SIGHUP (a closed terminal). Each cancels as Ctrl-C always
//! did: the run stops after the current step, stops the capture, finalizes its evidence,
//! prints its report or `--json` object and exits with [`crate::exit::Exit::Cancelled`].
//!
//! The handlers are installed before the work starts ([`StopSignals::install`]), so a
//! signal that comes early is not lost to the default action (which kills the process
//! with the evidence unfinished).

use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::locale;

/// SIGINT, SIGTERM and SIGHUP, caught from the moment they are installed.
pub struct StopSignals {
    #[cfg(unix)]
    interrupt: Option<tokio::signal::unix::Signal>,
    #[cfg(unix)]
    terminate: Option<tokio::signal::unix::Signal>,
    #[cfg(unix)]
    hangup: Option<tokio::signal::unix::Signal>,
}

impl StopSignals {
    /// Installs the handlers (within the runtime). One that cannot be installed is left
    /// at its default action; the others still cancel.
    pub fn install() -> StopSignals {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            let install = |kind: SignalKind| match signal(kind) {
                Ok(stream) => Some(stream),
                Err(e) => {
                    tracing::warn!(error = %e, "a stop signal's handler cannot be installed");
                    None
                }
            };
            StopSignals {
                interrupt: install(SignalKind::interrupt()),
                terminate: install(SignalKind::terminate()),
                hangup: install(SignalKind::hangup()),
            }
        }
        #[cfg(not(unix))]
        StopSignals {}
    }

    /// Resolves at the first of the signals.
    pub async fn recv(self) {
        #[cfg(unix)]
        {
            let StopSignals {
                mut interrupt,
                mut terminate,
                mut hangup,
            } = self;
            tokio::select! {
                () = next(&mut interrupt) => {}
                () = next(&mut terminate) => {}
                () = next(&mut hangup) => {}
            }
        }
        #[cfg(not(unix))]
        {
            let StopSignals {} = self;
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

/// The stream's next signal; never, for a handler that could not be installed.
#[cfg(unix)]
async fn next(stream: &mut Option<tokio::signal::unix::Signal>) {
    match stream {
        Some(stream) => {
            if stream.recv().await.is_none() {
                std::future::pending::<()>().await;
            }
        }
        None => std::future::pending::<()>().await,
    }
}

/// Runs `on_stop` at the first stop signal (after saying so on stderr) while it lives;
/// the watch ends when it is dropped.
pub struct CancelOnSignal {
    task: JoinHandle<()>,
}

impl CancelOnSignal {
    /// Cancels `cancel` at the first stop signal.
    pub fn token(cancel: CancellationToken) -> CancelOnSignal {
        CancelOnSignal::run(move || cancel.cancel())
    }

    /// Runs `on_stop` at the first stop signal (e.g. a queue's own cancel).
    pub fn run(on_stop: impl FnOnce() + Send + 'static) -> CancelOnSignal {
        let signals = StopSignals::install();
        let task = tokio::spawn(async move {
            signals.recv().await;
            eprintln!("\n{}", locale::words().cancelling);
            on_stop();
        });
        CancelOnSignal { task }
    }
}

impl Drop for CancelOnSignal {
    fn drop(&mut self) {
        self.task.abort();
    }
}
