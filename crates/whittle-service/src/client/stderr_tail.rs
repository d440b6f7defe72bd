//! A stdio server's stderr: untrusted bytes, read to the end for as long as the server
//! lives (closing the pipe would kill it on its next write, by SIGPIPE), never trusted to
//! be UTF-8 or to end its lines. Each line is logged at debug level and the last few are
//! kept, bounded per line and in total, so a server that dies during its handshake can be
//! told with what it last said.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};

/// Bytes of one line kept; the rest of a longer line is read and discarded.
pub(crate) const MAX_LINE_BYTES: usize = 4 * 1024;
/// Lines kept (the newest).
pub(crate) const MAX_KEPT_LINES: usize = 32;

/// The last lines a server wrote to stderr (lossy UTF-8, each cut to
/// [`MAX_LINE_BYTES`], at most [`MAX_KEPT_LINES`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct StderrTail {
    lines: Arc<Mutex<VecDeque<String>>>,
}

impl StderrTail {
    /// The kept lines, oldest first.
    pub(crate) fn lines(&self) -> Vec<String> {
        self.lines
            .lock()
            .map(|l| l.iter().cloned().collect())
            .unwrap_or_default()
    }

    fn push(&self, line: String) {
        if let Ok(mut lines) = self.lines.lock() {
            if lines.len() == MAX_KEPT_LINES {
                lines.pop_front();
            }
            lines.push_back(line);
        }
    }
}

/// Reads `stderr` to its end (the server's exit), one line at a time, into `tail`.
pub(crate) async fn drain_stderr<R: AsyncRead + Unpin>(
    server: String,
    stderr: R,
    tail: StderrTail,
) {
    let mut reader = BufReader::new(stderr);
    let mut line = Vec::with_capacity(256);
    let mut cut = 0usize;
    loop {
        let (used, ended) = match reader.fill_buf().await {
            Ok([]) => break,
            Ok(chunk) => {
                let (part, ended) = match chunk.iter().position(|&b| b == b'\n') {
                    Some(at) => (&chunk[..at], at + 1),
                    None => (chunk, 0),
                };
                let room = MAX_LINE_BYTES.saturating_sub(line.len());
                let keep = part.len().min(room);
                line.extend_from_slice(&part[..keep]);
                cut += part.len() - keep;
                if ended > 0 {
                    (ended, true)
                } else {
                    (chunk.len(), false)
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                tracing::debug!(server = %server, error = %e, "server stderr unreadable");
                break;
            }
        };
        reader.consume(used);
        if ended {
            emit(&server, &tail, &line, cut);
            line.clear();
            cut = 0;
        }
    }
    if !line.is_empty() || cut > 0 {
        emit(&server, &tail, &line, cut);
    }
}

fn emit(server: &str, tail: &StderrTail, line: &[u8], cut: usize) {
    let mut text = String::from_utf8_lossy(line).trim_end().to_owned();
    if cut > 0 {
        text.push_str(&format!(" … ({cut} more bytes not kept)"));
    }
    tracing::debug!(server = %server, "{text}");
    tail.push(text);
}

#[cfg(test)]
mod tests {
    use std::process::Stdio;

    use super::*;

    fn drain_of(
        script: &str,
    ) -> (
        tokio::process::Child,
        tokio::task::JoinHandle<()>,
        StderrTail,
    ) {
        let mut child = tokio::process::Command::new("sh")
            .args(["-c", script])
            .stderr(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let tail = StderrTail::default();
        let stderr = child.stderr.take().unwrap();
        let drain = tokio::spawn(drain_stderr("test".into(), stderr, tail.clone()));
        (child, drain, tail)
    }

    /// A server that writes one line that is not UTF-8 to stderr keeps running: its next
    /// write still finds the pipe open.
    #[tokio::test]
    async fn a_line_that_is_not_utf8_does_not_close_the_pipe() {
        let (mut child, drain, tail) = drain_of(
            "printf 'bad \\377\\376 bytes\\n' >&2; sleep 0.3; printf 'still here\\n' >&2; exit 7",
        );
        let status = child.wait().await.unwrap();
        // Killed by SIGPIPE, the shell would have no exit code.
        assert_eq!(status.code(), Some(7), "{status:?}");
        drain.await.unwrap();
        assert_eq!(tail.lines(), ["bad \u{fffd}\u{fffd} bytes", "still here"]);
    }

    /// 1 MiB without a line break, then bytes that are not UTF-8: all of it is read (the
    /// server goes on writing and exits by itself), only 4 KiB of the line is kept.
    #[tokio::test]
    async fn a_megabyte_line_and_bad_bytes_are_read_through_and_kept_bounded() {
        let (mut child, drain, tail) = drain_of(
            "head -c 1048576 /dev/zero | tr '\\0' x >&2; printf '\\377\\n' >&2; \
             printf 'after\\n' >&2; echo alive; exit 3",
        );
        let status = child.wait().await.unwrap();
        assert_eq!(status.code(), Some(3), "{status:?}");
        drain.await.unwrap();
        let lines = tail.lines();
        assert_eq!(
            lines.len(),
            2,
            "{:?}",
            lines.iter().map(String::len).collect::<Vec<_>>()
        );
        let kept = "x".repeat(MAX_LINE_BYTES);
        assert_eq!(
            lines[0],
            format!(
                "{kept} … ({} more bytes not kept)",
                1_048_576 + 1 - MAX_LINE_BYTES
            )
        );
        assert_eq!(lines[1], "after");
    }

    /// Only the newest lines are kept, and a last line without a break is one of them.
    #[tokio::test]
    async fn only_the_last_lines_are_kept() {
        let (mut child, drain, tail) = drain_of(
            "i=0; while [ $i -lt 100 ]; do echo line $i >&2; i=$((i+1)); done; printf end >&2",
        );
        child.wait().await.unwrap();
        drain.await.unwrap();
        let lines = tail.lines();
        assert_eq!(lines.len(), MAX_KEPT_LINES);
        assert_eq!(lines.last().unwrap(), "end");
        assert_eq!(lines[0], format!("line {}", 100 - MAX_KEPT_LINES + 1));
    }
}
