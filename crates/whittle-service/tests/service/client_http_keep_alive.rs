//! A Whittle lab host keeps its connections when `keep_alive` is unset (its answers come
//! in one piece, and over a WAN a connection per call would double the latency), and
//! `keep_alive: false` still opens one per call. Counted where it happens: a TCP relay
//! between the hub and the host counts the connections the hub opened.

use crate::client_http::{url_server, Host};
use crate::client_support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use client_support::{servers_bin, setup};
use tokio::net::{TcpListener, TcpStream};
use whittle_service::client::Hub;

/// Tool calls made after the handshake.
const CALLS: usize = 20;

/// Relays every connection to `upstream` (host:port) and counts them.
async fn counting_relay(upstream: String) -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let opened = Arc::new(AtomicUsize::new(0));
    let count = opened.clone();
    tokio::spawn(async move {
        while let Ok((mut client, _)) = listener.accept().await {
            count.fetch_add(1, Ordering::SeqCst);
            let upstream = upstream.clone();
            tokio::spawn(async move {
                let Ok(mut server) = TcpStream::connect(&upstream).await else {
                    return;
                };
                let _ = client.set_nodelay(true);
                let _ = server.set_nodelay(true);
                let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
            });
        }
    });
    (addr.to_string(), opened)
}

#[tokio::test]
async fn a_whittle_lab_host_keeps_its_connections_unless_the_config_says_not() {
    let Some(bin) = servers_bin() else { return };
    let probe = setup(&bin, &[], 5000, |_| {});
    for setting in [None, Some(false)] {
        let host = Host::start(&bin, probe.dir.path(), &[]);
        // http://127.0.0.1:PORT/mcp → 127.0.0.1:PORT
        let upstream = host.1["http://".len()..].split('/').next().unwrap();
        let (relay, opened) = counting_relay(upstream.to_string()).await;
        let s = setup(&bin, &[], 5000, |cfg| {
            let mut server = url_server(&format!("http://{relay}/mcp"));
            if let Some(keep_alive) = setting {
                server["keep_alive"] = keep_alive.into();
            }
            cfg["mcpServers"]["sim"] = server;
        });
        let hub = Hub::connect(&s.config).await.unwrap();
        let before = opened.load(Ordering::SeqCst);
        for _ in 0..CALLS {
            hub.log().list_captures().await.unwrap();
        }
        let during = opened.load(Ordering::SeqCst) - before;
        hub.shutdown().await;
        match setting {
            // A few at most, however many calls: rmcp's client may still be opening the
            // connection its event stream (GET) holds when the handshake returns.
            None => assert!(
                during <= 3,
                "unset: a lab host keeps its connections, {during} opened for {CALLS} calls"
            ),
            Some(_) => assert!(
                during >= CALLS,
                "keep_alive false: one per call, {during} opened for {CALLS} calls"
            ),
        }
    }
}
