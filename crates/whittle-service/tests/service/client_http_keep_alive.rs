//! A Whittle lab host keeps its connections when `keep_alive` is unset (its answers come
//! in one piece, and over a WAN a connection per call would double the latency), and
//! `keep_alive: false` still opens one per call. Counted where it happens: a TCP relay
//! between the hub and the host counts the connections the hub opened and keeps what
//! the hub sent. Its calls take the direct transport (`client/direct_http.rs`): no
//! event stream (GET) beside them, and the session ended (DELETE) at shutdown.

use crate::client_http::{url_server, Host};
use crate::client_support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use client_support::{servers_bin, setup};
use std::sync::Mutex;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use whittle_service::client::Hub;

/// Tool calls made after the handshake.
const CALLS: usize = 20;

/// What the relay saw: connections opened, and every byte the hub sent.
#[derive(Default)]
struct Seen {
    opened: AtomicUsize,
    sent: Mutex<Vec<u8>>,
}

impl Seen {
    /// HTTP requests the hub sent with this method: request lines, which a JSON body
    /// cannot hold (it escapes its line breaks).
    fn requests(&self, method: &str) -> usize {
        let sent = String::from_utf8_lossy(&self.sent.lock().unwrap()).into_owned();
        sent.matches(&format!("{method} /mcp HTTP/1.1\r\n")).count()
    }
}

/// Relays every connection to `upstream` (host:port), counting them and keeping what
/// the hub sends.
async fn counting_relay(upstream: String) -> (String, Arc<Seen>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let seen = Arc::new(Seen::default());
    let seen_here = seen.clone();
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            seen_here.opened.fetch_add(1, Ordering::SeqCst);
            let upstream = upstream.clone();
            let seen = seen_here.clone();
            tokio::spawn(async move {
                let Ok(server) = TcpStream::connect(&upstream).await else {
                    return;
                };
                let _ = client.set_nodelay(true);
                let _ = server.set_nodelay(true);
                let (mut from_hub, mut to_hub) = client.into_split();
                let (mut from_host, mut to_host) = server.into_split();
                let up = async move {
                    let mut buf = vec![0; 16 * 1024];
                    while let Ok(n @ 1..) = from_hub.read(&mut buf).await {
                        seen.sent.lock().unwrap().extend_from_slice(&buf[..n]);
                        if to_host.write_all(&buf[..n]).await.is_err() {
                            break;
                        }
                    }
                    let _ = to_host.shutdown().await;
                };
                let down = tokio::io::copy(&mut from_host, &mut to_hub);
                let _ = tokio::join!(up, down);
            });
        }
    });
    (addr.to_string(), seen)
}

#[tokio::test]
async fn a_whittle_lab_host_keeps_its_connections_unless_the_config_says_not() {
    let Some(bin) = servers_bin() else { return };
    let probe = setup(&bin, &[], 5000, |_| {});
    for setting in [None, Some(false)] {
        let host = Host::start(&bin, probe.dir.path(), &[]);
        // http://127.0.0.1:PORT/mcp → 127.0.0.1:PORT
        let upstream = host.1["http://".len()..].split('/').next().unwrap();
        let (relay, seen) = counting_relay(upstream.to_string()).await;
        let s = setup(&bin, &[], 5000, |cfg| {
            let mut server = url_server(&format!("http://{relay}/mcp"));
            if let Some(keep_alive) = setting {
                server["keep_alive"] = keep_alive.into();
            }
            cfg["mcpServers"]["sim"] = server;
        });
        let hub = Hub::connect(&s.config).await.unwrap();
        let before = seen.opened.load(Ordering::SeqCst);
        for _ in 0..CALLS {
            hub.log().list_captures().await.unwrap();
        }
        let during = seen.opened.load(Ordering::SeqCst) - before;
        hub.shutdown().await;
        match setting {
            // One connection carries the whole session, the handshake included.
            None => assert_eq!(
                (before, during),
                (1, 0),
                "unset: a lab host keeps its connection, {during} more opened for {CALLS} calls"
            ),
            Some(_) => assert!(
                during >= CALLS,
                "keep_alive false: one per call, {during} opened for {CALLS} calls"
            ),
        }
        // Initialize, initialized, tools/list, the calls; nothing waits on a GET stream;
        // the session is ended on the host, not left to its idle timeout.
        assert_eq!(seen.requests("POST"), 3 + CALLS, "{setting:?}");
        assert_eq!(seen.requests("GET"), 0, "{setting:?}");
        assert_eq!(seen.requests("DELETE"), 1, "{setting:?}");
    }
}
