//! Starting one configured server and learning its tools.
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use rmcp::transport::TokioChildProcess;
use rmcp::ServiceExt;
use tokio::io::{AsyncBufReadExt, AsyncReadExt};

use super::connection::Connection;
use super::error::StartError;
use crate::config::{program_for, HttpServer, ServerSpec};

/// Starts `spec`, performs the MCP handshake and lists its tools, all within `timeout`.
pub(crate) async fn start_server(
    name: &str,
    spec: &ServerSpec,
    base_dir: &Path,
    timeout: Duration,
) -> Result<Connection, StartError> {
    match spec {
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
            let (transport, stderr) = TokioChildProcess::builder(cmd)
                .stderr(Stdio::piped())
                .spawn()
                .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
            let pid = transport.id();
            if let Some(stderr) = stderr {
                tokio::spawn(drain_stderr(name.to_string(), stderr));
            }
            handshake(name, transport, pid, timeout)
                .await
                .map_err(|e| StartError::Failed(e.to_string()))
        }
        ServerSpec::Http(spec) => start_http(name, spec, timeout).await,
    }
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
    tracing::info!(server = name, tools = tools.len(), "MCP server ready");
    Ok(Connection {
        server: name.to_string(),
        service,
        tools: tools.into_iter().map(|t| t.name.into_owned()).collect(),
        pid,
    })
}

/// A `url` server: the handshake and tools/list share `timeout` (the per-call timeout),
/// the TCP/TLS connect its own `connect_timeout_ms`.
async fn start_http(
    name: &str,
    spec: &HttpServer,
    timeout: Duration,
) -> Result<Connection, StartError> {
    let transport = super::http::transport(spec)?;
    handshake(name, transport, None, timeout)
        .await
        .map_err(|e| match e {
            HandshakeError::Text(t) => StartError::Failed(t),
            HandshakeError::Init(e) => super::http::explain(&e, spec),
        })
}

/// A stderr line longer than this is logged in pieces (a server that never writes a line
/// break cannot make Whittle buffer without bound).
const MAX_STDERR_LINE: u64 = 8 * 1024;

/// Server stderr is diagnostics, kept at debug level so it never floods a run. It is read
/// as bytes to the end: a line that is not UTF-8 is logged lossily, never a reason to stop
/// reading — closing the pipe would kill the server on its next write (SIGPIPE).
async fn drain_stderr<R: tokio::io::AsyncRead + Unpin>(server: String, stderr: R) {
    let mut reader = tokio::io::BufReader::new(stderr);
    let mut line = Vec::new();
    loop {
        line.clear();
        match (&mut reader)
            .take(MAX_STDERR_LINE)
            .read_until(b'\n', &mut line)
            .await
        {
            Ok(0) => break,
            Ok(_) => {
                let text = String::from_utf8_lossy(&line);
                tracing::debug!(server = %server, "{}", text.trim_end());
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => {
                tracing::debug!(server = %server, error = %e, "server stderr unreadable");
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A server that writes one line that is not UTF-8 to stderr keeps running: its next
    /// write still finds the pipe open.
    #[tokio::test]
    async fn a_line_that_is_not_utf8_does_not_close_the_pipe() {
        let mut child = tokio::process::Command::new("sh")
            .args([
                "-c",
                "printf 'bad \\377\\376 bytes\\n' >&2; sleep 0.3; printf 'still here\\n' >&2; exit 7",
            ])
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = child.stderr.take().unwrap();
        let drain = tokio::spawn(drain_stderr("test".into(), stderr));
        let status = child.wait().await.unwrap();
        // Killed by SIGPIPE, the shell would have no exit code.
        assert_eq!(status.code(), Some(7), "{status:?}");
        drain.await.unwrap();
    }
}
