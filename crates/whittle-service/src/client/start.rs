//! Starting one configured server and learning its tools.
use std::path::Path;
use std::time::Duration;

use rmcp::ServiceExt;
use tokio::sync::oneshot;
use tracing::Instrument;

use super::connection::Connection;
use super::direct_http::DirectHttpTransport;
use super::error::StartError;
use super::keep_alive::{choose, for_handshake};
use super::oversize::OversizeLog;
use super::stderr_tail::{drain_stderr, StderrTail};
use super::stdio_child::StdioChild;
use crate::config::{program_for, HttpServer, ServerSpec};

/// Starts `spec`, performs the MCP handshake and lists its tools, all within `timeout`.
pub(crate) async fn start_server(
    name: &str,
    spec: &ServerSpec,
    base_dir: &Path,
    timeout: Duration,
) -> Result<Connection, StartError> {
    let connection = match spec {
        ServerSpec::Stdio { command, args, env } => {
            let program = program_for(command);
            let mut cmd = tokio::process::Command::new(&program);
            // Relative paths in `args` then mean the same as in the config file.
            cmd.args(args)
                .envs(env)
                .current_dir(base_dir)
                .kill_on_drop(true);
            // A terminal's Ctrl-C signals the whole foreground group; servers in their own
            // group survive it, so the run can still stop the capture and finalize.
            #[cfg(unix)]
            cmd.process_group(0);
            let oversize = OversizeLog::default();
            let (transport, stderr) = StdioChild::spawn(cmd, oversize.clone())
                .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
            let pid = transport.id();
            let tail = StderrTail::default();
            if let Some(stderr) = stderr {
                tokio::spawn(drain_stderr(name.to_string(), stderr, tail.clone()));
            }
            handshake(name, transport, pid, oversize, timeout)
                .await
                .map_err(|e| StartError::Failed(with_last_words(e.to_string(), &tail)))?
        }
        ServerSpec::Http(spec) => start_http(name, spec, timeout).await?,
    };
    // Said once per server, for the connection kept (a `url` server may need two).
    tracing::info!(
        server = name,
        tools = connection.tools.len(),
        "MCP server ready"
    );
    Ok(connection)
}

/// Why a handshake failed: text already, or the transport's error to explain.
enum HandshakeError {
    Text(String),
    Init(Box<rmcp::service::ClientInitializeError>),
}

impl std::fmt::Display for HandshakeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HandshakeError::Text(t) => f.write_str(t),
            HandshakeError::Init(e) => write!(f, "MCP handshake failed: {e}"),
        }
    }
}

async fn handshake<T, E, A>(
    name: &str,
    transport: T,
    pid: Option<u32>,
    oversize: OversizeLog,
    timeout: Duration,
) -> Result<Connection, HandshakeError>
where
    T: rmcp::transport::IntoTransport<rmcp::RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    let secs = timeout.as_secs_f32();
    let service = tokio::time::timeout(timeout, ().serve(transport))
        .await
        .map_err(|_| HandshakeError::Text(format!("no MCP handshake within {secs} s")))?
        .map_err(|e| HandshakeError::Init(Box::new(e)))?;
    let tools = tokio::time::timeout(timeout, service.list_all_tools())
        .await
        .map_err(|_| HandshakeError::Text(format!("tools/list did not answer within {secs} s")))?
        .map_err(|e| HandshakeError::Text(format!("tools/list failed: {e}")))?;
    Ok(Connection {
        server: name.to_string(),
        service,
        tools: tools.into_iter().map(|t| t.name.into_owned()).collect(),
        pid,
        oversize,
    })
}

/// A `url` server: the handshake and tools/list share `timeout` (the per-call timeout),
/// the TCP/TLS connect its own `connect_timeout_ms`. The handshake is made by the direct
/// transport; a server whose initialize answer shows it is not a Whittle lab host is
/// connected to again by rmcp's full client, with a connection per call when
/// `keep_alive` is unset (`keep_alive.rs` and `direct_http.rs` say why).
async fn start_http(
    name: &str,
    spec: &HttpServer,
    timeout: Duration,
) -> Result<Connection, StartError> {
    let handshake_keep_alive = for_handshake(spec.keep_alive);
    let first = handshake_http(name, spec, true, handshake_keep_alive, timeout).await?;
    let announced = first
        .service
        .peer_info()
        .and_then(|info| info.server_info.as_ref().map(|s| s.name.clone()));
    let choice = choose(spec.keep_alive, announced.as_deref());
    tracing::debug!(
        server = name,
        announced = announced.as_deref().unwrap_or("(no serverInfo)"),
        keep_alive = choice.keep_alive,
        direct = choice.direct,
        "HTTP connections {}: {}",
        if choice.keep_alive {
            "kept alive"
        } else {
            "one per call"
        },
        choice.why
    );
    if choice.direct && choice.keep_alive == handshake_keep_alive {
        return Ok(first);
    }
    // The first session ends before the second starts, so the server holds one of ours.
    let mut service = first.service;
    if !matches!(service.close_with_timeout(timeout).await, Ok(Some(_))) {
        tracing::debug!(
            server = name,
            "first HTTP session did not close in time; dropped"
        );
    }
    handshake_http(name, spec, choice.direct, choice.keep_alive, timeout).await
}

/// One handshake with a `url` server, by the direct transport or rmcp's full client,
/// over connections kept alive or not.
async fn handshake_http(
    name: &str,
    spec: &HttpServer,
    direct: bool,
    keep_alive: bool,
    timeout: Duration,
) -> Result<Connection, StartError> {
    let setup = |e: super::http::HttpClientSetupError| StartError::Failed(e.to_string());
    let shaken = if direct {
        let transport = super::http::direct_transport(spec, keep_alive).map_err(setup)?;
        handshake_on_own_thread(name, transport, timeout).await
    } else {
        let transport = super::http::transport(spec, keep_alive).map_err(setup)?;
        handshake(name, transport, None, OversizeLog::default(), timeout).await
    };
    shaken.map_err(|e| match e {
        HandshakeError::Text(t) => StartError::Failed(t),
        HandshakeError::Init(e) => super::http::explain(&e, spec),
    })
}

/// The handshake with a Whittle lab host, made on a thread of its own whose
/// single-threaded runtime then runs the connection for as long as it lives: a call
/// crosses threads to come in and to go out, as a stdio call does. On the shared
/// multi-thread runtime the tasks of one HTTP call (rmcp's send task, hyper's
/// connection task, the reads of the answer) wake one another on either worker, and
/// those hops made a replay over HTTP cost 1.32–1.43× one over stdio on a machine where
/// this thread and a single-threaded lab host bring it to 1.08–1.14× (docs/performance.md,
/// "Device labs: HTTP against stdio").
async fn handshake_on_own_thread(
    name: &str,
    mut transport: DirectHttpTransport,
    timeout: Duration,
) -> Result<Connection, HandshakeError> {
    let no_thread = |e: std::io::Error| {
        HandshakeError::Text(format!("cannot start the connection's thread: {e}"))
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(no_thread)?;
    let ended = transport.ended();
    let (answer, answered) = oneshot::channel();
    let server = name.to_string();
    let span = tracing::Span::current();
    std::thread::Builder::new()
        // Not the server's name: a config's key may hold a NUL, which a thread name may not.
        .name("whittle-lab-host".to_string())
        .spawn(move || {
            runtime.block_on(
                async move {
                    let shaken =
                        handshake(&server, transport, None, OversizeLog::default(), timeout).await;
                    // A caller gone meanwhile drops the connection, which ends its service.
                    let _ = answer.send(shaken);
                    // rmcp's service holds the transport until its loop (the session's
                    // close included) has ended; then the runtime may go.
                    let _ = ended.await;
                }
                .instrument(span),
            );
        })
        .map_err(no_thread)?;
    answered.await.unwrap_or_else(|_| {
        Err(HandshakeError::Text(
            "the connection's thread ended before its handshake".to_string(),
        ))
    })
}

/// Lines of a failed server's stderr its start error quotes.
const QUOTED_STDERR_LINES: usize = 3;

/// `error`, followed by the last lines the server wrote to stderr (what a server that
/// exits during its handshake says why), control characters removed.
fn with_last_words(error: String, tail: &StderrTail) -> String {
    let said: Vec<String> = tail
        .lines()
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.chars().filter(|c| !c.is_control()).collect())
        .collect();
    let last = &said[said.len().saturating_sub(QUOTED_STDERR_LINES)..];
    if last.is_empty() {
        return error;
    }
    format!("{error}; its stderr ended with: {}", last.join(" | "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Stdio;

    /// A server that died during its handshake is told with its last stderr lines, with
    /// no control character of them reaching the terminal.
    #[tokio::test]
    async fn a_failed_start_quotes_the_servers_last_stderr_lines() {
        let mut child = tokio::process::Command::new("sh")
            .args(["-c", "printf 'one\\ntwo\\n\\n\\033[31mthree\\nfour\\n' >&2"])
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let tail = StderrTail::default();
        let drain = tokio::spawn(drain_stderr(
            "t".into(),
            child.stderr.take().unwrap(),
            tail.clone(),
        ));
        child.wait().await.unwrap();
        drain.await.unwrap();
        assert_eq!(
            with_last_words("no MCP handshake".into(), &tail),
            "no MCP handshake; its stderr ended with: two | [31mthree | four"
        );
        assert_eq!(with_last_words("e".into(), &StderrTail::default()), "e");
    }
}
