//! The accept loop: TCP (optionally TLS) → HTTP/1.1 → bearer check → rmcp's streamable
//! HTTP service, within the limits of `limits.rs` (connections, sessions, timeouts).
//! Every MCP session gets its own server value from `make`; a device server's sessions
//! share its devices one session at a time (`crate::device`). Which connection carried
//! which session is noted here, so a session whose client is gone is ended soon after
//! its last connection closes (`session_links.rs`).
use std::convert::Infallible;
use std::future::Future;
use std::io::Write;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{AUTHORIZATION, WWW_AUTHENTICATE};
use hyper::server::conn::http1;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::ServerHandler;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;

use super::backoff::Backoff;
use super::connections::{Admission, Connections, Slot};
use super::holds::SessionHolds;
use super::jsonrpc_body::{carries_message, read_message, sessions_full};
use super::limits::TLS_HANDSHAKE_TIMEOUT;
use super::session_links::ConnectionEnd;
use super::sessions::CappedSessions;
use super::throttle::{Throttle, LOG_PERIOD};
use super::{BearerToken, Listen, ListenError};

/// The only path served, as other MCP servers (mobile-mcp among them) do.
pub const MCP_PATH: &str = "/mcp";
/// The header naming a request's MCP session (streamable HTTP).
const SESSION_HEADER: &str = "mcp-session-id";

type Body = BoxBody<Bytes, Infallible>;

/// Serves the servers `make` builds, one per MCP session, until SIGINT/SIGTERM. `holds`
/// says which sessions hold something a run needs (they are never closed for room).
pub async fn serve<S, F>(
    make: F,
    holds: Arc<dyn SessionHolds>,
    listen: Listen,
) -> Result<(), ListenError>
where
    S: ServerHandler + Clone + Send + Sync + 'static,
    F: Fn() -> S + Send + Sync + 'static,
{
    let shown = listen
        .addrs
        .first()
        .map(ToString::to_string)
        .unwrap_or_default();
    let listener = TcpListener::bind(listen.addrs.as_slice())
        .await
        .map_err(|source| ListenError::Bind {
            listen: shown.clone(),
            source,
        })?;
    let local = listener.local_addr().map_err(|source| ListenError::Bind {
        listen: shown,
        source,
    })?;
    let stop = CancellationToken::new();
    let mut config = StreamableHttpServerConfig::default().with_cancellation_token(stop.clone());
    if listen.token.is_some() {
        // rmcp's Host check stops DNS rebinding against a local server nobody
        // authenticates to; with a token required, the token is that guard, and a lab
        // host is reached by whatever name or address the lab uses.
        config = config.disable_allowed_hosts();
    }
    let max_body = config.max_request_body_bytes;
    let limits = listen.limits;
    let mut manager = LocalSessionManager::default();
    manager.session_config.keep_alive = Some(limits.session_idle);
    let sessions = Arc::new(CappedSessions::new(manager, limits.max_sessions, holds));
    let mcp = StreamableHttpService::new(move || Ok(make()), sessions.clone(), config);
    let scheme = if listen.tls.is_some() {
        "https"
    } else {
        "http"
    };
    let url = format!("{scheme}://{local}{MCP_PATH}");
    announce(&url);
    if listen.token.is_none() {
        tracing::warn!("no bearer token: any local process can use this server");
    }
    if listen.tls.is_none() && !super::all_loopback(&[local]) {
        tracing::warn!("plain HTTP on a network address: calls and the token cross the network unencrypted; use --tls-cert/--tls-key");
    }
    let logs = Arc::new(Logs::default());
    let guard = Guard {
        mcp,
        sessions: sessions.clone(),
        token: listen.token.map(Arc::new),
        delay: listen.delay,
        max_body,
        logs: logs.clone(),
        peer: None,
        slot: None,
    };
    let tls = listen.tls.map(tokio_rustls::TlsAcceptor::from);
    let mut http = http1::Builder::new();
    // The header timer also runs while a kept-alive connection waits for its next
    // request, so it closes idle connections as well as slow ones.
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.idle_timeout);
    let http = Arc::new(http);
    let max_connections = limits.effective_max_connections();
    let connections = Connections::new(max_connections);
    let mut backoff = Backoff::default();
    let grace = limits.disconnect_grace;
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = shutdown_signal() => break,
        };
        let (stream, peer) = match accepted {
            Ok(pair) => {
                backoff.reset();
                pair
            }
            Err(e) => {
                if let Some(left_out) = logs.accept_failed.admit(Instant::now()) {
                    tracing::warn!(error = %e, left_out, "accept failed");
                }
                let pause = backoff.after(&e);
                if !pause.is_zero() {
                    // Out of descriptors (or the like): an unproven connection gives
                    // its one back, so a client with the token can still get in.
                    match connections.shed_one() {
                        Some(shed) => until_closed(&shed).await,
                        None => tokio::time::sleep(pause).await,
                    }
                }
                continue;
            }
        };
        let admitted = match connections.admit() {
            Admission::Admitted(admitted) => admitted,
            Admission::AdmittedByShedding(admitted, shed) => {
                if let Some(left_out) = logs.shed.admit(Instant::now()) {
                    tracing::warn!(
                        max_connections,
                        left_out,
                        "connection limit reached: closed the oldest connection that had not sent an authorized request"
                    );
                }
                // The next accept waits for the shed socket to close, so a burst of
                // connections never holds more descriptors than the limit.
                until_closed(&shed).await;
                admitted
            }
            Admission::Refused => {
                if let Some(left_out) = logs.refused.admit(Instant::now()) {
                    tracing::warn!(
                        max_connections,
                        left_out,
                        "connection limit reached, every connection an authorized client's: refused a new one"
                    );
                }
                continue;
            }
        };
        // Small JSON-RPC messages: without this, Nagle and delayed ACKs add ~40 ms to
        // many calls.
        let _ = stream.set_nodelay(true);
        let guard = guard.clone().for_connection(peer, admitted.slot.clone());
        let (tls, http, logs) = (tls.clone(), http.clone(), logs.clone());
        let sessions = sessions.clone();
        tokio::spawn(async move {
            let end = tokio::select! {
                end = connection(stream, tls, &http, guard, &logs) => end,
                () = admitted.slot.shed() => {
                    // Only a connection that never sent an authorized request is shed,
                    // so it carried no session.
                    tracing::debug!(%peer, "connection shed");
                    ConnectionEnd::Idle
                }
            };
            let id = admitted.slot.id();
            drop(admitted);
            for orphan in sessions.connection_closed(id, end) {
                let sessions = sessions.clone();
                tokio::spawn(async move {
                    tokio::time::sleep(grace).await;
                    sessions.end_if_orphaned(&orphan).await;
                });
            }
        });
    }
    stop.cancel();
    tracing::info!("stopped listening");
    Ok(())
}

/// Waits (briefly) until a shed connection's task has closed its socket.
async fn until_closed(shed: &Slot) {
    let _ = tokio::time::timeout(Duration::from_millis(100), shed.gone()).await;
}

/// The lines a flood could repeat, each written at most once per period.
struct Logs {
    accept_failed: Throttle,
    shed: Throttle,
    refused: Throttle,
    /// A TLS handshake that failed or timed out (anyone can send bytes that are not one).
    handshake_failed: Throttle,
    /// A request without the token (anyone who reaches the port can send thousands).
    unauthorized: Throttle,
}

impl Default for Logs {
    fn default() -> Self {
        Logs {
            accept_failed: Throttle::new(LOG_PERIOD),
            shed: Throttle::new(LOG_PERIOD),
            refused: Throttle::new(LOG_PERIOD),
            handshake_failed: Throttle::new(LOG_PERIOD),
            unauthorized: Throttle::new(LOG_PERIOD),
        }
    }
}

/// One connection, from the TLS handshake (if any) to its last answer; how it ended.
async fn connection<S>(
    stream: TcpStream,
    tls: Option<tokio_rustls::TlsAcceptor>,
    http: &http1::Builder,
    guard: Guard<S>,
    logs: &Logs,
) -> ConnectionEnd
where
    S: ServerHandler + Send + 'static,
{
    let peer = guard.peer;
    match tls {
        None => serve_connection(stream, http, guard).await,
        Some(acceptor) => {
            let handshake =
                tokio::time::timeout(TLS_HANDSHAKE_TIMEOUT, acceptor.accept(stream)).await;
            let failure = match handshake {
                Ok(Ok(stream)) => return serve_connection(stream, http, guard).await,
                Ok(Err(e)) => e.to_string(),
                Err(_) => format!("no handshake within {TLS_HANDSHAKE_TIMEOUT:?}"),
            };
            if let Some(left_out) = logs.handshake_failed.admit(Instant::now()) {
                tracing::warn!(?peer, error = %failure, left_out, "TLS handshake failed");
            }
            // Before HTTP: it carried no session.
            ConnectionEnd::Idle
        }
    }
}

/// The line scripts and tests wait for; stdout carries nothing else in HTTP mode.
fn announce(url: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "whittle-servers: listening on {url}");
    let _ = out.flush();
    tracing::info!(%url, "MCP streamable HTTP server ready");
}

/// Serves HTTP on one connection until it ends: by the client's side (closed, or
/// broken), or by the server's idle timer (hyper's header-read timeout).
async fn serve_connection<IO, S>(io: IO, http: &http1::Builder, guard: Guard<S>) -> ConnectionEnd
where
    IO: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    S: ServerHandler + Send + 'static,
{
    let peer = guard.peer;
    match http.serve_connection(TokioIo::new(io), guard).await {
        Ok(()) => ConnectionEnd::ByPeer,
        Err(e) if e.is_timeout() => ConnectionEnd::Idle,
        Err(e) => {
            tracing::debug!(?peer, error = %e, "connection ended with an error");
            ConnectionEnd::ByPeer
        }
    }
}

/// Checks the token and the path, applies the simulated delay, answers a message that
/// is not JSON-RPC (`jsonrpc_body.rs`) and an `initialize` the session table has no
/// room for, then hands over to rmcp; notes which session the connection carried.
#[derive(Clone)]
struct Guard<S> {
    mcp: StreamableHttpService<S, CappedSessions>,
    sessions: Arc<CappedSessions>,
    token: Option<Arc<BearerToken>>,
    delay: Duration,
    /// rmcp's own limit on a request body, which the message check reads within.
    max_body: usize,
    logs: Arc<Logs>,
    peer: Option<SocketAddr>,
    /// The connection's place in the table, proven by its first authorized request.
    slot: Option<Arc<Slot>>,
}

impl<S> Guard<S> {
    fn for_connection(mut self, peer: SocketAddr, slot: Arc<Slot>) -> Self {
        self.peer = Some(peer);
        self.slot = Some(slot);
        self
    }
}

impl<S> hyper::service::Service<Request<Incoming>> for Guard<S>
where
    S: ServerHandler + Send + 'static,
{
    type Response = Response<Body>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response<Body>, Infallible>> + Send>>;

    fn call(&self, req: Request<Incoming>) -> Self::Future {
        let authorized = self.token.as_ref().is_none_or(|token| {
            token.accepts(req.headers().get(AUTHORIZATION).map(|v| v.as_bytes()))
        });
        if !authorized {
            // Neither the expected nor the presented value is logged; anyone can send
            // these by the thousand, so one line per period says how many.
            if let Some(left_out) = self.logs.unauthorized.admit(Instant::now()) {
                tracing::warn!(
                    peer = ?self.peer,
                    left_out,
                    "request refused: missing or wrong bearer token"
                );
            }
            return Box::pin(async { Ok(unauthorized()) });
        }
        if let Some(slot) = &self.slot {
            slot.prove();
        }
        if req.uri().path() != MCP_PATH {
            return Box::pin(async { Ok(plain(StatusCode::NOT_FOUND, "MCP is served at /mcp")) });
        }
        let mut mcp = self.mcp.clone();
        let sessions = self.sessions.clone();
        let (delay, max_body) = (self.delay, self.max_body);
        let connection = self.slot.as_ref().map(|slot| slot.id());
        let named = req
            .headers()
            .get(SESSION_HEADER)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let closes = req.method() == hyper::Method::DELETE;
        Box::pin(async move {
            if let (Some(session), Some(connection)) = (&named, connection) {
                sessions.request_on(session, connection);
            }
            if !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }
            let answer = if !carries_message(&req) {
                tower_service::Service::call(&mut mcp, req).await
            } else {
                match read_message(req, max_body).await {
                    Ok(message) => match message.initialize {
                        Some(id) if named.is_none() && !sessions.admits_newcomer() => {
                            Ok(sessions_full(id, sessions.max()))
                        }
                        _ => tower_service::Service::call(&mut mcp, message.request).await,
                    },
                    Err(answer) => Ok(answer),
                }
            };
            if let (Ok(answer), Some(connection)) = (&answer, connection) {
                let session = named.as_deref().or_else(|| {
                    answer
                        .headers()
                        .get(SESSION_HEADER)
                        .and_then(|v| v.to_str().ok())
                });
                if let Some(session) = session.filter(|_| answer.status().is_success() && !closes) {
                    sessions.carried_on(session, connection);
                }
            }
            answer
        })
    }
}

fn unauthorized() -> Response<Body> {
    let mut response = plain(
        StatusCode::UNAUTHORIZED,
        "missing or wrong bearer token (Authorization: Bearer <token>)",
    );
    response.headers_mut().insert(
        WWW_AUTHENTICATE,
        hyper::header::HeaderValue::from_static("Bearer realm=\"whittle-servers\""),
    );
    response
}

fn plain(status: StatusCode, text: &'static str) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from_static(text.as_bytes())).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

/// Ctrl-C or SIGTERM (how service managers stop a lab host's server).
async fn shutdown_signal() {
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(term) => term,
                Err(_) => {
                    let _ = tokio::signal::ctrl_c().await;
                    return;
                }
            };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
