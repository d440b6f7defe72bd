//! The transport to a Whittle lab host (`whittle-servers … --listen`): each message is
//! posted from the send task rmcp's service already spawns for it, and the answer is
//! read in that same task and handed straight to the service.
//!
//! Why not rmcp's streamable HTTP client: it passes every message through a worker task
//! and spawns one more task per SSE answer, three hand-offs between threads a call that
//! a stdio call does not make; on loopback they were about half of what an HTTP call
//! costs over a stdio one (docs/performance.md, "Device labs: HTTP against stdio").
//! What that worker adds is for servers we do not know: a session recovered after the
//! server forgot it, a broken answer stream resumed, requests of the server's own on a
//! standing GET stream. A lab host needs none of them (its sessions live as long as the
//! host, it answers every request in one piece and asks the client nothing), so any
//! other server keeps rmcp's full client (`start.rs`). The HTTP itself (status codes,
//! auth challenges, content types, answer size limits, the session header) is rmcp's
//! own code for reqwest, the same its full client runs.
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use futures_util::StreamExt;
use reqwest::header::{HeaderName, HeaderValue};
use rmcp::model::{ClientJsonRpcMessage, ClientRequest, ServerJsonRpcMessage, ServerResult};
use rmcp::transport::streamable_http_client::{
    StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
};
use rmcp::transport::Transport;
use rmcp::RoleClient;
use tokio::sync::{mpsc, oneshot};

pub(crate) type DirectHttpError = StreamableHttpError<reqwest::Error>;

/// How long closing waits for the server to end the session (rmcp's own client gives
/// its session cleanup the same bound).
const CLOSE_TIMEOUT: Duration = Duration::from_secs(5);
/// How long the rest of an answer stream is read after its answer, so the connection
/// goes back to the pool whole (rmcp's client drains for as long).
const DRAIN_TIMEOUT: Duration = Duration::from_millis(50);

/// Messages read ahead of the service: a server that floods a stream with messages
/// waits for the service to take them, as it would with rmcp's client.
const READ_AHEAD: usize = 16;

pub(crate) struct DirectHttpTransport {
    session: Arc<Session>,
    to_service: mpsc::Sender<ServerJsonRpcMessage>,
    from_server: mpsc::Receiver<ServerJsonRpcMessage>,
    /// Dropped with the transport, which rmcp's service holds until its loop has ended.
    ended: Option<oneshot::Sender<()>>,
}

/// What every request carries: set once by the initialize answer, read by each send.
struct Session {
    client: reqwest::Client,
    uri: Arc<str>,
    /// The configured headers (values marked sensitive).
    headers: HashMap<HeaderName, HeaderValue>,
    agreed: Mutex<Agreed>,
}

/// What the initialize answer settled.
#[derive(Default, Clone)]
struct Agreed {
    /// `Mcp-Session-Id`, when the server gave one.
    id: Option<Arc<str>>,
    /// `MCP-Protocol-Version`, sent on every request after the handshake.
    version: Option<HeaderValue>,
}

impl DirectHttpTransport {
    pub(crate) fn new(
        client: reqwest::Client,
        uri: &str,
        headers: HashMap<HeaderName, HeaderValue>,
    ) -> Self {
        let (to_service, from_server) = mpsc::channel(READ_AHEAD);
        DirectHttpTransport {
            session: Arc::new(Session {
                client,
                uri: Arc::from(uri),
                headers,
                agreed: Mutex::new(Agreed::default()),
            }),
            to_service,
            from_server,
            ended: None,
        }
    }

    /// Resolves once the transport is dropped: the service it was given to has ended
    /// (what the thread that runs a lab host's connection waits for, `start.rs`).
    pub(crate) fn ended(&mut self) -> oneshot::Receiver<()> {
        let (tx, rx) = oneshot::channel();
        self.ended = Some(tx);
        rx
    }
}

impl Session {
    /// No await happens under this lock; a panicking holder leaves only headers.
    fn agreed(&self) -> MutexGuard<'_, Agreed> {
        self.agreed.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The session id and the headers of the next request.
    fn request_headers(&self) -> (Option<Arc<str>>, HashMap<HeaderName, HeaderValue>) {
        let agreed = self.agreed().clone();
        let mut headers = self.headers.clone();
        if let Some(version) = agreed.version {
            headers.insert(HeaderName::from_static("mcp-protocol-version"), version);
        }
        (agreed.id, headers)
    }

    /// Keeps what the initialize answer settled, before the service sees the answer
    /// (and sends `notifications/initialized`, which must carry both).
    fn settle(&self, answer: &ServerJsonRpcMessage, session_id: Option<&str>) {
        let mut agreed = self.agreed();
        agreed.id = session_id.map(Arc::from);
        if let ServerJsonRpcMessage::Response(response) = answer {
            if let ServerResult::InitializeResult(result) = &response.result {
                agreed.version = HeaderValue::from_str(result.protocol_version.as_str()).ok();
            }
        }
    }

    /// Posts `message` and hands every message of its answer to the service.
    async fn post(
        &self,
        message: ClientJsonRpcMessage,
        to_service: mpsc::Sender<ServerJsonRpcMessage>,
    ) -> Result<(), DirectHttpError> {
        let initializes = matches!(
            &message,
            ClientJsonRpcMessage::Request(r) if matches!(r.request, ClientRequest::InitializeRequest(_))
        );
        let (id, headers) = self.request_headers();
        let answer = self
            .client
            .post_message(self.uri.clone(), message, id, None, headers)
            .await?;
        match answer {
            StreamableHttpPostResponse::Accepted => Ok(()),
            StreamableHttpPostResponse::Json(message, session_id) => {
                if initializes {
                    self.settle(&message, session_id.as_deref());
                }
                to_service
                    .send(message)
                    .await
                    .map_err(|_| StreamableHttpError::TransportChannelClosed)
            }
            StreamableHttpPostResponse::Sse(mut events, session_id) => {
                while let Some(event) = events.next().await {
                    // An event without data is a priming event or a keep-alive.
                    let Some(data) = event?.data.filter(|d| !d.trim().is_empty()) else {
                        continue;
                    };
                    let message: ServerJsonRpcMessage = serde_json::from_str(&data)?;
                    let answers = matches!(
                        message,
                        ServerJsonRpcMessage::Response(_) | ServerJsonRpcMessage::Error(_)
                    );
                    if initializes && answers {
                        self.settle(&message, session_id.as_deref());
                    }
                    to_service
                        .send(message)
                        .await
                        .map_err(|_| StreamableHttpError::TransportChannelClosed)?;
                    if answers {
                        // The stream ends after the answer; reading its end keeps the
                        // connection reusable.
                        let _ = tokio::time::timeout(DRAIN_TIMEOUT, async {
                            while events.next().await.is_some() {}
                        })
                        .await;
                        break;
                    }
                }
                Ok(())
            }
            // A kind of answer newer than this code: nothing a lab host sends.
            _ => Err(StreamableHttpError::UnexpectedServerResponse(
                "an answer of a kind this client does not know".into(),
            )),
        }
    }
}

impl Transport<RoleClient> for DirectHttpTransport {
    type Error = DirectHttpError;

    fn send(
        &mut self,
        item: ClientJsonRpcMessage,
    ) -> impl std::future::Future<Output = Result<(), Self::Error>> + Send + 'static {
        let session = self.session.clone();
        let to_service = self.to_service.clone();
        async move { session.post(item, to_service).await }
    }

    fn receive(
        &mut self,
    ) -> impl std::future::Future<Output = Option<ServerJsonRpcMessage>> + Send {
        self.from_server.recv()
    }

    /// Ends the session on the server (a lab host caps its sessions), within a bound.
    fn close(&mut self) -> impl std::future::Future<Output = Result<(), Self::Error>> + Send {
        let session = self.session.clone();
        async move {
            let (id, headers) = session.request_headers();
            let Some(id) = id else { return Ok(()) };
            let ended = session
                .client
                .delete_session(session.uri.clone(), id, None, headers);
            match tokio::time::timeout(CLOSE_TIMEOUT, ended).await {
                Ok(result) => result,
                Err(_) => {
                    tracing::debug!("the lab host did not end the session in time");
                    Ok(())
                }
            }
        }
    }
}
