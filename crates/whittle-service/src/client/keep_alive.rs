//! Whether a `url` server's calls share kept-alive connections or open one each, when
//! the config leaves `keep_alive` unset, and whether they go by the direct transport
//! (`direct_http.rs`): decided from the name the server announces in its MCP
//! initialize answer (`serverInfo.name`).
//!
//! Why it matters: a server that writes an answer in several pieces with Nagle's
//! algorithm on (uvicorn, so the official Python SDK's) makes every answer on a
//! kept-alive connection wait for the client's delayed ACK, 40 ms a call; a connection
//! per call costs tenths of a millisecond on the same machine (docs/performance.md, "A
//! foreign server"). Whittle's own `--listen` host answers in one piece, and over a WAN
//! a new connection per call would double its latency, so it keeps its connections.
//! Only Whittle's own servers are known to answer in one piece: every other server gets
//! a connection per call, which is never slow by more than a connect.

/// The names `whittle-servers … --listen` announces (`serverInfo.name`): the device
/// servers' `DeviceBackend::SERVER_NAME`s and the report/analyzer server's
/// `tool_handler` name. Exact names, not a prefix: servers written for Whittle by
/// others are often called `whittle-…` too (the Python peer is `whittle-python-peer`).
const LAB_HOST_NAMES: [&str; 3] = ["whittle-sim", "whittle-adb", "whittle-report-analyzer"];

/// What a `url` server's calls do with their connection, and why (for the log).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ConnectionChoice {
    pub(crate) keep_alive: bool,
    /// A Whittle lab host, whose calls take the direct transport; any other server's
    /// take rmcp's full client.
    pub(crate) direct: bool,
    pub(crate) why: &'static str,
}

/// The choice for a server whose config says `setting` and whose initialize answer
/// named it `announced` (`None`: no `serverInfo`).
pub(crate) fn choose(setting: Option<bool>, announced: Option<&str>) -> ConnectionChoice {
    let direct = announced.is_some_and(|name| LAB_HOST_NAMES.contains(&name));
    match setting {
        Some(keep_alive) => ConnectionChoice {
            keep_alive,
            direct,
            why: "set by keep_alive in the config",
        },
        None if direct => ConnectionChoice {
            keep_alive: true,
            direct,
            why: "a Whittle lab host, which answers in one piece",
        },
        None => ConnectionChoice {
            keep_alive: false,
            direct,
            why: "not a Whittle lab host: its answers may wait 40 ms on a kept-alive \
                  connection (delayed ACK)",
        },
    }
}

/// The connection setting the handshake is made with (by the direct transport): kept
/// alive unless the config says not, so a Whittle lab host (the case that crosses a
/// WAN) never pays a second handshake; a foreign server pays one, once, to move to
/// rmcp's full client and, unless the config says otherwise, a connection per call.
pub(crate) fn for_handshake(setting: Option<bool>) -> bool {
    setting.unwrap_or(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whittle_lab_hosts_keep_their_connections_when_the_config_does_not_say() {
        for name in LAB_HOST_NAMES {
            assert!(choose(None, Some(name)).keep_alive, "{name}");
            assert!(choose(None, Some(name)).direct, "{name}");
            assert!(choose(Some(false), Some(name)).direct, "{name}");
        }
        assert!(for_handshake(None));
    }

    #[test]
    fn any_other_server_gets_a_connection_per_call_when_the_config_does_not_say() {
        for announced in [
            Some("whittle-python-peer"),
            Some("mobile-mcp"),
            Some("whittle"),
            Some("WHITTLE-SIM"),
            Some(""),
            None,
        ] {
            assert!(!choose(None, announced).keep_alive, "{announced:?}");
            assert!(!choose(Some(true), announced).direct, "{announced:?}");
        }
    }

    #[test]
    fn the_config_overrides_the_choice_both_ways() {
        assert!(!choose(Some(false), Some("whittle-sim")).keep_alive);
        assert!(choose(Some(true), Some("whittle-python-peer")).keep_alive);
        assert!(choose(Some(true), None).keep_alive);
        assert!(!for_handshake(Some(false)));
    }
}
