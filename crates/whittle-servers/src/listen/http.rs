//! The accept loop: TCP (optionally TLS) → HTTP/1.1 → bearer check → rmcp's streamable
//! HTTP service. Every MCP session gets a clone of the server, so all clients of one
//! lab host share its devices and captures, as they share the phones on its rack.
use std::convert::Infallible;
use std::future::Future;
use std::io::Write;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{AUTHORIZATION, WWW_AUTHENTICATE};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::ServerHandler;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use super::{BearerToken, Listen, ListenError};

/// The only path served, as other MCP servers (mobile-mcp among them) do.
pub const MCP_PATH: &str = "/mcp";

/// Longest a client may take to finish the TLS handshake.
const TLS_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

type Body = BoxBody<Bytes, Infallible>;

/// Serves `server` until SIGINT/SIGTERM.
pub async fn serve<S>(server: S, listen: Listen) -> Result<(), ListenError>
where
    S: ServerHandler + Clone + Send + Sync + 'static,
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
    let mcp = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
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
    let guard = Guard {
        mcp,
        token: listen.token.map(Arc::new),
        delay: listen.delay,
        peer: None,
    };
    let tls = listen.tls.map(tokio_rustls::TlsAcceptor::from);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = shutdown_signal() => break,
        };
        let (stream, peer) = match accepted {
            Ok(pair) => pair,
            Err(e) => {
                tracing::warn!(error = %e, "accept failed");
                continue;
            }
        };
        // Small JSON-RPC messages: without this, Nagle and delayed ACKs add ~40 ms to
        // many calls.
        let _ = stream.set_nodelay(true);
        let guard = guard.clone().with_peer(peer);
        match &tls {
            None => {
                tokio::spawn(serve_connection(stream, guard));
            }
            Some(acceptor) => {
                let acceptor = acceptor.clone();
                tokio::spawn(async move {
                    match tokio::time::timeout(TLS_HANDSHAKE_TIMEOUT, acceptor.accept(stream)).await
                    {
                        Ok(Ok(stream)) => serve_connection(stream, guard).await,
                        Ok(Err(e)) => tracing::warn!(%peer, error = %e, "TLS handshake failed"),
                        Err(_) => tracing::warn!(%peer, "TLS handshake timed out"),
                    }
                });
            }
        }
    }
    stop.cancel();
    tracing::info!("stopped listening");
    Ok(())
}

/// The line scripts and tests wait for; stdout carries nothing else in HTTP mode.
fn announce(url: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "whittle-servers: listening on {url}");
    let _ = out.flush();
    tracing::info!(%url, "MCP streamable HTTP server ready");
}

async fn serve_connection<IO, S>(io: IO, guard: Guard<S>)
where
    IO: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    S: ServerHandler + Send + 'static,
{
    let peer = guard.peer;
    if let Err(e) = hyper::server::conn::http1::Builder::new()
        .serve_connection(TokioIo::new(io), guard)
        .await
    {
        tracing::debug!(?peer, error = %e, "connection ended with an error");
    }
}

/// Checks the token and the path, applies the simulated delay, then hands over to rmcp.
#[derive(Clone)]
struct Guard<S> {
    mcp: StreamableHttpService<S, LocalSessionManager>,
    token: Option<Arc<BearerToken>>,
    delay: Duration,
    peer: Option<SocketAddr>,
}

impl<S> Guard<S> {
    fn with_peer(mut self, peer: SocketAddr) -> Self {
        self.peer = Some(peer);
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
            // Neither the expected nor the presented value is logged.
            tracing::warn!(peer = ?self.peer, "request refused: missing or wrong bearer token");
            return Box::pin(async { Ok(unauthorized()) });
        }
        if req.uri().path() != MCP_PATH {
            return Box::pin(async { Ok(plain(StatusCode::NOT_FOUND, "MCP is served at /mcp")) });
        }
        let mut mcp = self.mcp.clone();
        let delay = self.delay;
        Box::pin(async move {
            if !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }
            tower_service::Service::call(&mut mcp, req).await
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
