//! `--listen HOST:PORT`: which addresses count as this machine only.
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};

use super::ListenError;

/// Resolves `HOST:PORT` (an IP, `[v6]`, or a name such as `localhost`) to the socket
/// addresses it names; all of them are checked, so a name cannot hide a public address.
pub fn resolve(listen: &str) -> Result<Vec<SocketAddr>, ListenError> {
    let bad = |reason: String| ListenError::Address {
        listen: listen.to_string(),
        reason,
    };
    let addrs: Vec<SocketAddr> = listen
        .to_socket_addrs()
        .map_err(|e| bad(format!("{e} (expected HOST:PORT, e.g. 127.0.0.1:8931)")))?
        .collect();
    if addrs.is_empty() {
        return Err(bad("the host resolves to no address".into()));
    }
    Ok(addrs)
}

/// True when every address is loopback (127.0.0.0/8, ::1, or v4-mapped loopback):
/// nothing else on the network can connect. `0.0.0.0` and `::` listen everywhere.
pub fn all_loopback(addrs: &[SocketAddr]) -> bool {
    addrs.iter().all(|a| match a.ip() {
        IpAddr::V4(v4) => v4.is_loopback(),
        IpAddr::V6(v6) => {
            v6.is_loopback() || v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_is_this_machine_only() {
        for ok in ["127.0.0.1:0", "[::1]:8931", "localhost:0", "127.3.4.5:9"] {
            assert!(all_loopback(&resolve(ok).unwrap()), "{ok}");
        }
        for open in ["0.0.0.0:8931", "[::]:0", "192.168.1.20:0", "10.0.0.1:1"] {
            assert!(!all_loopback(&resolve(open).unwrap()), "{open}");
        }
    }

    #[test]
    fn a_malformed_address_names_itself() {
        for bad in ["8931", "127.0.0.1", "127.0.0.1:x", ":80"] {
            let e = resolve(bad).unwrap_err().to_string();
            assert!(e.contains(bad), "{e}");
        }
    }
}
