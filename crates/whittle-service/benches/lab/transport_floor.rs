//! The transports' own floor, without MCP: one HTTP/1.1 request on a kept-alive loopback
//! connection (reqwest, as under rmcp's client, against a minimal server that echoes the
//! body) and one line through a pipe to a child process and back (`cat`, as a stdio
//! server's pipes). Whatever a tool call over HTTP costs beyond a stdio one, above the
//! difference of these two, is the MCP stacks' own (client worker, sessions, SSE).

use std::process::Stdio;
use std::time::Instant;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};

use crate::support::{median, ms, BenchResult};

/// A `tools/call` request's size.
const BODY: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_captures","arguments":{}}}"#;

/// Median milliseconds per round trip: (HTTP, pipe).
pub async fn transport_floor(reps: usize) -> BenchResult<(f64, f64)> {
    Ok((http(reps).await?, pipe(reps).await?))
}

async fn http(reps: usize) -> BenchResult<f64> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}/mcp", listener.local_addr()?);
    let server = tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            tokio::spawn(echo(socket));
        }
    });
    // The ring provider, as the Hub installs it; already installed is fine.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::builder().tcp_nodelay(true).build()?;
    let mut times = Vec::with_capacity(reps);
    // The first requests open the connection and warm it; they are not counted.
    for at in 0..reps + 20 {
        let started = Instant::now();
        client.post(&url).body(BODY).send().await?.bytes().await?;
        if at >= 20 {
            times.push(ms(started.elapsed()));
        }
    }
    server.abort();
    Ok(median(times))
}

/// Answers each request on one kept-alive connection with its own body.
async fn echo(socket: TcpStream) -> std::io::Result<()> {
    socket.set_nodelay(true)?;
    let mut reader = BufReader::new(socket);
    let mut line = String::new();
    loop {
        let mut length = 0usize;
        loop {
            line.clear();
            if reader.read_line(&mut line).await? == 0 {
                return Ok(());
            }
            if line == "\r\n" {
                break;
            }
            if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                length = value.trim().parse().unwrap_or(0);
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).await?;
        let head = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {length}\r\n\r\n"
        );
        reader
            .get_mut()
            .write_all(&[head.as_bytes(), &body].concat())
            .await?;
    }
}

async fn pipe(reps: usize) -> BenchResult<f64> {
    let mut child = tokio::process::Command::new("cat")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()?;
    let (Some(mut to), Some(from)) = (child.stdin.take(), child.stdout.take()) else {
        return Err("cat has no pipes".into());
    };
    let mut from = BufReader::new(from);
    let request = format!("{BODY}\n");
    let mut line = String::new();
    let mut times = Vec::with_capacity(reps);
    for at in 0..reps + 20 {
        let started = Instant::now();
        to.write_all(request.as_bytes()).await?;
        line.clear();
        from.read_line(&mut line).await?;
        if at >= 20 {
            times.push(ms(started.elapsed()));
        }
    }
    Ok(median(times))
}
