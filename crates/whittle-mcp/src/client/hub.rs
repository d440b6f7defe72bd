use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use rmcp::model::CallToolResult;
use serde::de::DeserializeOwned;
use serde::Serialize;
use whittle_core::contract::Role;

use super::connection::Connection;
use super::decode::{decode, tool_error, Decoded};
use super::start::start_server;
use super::tolerance::DecodeWarnings;
use super::{
    Analyzer, DecodeWarning, HubError, Log, McpError, McpErrorKind, Mobile, Report, RoleProblem,
    RoleProblemKind, Ui,
};
use crate::config::Config;

/// Longest a server gets to exit after its stdin closes before it is killed.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// One running connection per configured server that some role uses.
pub struct Hub {
    connections: BTreeMap<String, Connection>,
    roles: BTreeMap<Role, String>,
    call_timeout: Duration,
    /// What answers needed tolerated, one warning per (server, tool).
    decode_warnings: DecodeWarnings,
}

/// What `connect_roles` found: the servers that started, and every role problem.
pub(crate) struct Connected {
    pub(crate) connections: BTreeMap<String, Connection>,
    pub(crate) problems: Vec<RoleProblem>,
}

/// Starts every server some role names (each once, however many roles share it),
/// then checks each role's required tools. Never fails early: collects all problems.
pub(crate) async fn connect_roles(config: &Config) -> Connected {
    let timeout = Duration::from_millis(u64::from(config.call_timeout_ms));
    let mut problems = Vec::new();
    let mut wanted = BTreeSet::new();
    for role in Role::ALL {
        match config.roles.get(&role) {
            None => problems.push(RoleProblem {
                role,
                server: None,
                kind: RoleProblemKind::Unassigned,
            }),
            Some(name) if !config.servers.contains_key(name) => problems.push(RoleProblem {
                role,
                server: Some(name.clone()),
                kind: RoleProblemKind::UnknownServer,
            }),
            Some(name) => {
                wanted.insert(name.clone());
            }
        }
    }

    let base = config.base_dir();
    let mut connections = BTreeMap::new();
    let mut failures = BTreeMap::new();
    for name in wanted {
        let Some(spec) = config.servers.get(&name) else {
            continue;
        };
        match start_server(&name, spec, &base, timeout).await {
            Ok(conn) => {
                connections.insert(name, conn);
            }
            Err(message) => {
                tracing::warn!(server = %name, "MCP server failed to start: {message}");
                failures.insert(name, message);
            }
        }
    }

    for role in Role::ALL {
        let Some(name) = config.roles.get(&role) else {
            continue;
        };
        let server = Some(name.clone());
        if let Some(message) = failures.get(name) {
            problems.push(RoleProblem {
                role,
                server,
                kind: RoleProblemKind::StartFailed(message.clone()),
            });
        } else if let Some(conn) = connections.get(name) {
            let missing: Vec<String> = role
                .required_tools()
                .iter()
                .filter(|t| !conn.tools.contains(**t))
                .map(|t| t.to_string())
                .collect();
            if !missing.is_empty() {
                problems.push(RoleProblem {
                    role,
                    server,
                    kind: RoleProblemKind::MissingTools(missing),
                });
            }
        }
    }
    problems.sort_by_key(|p| p.role);
    Connected {
        connections,
        problems,
    }
}

pub(crate) async fn shutdown_all(connections: BTreeMap<String, Connection>) {
    for (name, conn) in connections {
        let mut service = conn.service;
        match service.close_with_timeout(SHUTDOWN_GRACE).await {
            Ok(Some(_)) => tracing::debug!(server = %name, "MCP server stopped"),
            // Dropping the transport kills a server that did not exit in time.
            _ => tracing::warn!(server = %name, "MCP server did not stop in time; killed"),
        }
    }
}

impl Hub {
    /// Starts the servers and checks every role; `HubError` lists every problem at once.
    pub async fn connect(config: &Config) -> Result<Hub, HubError> {
        let Connected {
            connections,
            problems,
        } = connect_roles(config).await;
        if !problems.is_empty() {
            shutdown_all(connections).await;
            return Err(HubError {
                config: config.path.clone(),
                problems,
            });
        }
        Ok(Hub {
            connections,
            roles: config.roles.clone(),
            call_timeout: Duration::from_millis(u64::from(config.call_timeout_ms)),
            decode_warnings: DecodeWarnings::default(),
        })
    }

    pub fn report(&self) -> Report<'_> {
        Report::new(self)
    }
    pub fn analyzer(&self) -> Analyzer<'_> {
        Analyzer::new(self)
    }
    pub fn mobile(&self) -> Mobile<'_> {
        Mobile::new(self)
    }
    pub fn ui(&self) -> Ui<'_> {
        Ui::new(self)
    }
    pub fn log(&self) -> Log<'_> {
        Log::new(self)
    }

    /// Process id of each running stdio server, by configured name (diagnostics, tests).
    pub fn server_pids(&self) -> BTreeMap<String, Option<u32>> {
        self.connections
            .iter()
            .map(|(name, c)| (name.clone(), c.pid))
            .collect()
    }

    /// The configured server name serving `role`.
    pub fn server_for(&self, role: Role) -> Option<&str> {
        self.roles.get(&role).map(String::as_str)
    }

    /// Every answer so far that was read leniently: one warning per (server, tool),
    /// listing what was tolerated. Verdict fields are never among them.
    pub fn decode_warnings(&self) -> Vec<DecodeWarning> {
        self.decode_warnings.all()
    }

    /// Closes every server's stdin, waits briefly, then kills what is left.
    pub async fn shutdown(self) {
        shutdown_all(self.connections).await;
    }

    fn connection(&self, role: Role, tool: &str) -> Result<&Connection, McpError> {
        self.roles
            .get(&role)
            .and_then(|name| self.connections.get(name))
            .ok_or_else(|| McpError {
                role,
                server: self.roles.get(&role).cloned().unwrap_or_default(),
                tool: tool.to_string(),
                kind: McpErrorKind::ServerGone,
            })
    }

    async fn raw_call(
        &self,
        role: Role,
        tool: &str,
        args: &impl Serialize,
        extra_ms: u32,
    ) -> Result<(rmcp::model::CallToolResult, &Connection), McpError> {
        let conn = self.connection(role, tool)?;
        let args = serde_json::to_value(args).map_err(|e| McpError {
            role,
            server: conn.server.clone(),
            tool: tool.to_string(),
            kind: McpErrorKind::Transport(format!("cannot encode arguments: {e}")),
        })?;
        let timeout = self.call_timeout + Duration::from_millis(u64::from(extra_ms));
        Ok((conn.call(role, tool, args, timeout).await?, conn))
    }

    /// Calls a tool whose result must be of the contract type `T`. `extra_ms` extends the
    /// timeout for tools that wait on the device themselves (timeout_ms, settle_ms).
    pub(crate) async fn call_typed<T: DeserializeOwned + Serialize>(
        &self,
        role: Role,
        tool: &str,
        args: &impl Serialize,
        extra_ms: u32,
    ) -> Result<T, McpError> {
        self.call_read(role, tool, args, extra_ms, decode).await
    }

    /// Calls a tool and turns its result into `T` with `read` (which sees the raw result,
    /// for tools whose public servers answer in prose). What `read` tolerated becomes
    /// this (server, tool)'s decode warning; its error names server, tool and field.
    pub(crate) async fn call_read<T>(
        &self,
        role: Role,
        tool: &str,
        args: &impl Serialize,
        extra_ms: u32,
        read: impl FnOnce(&CallToolResult) -> Result<Decoded<T>, McpErrorKind>,
    ) -> Result<T, McpError> {
        let (result, conn) = self.raw_call(role, tool, args, extra_ms).await?;
        match read(&result) {
            Ok(Decoded { value, tolerated }) => {
                self.decode_warnings
                    .note(role, &conn.server, tool, tolerated);
                Ok(value)
            }
            Err(kind) => Err(McpError {
                role,
                server: conn.server.clone(),
                tool: tool.to_string(),
                kind,
            }),
        }
    }

    /// Calls a tool whose result we do not need; any content is accepted (mobile-mcp
    /// answers in plain text) but `isError`, or mobile-mcp's unflagged error prose, still
    /// fails the call.
    pub(crate) async fn call_unit(
        &self,
        role: Role,
        tool: &str,
        args: &impl Serialize,
    ) -> Result<(), McpError> {
        let (result, conn) = self.raw_call(role, tool, args, 0).await?;
        match tool_error(&result) {
            Some(kind) => Err(McpError {
                role,
                server: conn.server.clone(),
                tool: tool.to_string(),
                kind,
            }),
            None => Ok(()),
        }
    }
}
