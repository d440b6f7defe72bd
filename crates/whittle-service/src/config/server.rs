use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::Secret;

/// How to reach one MCP server: a stdio command, or a streamable HTTP URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerSpec {
    Stdio {
        /// Absolute when the file's value contained a '/'; otherwise a bare program name.
        command: String,
        args: Vec<String>,
        env: BTreeMap<String, String>,
    },
    Http(HttpServer),
}

impl ServerSpec {
    /// Whether this is Whittle's own simulator over stdio (`whittle-servers sim`), whose
    /// devices live inside its process: no other process can drive them.
    pub fn is_bundled_simulator(&self) -> bool {
        match self {
            ServerSpec::Stdio { command, args, .. } => {
                Path::new(command)
                    .file_stem()
                    .is_some_and(|s| s == BUNDLED_SERVERS)
                    && args.first().is_some_and(|a| a == "sim")
            }
            ServerSpec::Http(_) => false,
        }
    }
}

/// Connect timeout of a `url` server when the file does not set `connect_timeout_ms`.
pub const DEFAULT_CONNECT_TIMEOUT_MS: u32 = 10_000;

/// A streamable HTTP server (`{"url", "headers"?, "connect_timeout_ms"?, "keep_alive"?}`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpServer {
    pub url: String,
    /// Sent with every request, `${VAR}` already expanded: values are secrets.
    pub headers: Vec<(String, Secret)>,
    /// Longest a TCP (and TLS) connection may take to open; calls keep `call_timeout_ms`.
    pub connect_timeout_ms: u32,
    /// Whether calls reuse a kept-alive connection (`true`) or open one each (`false`).
    /// `None`, the default, decides from the server's initialize answer: kept alive for
    /// a Whittle lab host, one per call for any other server, since some (uvicorn-based
    /// ones, the Python SDK's among them) write an answer in several pieces with Nagle's
    /// algorithm on and a kept-alive connection then waits for the client's delayed ACK,
    /// 40 ms, on every call (docs/performance.md, "A foreign server").
    pub keep_alive: Option<bool>,
}

impl HttpServer {
    /// No headers, the default connect timeout, connections chosen automatically.
    pub fn new(url: impl Into<String>) -> HttpServer {
        HttpServer {
            url: url.into(),
            headers: Vec::new(),
            connect_timeout_ms: DEFAULT_CONNECT_TIMEOUT_MS,
            keep_alive: None,
        }
    }
}

/// The bare command name of the servers Whittle ships.
pub const BUNDLED_SERVERS: &str = "whittle-servers";

/// Finds the bundled servers binary next to the running executable (its folder, then
/// the parent, which is where cargo puts binaries relative to `target/debug/deps` test
/// executables), so the default config works without installing anything. `None`
/// means "search PATH".
pub fn resolve_bundled_command() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let dir = exe.parent()?;
    let name = format!("{BUNDLED_SERVERS}{}", std::env::consts::EXE_SUFFIX);
    let found = [Some(dir), dir.parent()]
        .into_iter()
        .flatten()
        .map(|d| d.join(&name))
        .find(|candidate| candidate.is_file());
    found
}

/// The program to spawn for a stdio server's `command`.
pub(crate) fn program_for(command: &str) -> PathBuf {
    if command == BUNDLED_SERVERS {
        if let Some(found) = resolve_bundled_command() {
            return found;
        }
    }
    PathBuf::from(command)
}

/// A command containing a '/' is a path and is resolved against the config's folder;
/// a bare name is looked up at spawn time.
pub(crate) fn resolve_command(command: &str, base: &Path) -> String {
    if command.contains('/') && !Path::new(command).is_absolute() {
        base.join(command).to_string_lossy().into_owned()
    } else {
        command.to_string()
    }
}
