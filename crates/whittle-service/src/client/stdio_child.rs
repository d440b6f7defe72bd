//! A stdio server as an MCP transport: rmcp's line transport over the child's pipes,
//! with the child's output relayed through an `AnswerMeter` on its way. rmcp drops a
//! line over its limit with a log line only, so the call it answered would wait for its
//! timeout; the relay notes the answer's size for that call and follows the dropped
//! line with a short error answer to the same request, which ends the call at once.
//! (rmcp's own `TokioChildProcess` reads the pipe itself and offers no such hook.)
use std::io;
use std::process::Stdio;
use std::time::Duration;

use rmcp::model::{ErrorData, RequestId, ServerJsonRpcMessage};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::transport::Transport;
use rmcp::RoleClient;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt, DuplexStream};
use tokio::process::{Child, ChildStderr, ChildStdin};

use super::answer_meter::AnswerMeter;
use super::oversize::{OversizeLog, MESSAGE_LIMIT};

/// Longest a server gets to exit once its stdin is closed before it is killed (as
/// rmcp's own child transport waits).
const EXIT_GRACE: Duration = Duration::from_secs(3);
/// The relay's read size and the in-process pipe's buffer.
const RELAY_BYTES: usize = 64 * 1024;

pub(crate) struct StdioChild {
    child: Child,
    transport: AsyncRwTransport<RoleClient, DuplexStream, ChildStdin>,
}

impl StdioChild {
    /// Runs `cmd` with its stdin, stdout and stderr piped; returns the transport and the
    /// stderr to drain. Oversized answers are noted in `oversize`.
    pub(crate) fn spawn(
        mut cmd: tokio::process::Command,
        oversize: OversizeLog,
    ) -> io::Result<(StdioChild, Option<ChildStderr>)> {
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn()?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(io::Error::other(
                "the server's stdin or stdout is not a pipe",
            ));
        };
        let stderr = child.stderr.take();
        let (read_end, write_end) = tokio::io::duplex(RELAY_BYTES);
        tokio::spawn(relay(stdout, write_end, oversize));
        let transport =
            AsyncRwTransport::new_client(read_end, stdin).with_max_line_length(MESSAGE_LIMIT);
        Ok((StdioChild { child, transport }, stderr))
    }

    pub(crate) fn id(&self) -> Option<u32> {
        self.child.id()
    }
}

/// Copies the server's output to the transport line by line as it comes, measuring
/// each line; ends (closing the transport's input) when the server's output does.
async fn relay(mut from: impl AsyncRead + Unpin, mut to: DuplexStream, oversize: OversizeLog) {
    let mut meter = AnswerMeter::new(MESSAGE_LIMIT);
    let mut chunk = vec![0u8; RELAY_BYTES];
    loop {
        let n = match from.read(&mut chunk).await {
            Ok(0) => return,
            Ok(n) => n,
            Err(e) => {
                tracing::debug!(error = %e, "reading the server's output failed");
                return;
            }
        };
        let mut rest = &chunk[..n];
        while !rest.is_empty() {
            let (took, oversized) = meter.feed(rest);
            if to.write_all(&rest[..took]).await.is_err() {
                return;
            }
            rest = &rest[took..];
            let Some(line) = oversized else { continue };
            let Some(id) = line.answers else {
                tracing::warn!(
                    bytes = line.bytes,
                    "the server sent a message over the size limit that answers no request of ours; dropped"
                );
                continue;
            };
            oversize.note(id.clone(), line.bytes);
            if to.write_all(&stand_in(id)).await.is_err() {
                return;
            }
        }
    }
}

/// The error answer that ends the call whose real answer was dropped; the call reads
/// the reason from its `OversizeLog`, not from this text.
fn stand_in(id: RequestId) -> Vec<u8> {
    let message = ServerJsonRpcMessage::error(
        ErrorData::internal_error("the answer was over the message size limit", None),
        Some(id),
    );
    let mut line = serde_json::to_vec(&message).unwrap_or_default();
    line.push(b'\n');
    line
}

impl Transport<RoleClient> for StdioChild {
    type Error = io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl std::future::Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.transport.send(item)
    }

    fn receive(
        &mut self,
    ) -> impl std::future::Future<Output = Option<RxJsonRpcMessage<RoleClient>>> + Send {
        self.transport.receive()
    }

    /// Closes the server's stdin (its signal to exit), then kills it if it lingers.
    async fn close(&mut self) -> Result<(), Self::Error> {
        self.transport.close().await?;
        if tokio::time::timeout(EXIT_GRACE, self.child.wait())
            .await
            .is_err()
        {
            self.child.kill().await?;
        }
        Ok(())
    }
}
