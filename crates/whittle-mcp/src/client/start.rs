//! Starting one configured server and learning its tools.
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use rmcp::transport::TokioChildProcess;
use rmcp::ServiceExt;
use tokio::io::AsyncBufReadExt;

use super::connection::Connection;
use crate::config::{program_for, ServerSpec};

/// Starts `spec`, performs the MCP handshake and lists its tools, all within `timeout`.
/// The error is a sentence for a tester.
pub(crate) async fn start_server(
    name: &str,
    spec: &ServerSpec,
    base_dir: &Path,
    timeout: Duration,
) -> Result<Connection, String> {
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
            handshake(name, transport, pid, timeout).await
        }
        ServerSpec::Http { url } => start_http(name, url, timeout).await,
    }
}

async fn handshake<T, E, A>(
    name: &str,
    transport: T,
    pid: Option<u32>,
    timeout: Duration,
) -> Result<Connection, String>
where
    T: rmcp::transport::IntoTransport<rmcp::RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    let secs = timeout.as_secs_f32();
    let service = tokio::time::timeout(timeout, ().serve(transport))
        .await
        .map_err(|_| format!("no MCP handshake within {secs} s"))?
        .map_err(|e| format!("MCP handshake failed: {e}"))?;
    let tools = tokio::time::timeout(timeout, service.list_all_tools())
        .await
        .map_err(|_| format!("tools/list did not answer within {secs} s"))?
        .map_err(|e| format!("tools/list failed: {e}"))?;
    tracing::info!(server = name, tools = tools.len(), "MCP server ready");
    Ok(Connection {
        server: name.to_string(),
        service,
        tools: tools.into_iter().map(|t| t.name.into_owned()).collect(),
        pid,
    })
}

#[cfg(feature = "http")]
async fn start_http(name: &str, url: &str, timeout: Duration) -> Result<Connection, String> {
    let transport = rmcp::transport::StreamableHttpClientTransport::from_uri(url.to_string());
    handshake(name, transport, None, timeout).await
}

#[cfg(not(feature = "http"))]
async fn start_http(_name: &str, url: &str, _timeout: Duration) -> Result<Connection, String> {
    Err(format!(
        "{url}: streamable HTTP servers need Whittle built with the `http` feature; use a stdio command"
    ))
}

/// Server stderr is diagnostics, kept at debug level so it never floods a run.
async fn drain_stderr(server: String, stderr: tokio::process::ChildStderr) {
    let mut lines = tokio::io::BufReader::new(stderr).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        tracing::debug!(server = %server, "{line}");
    }
}
