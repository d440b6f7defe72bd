//! Starting every server the roles name (each once, however many roles share it) and
//! checking each role's required tools on each of its servers.
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use whittle_contract::Role;

use super::connection::Connection;
use super::error::StartError;
use super::start::start_server;
use super::{RoleProblem, RoleProblemKind};
use crate::config::Config;

/// Longest a server gets to exit after its stdin closes before it is killed.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// What `connect_roles` found: the servers that started, and every role problem.
pub(crate) struct Connected {
    pub(crate) connections: BTreeMap<String, Connection>,
    pub(crate) problems: Vec<RoleProblem>,
}

/// Never fails early: collects all problems, one per role and server at fault.
pub(crate) async fn connect_roles(config: &Config) -> Connected {
    let timeout = Duration::from_millis(u64::from(config.call_timeout_ms));
    let mut problems = Vec::new();
    let mut wanted = BTreeSet::new();
    for role in Role::ALL {
        let Some(names) = config.roles.get(&role) else {
            problems.push(RoleProblem {
                role,
                server: None,
                kind: RoleProblemKind::Unassigned,
            });
            continue;
        };
        for name in names.names() {
            if config.servers.contains_key(name) {
                wanted.insert(name.clone());
            } else {
                problems.push(RoleProblem {
                    role,
                    server: Some(name.clone()),
                    kind: RoleProblemKind::UnknownServer,
                });
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
            Err(error) => {
                let (StartError::Failed(message) | StartError::Unauthorized(message)) = &error;
                tracing::warn!(server = %name, "MCP server failed to start: {message}");
                failures.insert(name, error);
            }
        }
    }

    for role in Role::ALL {
        let Some(names) = config.roles.get(&role) else {
            continue;
        };
        for name in names.names() {
            let server = Some(name.clone());
            if let Some(error) = failures.get(name) {
                let kind = match error {
                    StartError::Failed(m) => RoleProblemKind::StartFailed(m.clone()),
                    StartError::Unauthorized(m) => RoleProblemKind::Unauthorized(m.clone()),
                };
                problems.push(RoleProblem { role, server, kind });
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
