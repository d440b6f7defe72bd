//! `--listen HOST:PORT`: any `whittle-servers` subcommand served as MCP streamable HTTP
//! at `/mcp` (rmcp's server transport) instead of stdio, so the devices of a lab host can
//! join a pool on another machine. Safety rules, checked before the port opens:
//! - a non-loopback address needs a bearer token (`--token-file F` or
//!   `WHITTLE_SERVER_TOKEN`); every request without `Authorization: Bearer <token>` is
//!   answered 401 before it reaches the MCP service;
//! - with `--tls-cert`/`--tls-key` the port speaks HTTPS only (rustls);
//! - the token is never logged, and errors never quote it;
//! - the folders a client may have files written into (`--files-under`) exist.
//!
//! On start one line goes to stdout, `whittle-servers: listening on URL`, with the port
//! actually bound (so `:0` works for tests and scripts); logs stay on stderr.

mod address;
mod backoff;
mod connections;
mod error;
mod holds;
mod http;
mod jsonrpc_body;
mod limits;
mod session_links;
mod sessions;
mod throttle;
mod tls;
mod token;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

pub use address::{all_loopback, resolve};
pub use error::ListenError;
pub use holds::{HoldsNothing, SessionHolds};
pub use http::serve;
pub use limits::ServeLimits;
pub use token::{BearerToken, TokenError, WeakTokenError, MIN_TOKEN_LEN, TOKEN_ENV};

/// The options every subcommand takes (clap: `global`, so they follow the subcommand).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ListenArgs {
    /// Serve MCP streamable HTTP at http(s)://HOST:PORT/mcp instead of stdio. Port 0
    /// picks a free port; the URL is printed on stdout.
    #[arg(long, value_name = "HOST:PORT", global = true)]
    pub listen: Option<String>,
    /// File holding the bearer token clients must send (else `WHITTLE_SERVER_TOKEN`).
    /// Required unless HOST is loopback.
    #[arg(long, value_name = "FILE", global = true)]
    pub token_file: Option<PathBuf>,
    /// PEM certificate chain: serve HTTPS (with --tls-key).
    #[arg(long, value_name = "FILE", global = true)]
    pub tls_cert: Option<PathBuf>,
    /// PEM private key of --tls-cert.
    #[arg(long, value_name = "FILE", global = true)]
    pub tls_key: Option<PathBuf>,
    /// Holds every HTTP request this many ms before answering: a simulated network
    /// round trip, for benchmarks and tests on one machine.
    #[arg(long, value_name = "MS", global = true)]
    pub delay_ms: Option<u32>,
    /// Connections held at once (default 256, and never more than `ulimit -n` allows).
    /// At the limit, the oldest connection that has not yet sent an authorized request
    /// is closed for the new one.
    #[arg(long, value_name = "N", global = true, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_connections: Option<u32>,
    /// MCP sessions held at once (default 64). At the limit, the least used session
    /// without a run in flight is closed for the new one; when every one has a run in
    /// flight, the new one is refused (HTTP 503).
    #[arg(long, value_name = "N", global = true, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_sessions: Option<u32>,
    /// Seconds a connection may take to send a whole request head, from its opening or
    /// the end of its last answer (default 30).
    #[arg(long, value_name = "SECONDS", global = true, value_parser = clap::value_parser!(u32).range(1..))]
    pub idle_timeout_secs: Option<u32>,
    /// Seconds an MCP session may go without a message before it is closed (default 300).
    #[arg(long, value_name = "SECONDS", global = true, value_parser = clap::value_parser!(u32).range(1..))]
    pub session_idle_secs: Option<u32>,
    /// Seconds an MCP session may be left without any open connection that carried its
    /// requests before it is closed, ending its device leases and captures (default 5).
    #[arg(long, value_name = "SECONDS", global = true, value_parser = clap::value_parser!(u32).range(1..))]
    pub disconnect_grace_secs: Option<u32>,
    /// Device servers: seconds a session keeps a device without a call that acts on it
    /// (a tap, a launch, a screenshot, …; not a ping, not a listing) before another
    /// session may take it (default 300).
    #[arg(long, value_name = "SECONDS", global = true, value_parser = clap::value_parser!(u32).range(1..))]
    pub lease_idle_secs: Option<u32>,
    /// Device servers: a folder clients may have files written into (a screenshot's
    /// `saveTo`, a log capture's `session_dir`); repeatable. Default: the temp folder.
    #[arg(long, value_name = "DIR", global = true)]
    pub files_under: Vec<PathBuf>,
}

/// Validated `--listen` options: everything that can be refused has been.
#[derive(Debug, Clone)]
pub struct Listen {
    pub addrs: Vec<SocketAddr>,
    pub token: Option<BearerToken>,
    pub tls: Option<Arc<rustls::ServerConfig>>,
    pub delay: Duration,
    pub limits: ServeLimits,
    /// `--lease-idle-secs`, when given.
    pub lease_idle: Option<Duration>,
    /// The folders clients may have files written into, resolved (no symbolic link).
    pub files_under: Vec<PathBuf>,
}

impl ListenArgs {
    /// `None` for stdio. Every refusal happens here, before any socket exists.
    pub fn prepare(&self) -> Result<Option<Listen>, ListenError> {
        let Some(listen) = &self.listen else {
            let stray = [
                ("token-file", self.token_file.is_some()),
                ("tls-cert", self.tls_cert.is_some()),
                ("tls-key", self.tls_key.is_some()),
                ("delay-ms", self.delay_ms.is_some()),
                ("max-connections", self.max_connections.is_some()),
                ("max-sessions", self.max_sessions.is_some()),
                ("idle-timeout-secs", self.idle_timeout_secs.is_some()),
                ("session-idle-secs", self.session_idle_secs.is_some()),
                (
                    "disconnect-grace-secs",
                    self.disconnect_grace_secs.is_some(),
                ),
                ("lease-idle-secs", self.lease_idle_secs.is_some()),
                ("files-under", !self.files_under.is_empty()),
            ];
            return match stray.iter().find(|(_, set)| *set) {
                Some((name, _)) => Err(ListenError::NeedsListen(name)),
                None => Ok(None),
            };
        };
        let addrs = resolve(listen)?;
        let token = match &self.token_file {
            Some(file) => Some(BearerToken::from_file(file)?),
            None => BearerToken::from_env()?,
        };
        if token.is_none() && !all_loopback(&addrs) {
            return Err(ListenError::NoToken {
                listen: listen.clone(),
            });
        }
        let tls = match (&self.tls_cert, &self.tls_key) {
            (Some(cert), Some(key)) => Some(tls::server_config(cert, key)?),
            (None, None) => None,
            _ => return Err(ListenError::TlsPair),
        };
        Ok(Some(Listen {
            addrs,
            token,
            tls,
            delay: Duration::from_millis(u64::from(self.delay_ms.unwrap_or(0))),
            limits: self.limits(),
            lease_idle: self
                .lease_idle_secs
                .map(|s| Duration::from_secs(u64::from(s))),
            files_under: self.files_under()?,
        }))
    }

    /// `--files-under`, each resolved to the folder it names; the temp folder when none
    /// is given. A folder that does not exist is refused before the port opens.
    fn files_under(&self) -> Result<Vec<PathBuf>, ListenError> {
        let given = match self.files_under.as_slice() {
            [] => vec![std::env::temp_dir()],
            given => given.to_vec(),
        };
        given
            .into_iter()
            .map(|dir| match dir.canonicalize() {
                Ok(resolved) if resolved.is_dir() => Ok(resolved),
                Ok(_) => Err(ListenError::FilesUnderNotAFolder { dir }),
                Err(source) => Err(ListenError::FilesUnder { dir, source }),
            })
            .collect()
    }

    /// The defaults, with what the options set.
    fn limits(&self) -> ServeLimits {
        let defaults = ServeLimits::default();
        let count = |n: Option<u32>, default: usize| n.map_or(default, |n| n as usize);
        let secs = |n: Option<u32>, default: Duration| {
            n.map_or(default, |n| Duration::from_secs(u64::from(n)))
        };
        ServeLimits {
            max_connections: count(self.max_connections, defaults.max_connections),
            max_sessions: count(self.max_sessions, defaults.max_sessions),
            idle_timeout: secs(self.idle_timeout_secs, defaults.idle_timeout),
            session_idle: secs(self.session_idle_secs, defaults.session_idle),
            disconnect_grace: secs(self.disconnect_grace_secs, defaults.disconnect_grace),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(listen: &str) -> ListenArgs {
        ListenArgs {
            listen: Some(listen.into()),
            ..ListenArgs::default()
        }
    }

    #[test]
    fn the_network_without_a_token_is_refused_and_loopback_is_not() {
        // The variable is never set in this test process.
        assert!(std::env::var(TOKEN_ENV).is_err());
        let e = args("0.0.0.0:0").prepare().unwrap_err();
        assert!(matches!(e, ListenError::NoToken { .. }), "{e}");
        assert!(e.to_string().contains("--token-file"));
        let local = args("127.0.0.1:0").prepare().unwrap().unwrap();
        assert!(local.token.is_none() && local.tls.is_none());

        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("token");
        std::fs::write(&file, "0123456789abcdef0123").unwrap();
        let open = ListenArgs {
            token_file: Some(file),
            ..args("0.0.0.0:0")
        };
        assert!(open.prepare().unwrap().unwrap().token.is_some());
    }

    #[test]
    fn listen_options_without_listen_and_half_tls_are_refused() {
        let stray = ListenArgs {
            delay_ms: Some(20),
            ..ListenArgs::default()
        };
        assert!(matches!(
            stray.prepare(),
            Err(ListenError::NeedsListen("delay-ms"))
        ));
        assert!(ListenArgs::default().prepare().unwrap().is_none());
        let half = ListenArgs {
            tls_cert: Some("cert.pem".into()),
            ..args("127.0.0.1:0")
        };
        assert!(matches!(half.prepare(), Err(ListenError::TlsPair)));
    }
}
