use std::collections::BTreeMap;
use std::time::Duration;

use rmcp::model::CallToolResult;
use serde::de::DeserializeOwned;
use serde::Serialize;
use whittle_contract::Role;

use super::connect::{connect_roles, shutdown_all, Connected};
use super::connection::Connection;
use super::decode::{decode, tool_error, Decoded};
use super::routing::DeviceRoutes;
use super::tolerance::DecodeWarnings;
use super::{DecodeWarning, HubError, McpError, McpErrorKind};
use crate::config::{Config, RoleServers, ServerSpec, DEVICE_ROLES};
use crate::device_lease::DeviceHome;

/// One running connection per configured server that some role uses.
pub struct Hub {
    pub(super) connections: BTreeMap<String, Connection>,
    pub(super) roles: BTreeMap<Role, RoleServers>,
    call_timeout: Duration,
    /// Present when the device roles span several servers (a pool across lab hosts).
    pub(super) routes: Option<DeviceRoutes>,
    /// What answers needed tolerated, one warning per (server, tool).
    decode_warnings: DecodeWarnings,
    /// Where each server's devices live, for their leases (`capabilities.rs`).
    pub(super) homes: BTreeMap<String, DeviceHome>,
}

/// Where the devices a server lists live: behind its URL, inside its process (the
/// bundled simulator), or on this machine (adb, mobile-mcp).
fn device_home(spec: Option<&ServerSpec>, conn: &Connection) -> DeviceHome {
    match (spec, conn.pid) {
        (Some(ServerSpec::Http(http)), _) => DeviceHome::Host(http.url.clone()),
        (Some(spec), Some(pid)) if spec.is_bundled_simulator() => DeviceHome::Process(pid),
        _ => DeviceHome::ThisMachine,
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
        let routes = DEVICE_ROLES
            .iter()
            .filter_map(|r| config.roles.get(r))
            .find(|servers| servers.is_pool())
            .map(|servers| DeviceRoutes::new(servers.names().to_vec()));
        let homes = connections
            .iter()
            .map(|(name, conn)| (name.clone(), device_home(config.servers.get(name), conn)))
            .collect();
        Ok(Hub {
            homes,
            connections,
            roles: config.roles.clone(),
            call_timeout: Duration::from_millis(u64::from(config.call_timeout_ms)),
            routes,
            decode_warnings: DecodeWarnings::default(),
        })
    }

    /// Process id of each running stdio server, by configured name (diagnostics, tests).
    pub fn server_pids(&self) -> BTreeMap<String, Option<u32>> {
        self.connections
            .iter()
            .map(|(name, c)| (name.clone(), c.pid))
            .collect()
    }

    /// The configured server serving `role` (the first, when a device role spans
    /// several lab hosts).
    pub fn server_for(&self, role: Role) -> Option<&str> {
        self.roles.get(&role).map(RoleServers::primary)
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

    /// The connection of `server`, which serves `role`.
    pub(super) fn connection(
        &self,
        role: Role,
        server: &str,
        tool: &str,
    ) -> Result<&Connection, McpError> {
        self.connections.get(server).ok_or_else(|| McpError {
            role,
            server: server.to_string(),
            tool: tool.to_string(),
            kind: McpErrorKind::ServerGone,
        })
    }

    /// Calls `tool` on the server that serves `role` for these arguments: the one
    /// server of a single-server role, else the lab host owning the named device or
    /// capture (`route_call` rewrites a pool device id to the id its host knows).
    async fn raw_call(
        &self,
        role: Role,
        tool: &str,
        args: &impl Serialize,
        extra_ms: u32,
    ) -> Result<(rmcp::model::CallToolResult, &Connection), McpError> {
        let primary = self.server_for(role).unwrap_or_default().to_string();
        let mut args = serde_json::to_value(args).map_err(|e| McpError {
            role,
            server: primary.clone(),
            tool: tool.to_string(),
            kind: McpErrorKind::Transport(format!("cannot encode arguments: {e}")),
        })?;
        let server = self.route_call(role, tool, &mut args).await?;
        let conn = self.connection(role, server.as_deref().unwrap_or(&primary), tool)?;
        let timeout = self.call_timeout + Duration::from_millis(u64::from(extra_ms));
        Ok((conn.call(role, tool, args, timeout).await?, conn))
    }

    /// Calls `tool` on one named server (fan-out over a pool's hosts).
    pub(super) async fn call_on<T: DeserializeOwned + Serialize>(
        &self,
        role: Role,
        server: &str,
        tool: &str,
        args: &impl Serialize,
    ) -> Result<T, McpError> {
        let conn = self.connection(role, server, tool)?;
        let fail = |kind| McpError {
            role,
            server: server.to_string(),
            tool: tool.to_string(),
            kind,
        };
        let args = serde_json::to_value(args).map_err(|e| {
            fail(McpErrorKind::Transport(format!(
                "cannot encode arguments: {e}"
            )))
        })?;
        let result = conn.call(role, tool, args, self.call_timeout).await?;
        let Decoded { value, tolerated } = decode(&result).map_err(fail)?;
        self.decode_warnings.note(role, server, tool, tolerated);
        Ok(value)
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
