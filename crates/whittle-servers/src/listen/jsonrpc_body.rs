//! A POSTed MCP message is read whole and looked at before rmcp sees it, so a body that
//! is not JSON gets what JSON-RPC 2.0 prescribes — HTTP 400 with
//! `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}` — and
//! JSON that is no JSON-RPC 2.0 message gets -32600 "Invalid Request", instead of
//! rmcp's plain-text 415 "Unsupported Media Type" for both (issue 40), which told a
//! client its Content-Type was wrong when its JSON was. Everything else stays rmcp's:
//! other methods, another content type (415 is right there), the body limit (413),
//! and every well-formed message. An `initialize` is told apart here too, so one the
//! session table has no room for gets HTTP 503 with a JSON-RPC error (`sessions.rs`).

use std::convert::Infallible;

use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::header::CONTENT_TYPE;
use hyper::{Method, Request, Response, StatusCode};

type Body = BoxBody<Bytes, Infallible>;

/// JSON-RPC 2.0's code for a body that is not JSON.
const PARSE_ERROR: i64 = -32700;
/// JSON-RPC 2.0's code for JSON that is not a request, notification or response.
const INVALID_REQUEST: i64 = -32600;
/// The implementation-defined server error range's first code: no room for a session.
const SERVER_BUSY: i64 = -32000;
/// What a refused `initialize` is told to wait before trying again, in seconds.
const RETRY_AFTER_SECS: &str = "5";

/// A POSTed JSON-RPC message, read whole.
pub struct Message {
    pub request: Request<Full<Bytes>>,
    /// The request id when the message is an `initialize` request (it opens a session).
    pub initialize: Option<serde_json::Value>,
}

/// Whether rmcp would parse `req`'s body as a JSON-RPC message: a POST that says it
/// carries JSON.
pub fn carries_message(req: &Request<Incoming>) -> bool {
    req.method() == Method::POST
        && req
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
}

/// `req` with its body read (at most `max_bytes`), when that body is a JSON-RPC 2.0
/// message (or a batch: rmcp answers those itself); else the answer to send.
pub async fn read_message(
    req: Request<Incoming>,
    max_bytes: usize,
) -> Result<Message, Response<Body>> {
    let (parts, body) = req.into_parts();
    let bytes = match Limited::new(body, max_bytes).collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(e) => {
            let status = if e.is::<http_body_util::LengthLimitError>() {
                StatusCode::PAYLOAD_TOO_LARGE
            } else {
                StatusCode::BAD_REQUEST
            };
            return Err(text(
                status,
                format!("the request body could not be read: {e}"),
            ));
        }
    };
    match serde_json::from_slice::<serde_json::Value>(&bytes) {
        Err(_) => Err(rpc_error(PARSE_ERROR, "Parse error")),
        Ok(value) if !is_jsonrpc(&value) => Err(rpc_error(INVALID_REQUEST, "Invalid Request")),
        Ok(value) => Ok(Message {
            initialize: initialize_id(&value),
            request: Request::from_parts(parts, Full::new(bytes)),
        }),
    }
}

/// The id of an `initialize` request.
fn initialize_id(value: &serde_json::Value) -> Option<serde_json::Value> {
    (value.get("method").and_then(|m| m.as_str()) == Some("initialize"))
        .then(|| value.get("id").cloned())
        .flatten()
}

/// HTTP 503 for an `initialize` when every one of the `max` sessions has a run in
/// flight: a JSON-RPC error answering its id, and when to try again.
pub fn sessions_full(id: serde_json::Value, max: usize) -> Response<Body> {
    let message = format!(
        "server busy: every one of its {max} MCP sessions has a run in flight; try again later"
    );
    let mut response = rpc_answer(StatusCode::SERVICE_UNAVAILABLE, id, SERVER_BUSY, &message);
    response.headers_mut().insert(
        hyper::header::RETRY_AFTER,
        hyper::header::HeaderValue::from_static(RETRY_AFTER_SECS),
    );
    response
}

/// An object that says `"jsonrpc": "2.0"`, or a non-empty array of such.
fn is_jsonrpc(value: &serde_json::Value) -> bool {
    let one = |v: &serde_json::Value| v.get("jsonrpc").and_then(|j| j.as_str()) == Some("2.0");
    match value {
        serde_json::Value::Array(items) => !items.is_empty() && items.iter().all(one),
        other => one(other),
    }
}

/// HTTP 400 with a JSON-RPC error object; its id is null, as the spec requires when the
/// request's id could not be read.
fn rpc_error(code: i64, message: &str) -> Response<Body> {
    rpc_answer(
        StatusCode::BAD_REQUEST,
        serde_json::Value::Null,
        code,
        message,
    )
}

/// `status` with a JSON-RPC error object answering `id`.
fn rpc_answer(
    status: StatusCode,
    id: serde_json::Value,
    code: i64,
    message: &str,
) -> Response<Body> {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": code, "message": message},
    });
    let mut response = Response::new(Full::new(Bytes::from(body.to_string())).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    response
}

fn text(status: StatusCode, text: String) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from(text)).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}
