//! The transport check: an MCP server reached over plain `http://` on a non-loopback
//! address sends every tool call and result (hierarchies, logs, masked screenshots) and
//! its `headers` (a bearer token) across the network unencrypted. A warning, not a
//! failure: the setup works, it is just readable on the network.

use std::net::IpAddr;

use super::check::{Check, CheckName, Finding};
use crate::config::{Config, ServerSpec};

const FIX: &str =
    "use https, or an SSH tunnel (ssh -L PORT:localhost:PORT HOST) and point the url at 127.0.0.1";

/// One warning per server whose url is plain HTTP to a non-loopback host.
pub(super) fn plain_http_checks(config: &Config) -> Vec<Check> {
    config
        .servers
        .iter()
        .filter_map(|(name, spec)| match spec {
            ServerSpec::Http(http) if is_plain_http_off_loopback(&http.url) => Some(
                Check::new(
                    CheckName::Http,
                    Finding::PlainHttp,
                    format!(
                        "{} is plain HTTP to a non-loopback address; tool calls and results \
                         cross the network unencrypted",
                        http.url
                    ),
                )
                .server(Some(name.clone()))
                .warn(FIX),
            ),
            _ => None,
        })
        .collect()
}

/// True for `http://` URLs whose host is not 127.0.0.0/8, ::1 or `localhost`. A host
/// that cannot be read is treated as remote: the warning errs on the side of caution.
fn is_plain_http_off_loopback(url: &str) -> bool {
    let Some(rest) = strip_prefix_ignore_case(url.trim(), "http://") else {
        return false;
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host_port = authority.rsplit('@').next().unwrap_or("");
    let host = match host_port.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => host_port.split(':').next().unwrap_or(""),
    };
    !is_loopback_host(host)
}

fn is_loopback_host(host: &str) -> bool {
    let host = host.trim_end_matches('.');
    if host.eq_ignore_ascii_case("localhost") {
        return true;
    }
    match host.parse::<IpAddr>() {
        Ok(IpAddr::V4(v4)) => v4.is_loopback(),
        Ok(IpAddr::V6(v6)) => {
            v6.is_loopback() || v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback())
        }
        Err(_) => false,
    }
}

fn strip_prefix_ignore_case<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &s[prefix.len()..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_and_https_are_quiet_everything_else_over_http_warns() {
        let quiet = [
            "http://127.0.0.1:8080/mcp",
            "http://127.10.0.3/mcp",
            "http://localhost:3000",
            "HTTP://LOCALHOST./mcp",
            "http://[::1]:8080/mcp",
            "http://[::ffff:127.0.0.1]:80/",
            "http://user:pw@127.0.0.1:9/x",
            "https://10.0.0.5:8443/mcp",
            "https://mcp.example.com/mcp",
        ];
        for url in quiet {
            assert!(!is_plain_http_off_loopback(url), "{url}");
        }
        let warn = [
            "http://10.0.0.5:8080/mcp",
            "http://192.168.1.20/mcp",
            "http://mcp.example.com/mcp",
            "http://[2001:db8::1]:8080/",
            "http://0.0.0.0:8080/",
            "http://localhost.evil.com/",
            "http://127.0.0.1@evil.com/",
            "http://localhost:80@10.0.0.1/",
            "http://",
        ];
        for url in warn {
            assert!(is_plain_http_off_loopback(url), "{url}");
        }
    }
}
