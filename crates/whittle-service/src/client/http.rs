//! A `url` server's transports over a reqwest client we build ourselves, for the
//! configured headers and connect timeout: rmcp's streamable HTTP client, or the direct
//! one a Whittle lab host gets (`direct_http.rs`). Header values are secrets: marked
//! sensitive for reqwest, and no error text here can contain one.
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use reqwest::header::{HeaderName, HeaderValue, InvalidHeaderName, InvalidHeaderValue};
use rmcp::service::ClientInitializeError;
use rmcp::transport::streamable_http_client::{
    StreamableHttpClientTransportConfig, StreamableHttpError,
};
use rmcp::transport::StreamableHttpClientTransport;

use super::direct_http::DirectHttpTransport;
use super::error::StartError;
use crate::config::HttpServer;

pub(crate) type HttpTransport = StreamableHttpClientTransport<reqwest::Client>;

/// Why a `url` server's HTTP client could not be built. Never holds a header's value:
/// it may be a secret.
#[derive(Debug, thiserror::Error)]
pub(crate) enum HttpClientSetupError {
    #[error("cannot set up the HTTP client: {0}")]
    Client(#[source] reqwest::Error),
    #[error("header {name:?} is not a valid HTTP header name")]
    HeaderName {
        name: String,
        #[source]
        source: InvalidHeaderName,
    },
    #[error("header {name} has a value HTTP cannot carry")]
    HeaderValue {
        name: HeaderName,
        #[source]
        source: InvalidHeaderValue,
    },
}

/// rmcp's transport for `spec`, its calls sharing kept-alive connections or opening one
/// each (`keep_alive`, chosen in `keep_alive.rs`); the error is a sentence for a tester.
pub(crate) fn transport(
    spec: &HttpServer,
    keep_alive: bool,
) -> Result<HttpTransport, HttpClientSetupError> {
    let (client, headers) = client(spec, keep_alive)?;
    let config = StreamableHttpClientTransportConfig::with_uri(Arc::<str>::from(spec.url.as_str()))
        .custom_headers(headers);
    Ok(StreamableHttpClientTransport::with_client(client, config))
}

/// The direct transport for `spec` (a Whittle lab host's, `direct_http.rs`), its
/// connections as [`transport`]'s.
pub(crate) fn direct_transport(
    spec: &HttpServer,
    keep_alive: bool,
) -> Result<DirectHttpTransport, HttpClientSetupError> {
    let (client, headers) = client(spec, keep_alive)?;
    Ok(DirectHttpTransport::new(client, &spec.url, headers))
}

/// The reqwest client for `spec` and the configured headers, their values sensitive.
fn client(
    spec: &HttpServer,
    keep_alive: bool,
) -> Result<(reqwest::Client, HashMap<HeaderName, HeaderValue>), HttpClientSetupError> {
    // rustls needs a process-wide provider; a second install is a harmless no-op.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::builder()
        .connect_timeout(Duration::from_millis(u64::from(spec.connect_timeout_ms)))
        .tcp_nodelay(true)
        // Idle pooled connections are dropped before a Whittle lab host closes them
        // (`--idle-timeout-secs`, 30 s by default: docs/SECURITY.md §10a), so a call is
        // never sent down a connection the server is closing at that moment.
        .pool_idle_timeout(Duration::from_secs(20))
        // Not kept alive: no idle connection is kept, so each call opens its own.
        .pool_max_idle_per_host(if keep_alive { usize::MAX } else { 0 })
        // A redirect would carry the headers (the token) to wherever it points.
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(HttpClientSetupError::Client)?;
    let mut headers = HashMap::new();
    for (name, value) in &spec.headers {
        let name = HeaderName::from_bytes(name.as_bytes()).map_err(|source| {
            HttpClientSetupError::HeaderName {
                name: name.clone(),
                source,
            }
        })?;
        let mut value = HeaderValue::from_str(value.expose()).map_err(|source| {
            HttpClientSetupError::HeaderValue {
                name: name.clone(),
                source,
            }
        })?;
        value.set_sensitive(true);
        headers.insert(name, value);
    }
    Ok((client, headers))
}

/// Why the handshake with a `url` server failed, in words a tester can act on: a
/// refused token and an unreachable host are told apart from protocol trouble.
pub(crate) fn explain(error: &ClientInitializeError, spec: &HttpServer) -> StartError {
    // rmcp keeps the transport's error as a field, not as the error's `source()`.
    let mut source: Option<&(dyn std::error::Error + 'static)> = match error {
        ClientInitializeError::TransportError { error, .. } => Some(error.error.as_ref()),
        _ => None,
    };
    while let Some(e) = source {
        if let Some(http) = e.downcast_ref::<StreamableHttpError<reqwest::Error>>() {
            match http {
                StreamableHttpError::AuthRequired(_)
                | StreamableHttpError::InsufficientScope(_) => {
                    return StartError::Unauthorized(format!("{} answered HTTP 401/403", spec.url))
                }
                StreamableHttpError::Client(inner) => {
                    return StartError::Failed(describe_reqwest(inner, spec))
                }
                _ => {}
            }
        }
        if let Some(inner) = e.downcast_ref::<reqwest::Error>() {
            if matches!(inner.status().map(|s| s.as_u16()), Some(401 | 403)) {
                return StartError::Unauthorized(format!(
                    "{} answered HTTP {}",
                    spec.url,
                    inner.status().map(|s| s.as_u16()).unwrap_or_default()
                ));
            }
            return StartError::Failed(describe_reqwest(inner, spec));
        }
        source = e.source();
    }
    StartError::Failed(format!("MCP handshake failed: {error}"))
}

fn describe_reqwest(e: &reqwest::Error, spec: &HttpServer) -> String {
    if is_ca_used_as_end_entity(e) {
        return CaCertificateAsServer {
            url: spec.url.clone(),
        }
        .to_string();
    }
    // reqwest's own text names the URL but never a header value.
    if e.is_connect() && e.is_timeout() {
        format!(
            "cannot connect to {}: no answer within the connect timeout ({} ms)",
            spec.url, spec.connect_timeout_ms
        )
    } else if e.is_connect() {
        format!("cannot connect to {}: {}", spec.url, root_cause(e))
    } else if e.is_timeout() {
        format!("{} did not answer in time", spec.url)
    } else if let Some(status) = e.status() {
        format!("{} answered HTTP {status}", spec.url)
    } else {
        format!("HTTP error talking to {}: {}", spec.url, root_cause(e))
    }
}

fn root_cause(e: &(dyn std::error::Error + 'static)) -> String {
    let mut last = e;
    while let Some(next) = last.source() {
        last = next;
    }
    last.to_string()
}

/// The lab host's TLS certificate is a CA certificate (basicConstraints CA:TRUE), which
/// no TLS client accepts as a server's own: what OpenSSL 3's one-line self-signed
/// certificate (`openssl req -x509 … -subj /CN=lab`) is by default.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{url} presented a CA certificate (basicConstraints CA:TRUE) as its own server \
     certificate, which TLS clients refuse; give the lab host an end-entity certificate \
     naming it instead, e.g. `{}`, and trust that cert.pem (SSL_CERT_FILE)",
    END_ENTITY_CERTIFICATE_COMMAND
)]
pub(crate) struct CaCertificateAsServer {
    pub(crate) url: String,
}

/// A self-signed end-entity certificate for a lab host, verified to be accepted by
/// this client (docs/device-lab.md, "TLS"); `lab-host` and `192.0.2.10` stand for the
/// host's name and address in the `url`.
pub(crate) const END_ENTITY_CERTIFICATE_COMMAND: &str =
    "openssl req -x509 -newkey rsa:2048 -nodes \
     -keyout key.pem -out cert.pem -days 365 -subj /CN=lab-host \
     -addext \"basicConstraints=critical,CA:FALSE\" \
     -addext \"subjectAltName=DNS:lab-host,IP:192.0.2.10\"";

/// Whether rustls refused the server's certificate because it is a CA certificate.
/// The rustls error sits inside `io::Error`s (tokio-rustls, hyper), whose `source()`
/// skips the error they wrap, so an `io::Error` is followed into what it wraps.
fn is_ca_used_as_end_entity(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut next = Some(e);
    while let Some(e) = next {
        if let Some(rustls::Error::InvalidCertificate(rustls::CertificateError::Other(other))) =
            e.downcast_ref::<rustls::Error>()
        {
            if let Some(webpki::Error::CaUsedAsEndEntity) = other.0.downcast_ref::<webpki::Error>()
            {
                return true;
            }
        }
        next = match e.downcast_ref::<std::io::Error>() {
            Some(io) => io
                .get_ref()
                .map(|inner| inner as &(dyn std::error::Error + 'static)),
            None => e.source(),
        };
    }
    false
}
