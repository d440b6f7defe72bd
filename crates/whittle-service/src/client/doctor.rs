use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use whittle_contract::Role;

use super::connect::{connect_roles, shutdown_all, Connected};
use super::error::RoleProblem;
use crate::config::Config;

/// One role's readiness, for `whittle doctor` and the app's settings view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoleCheck {
    pub role: Role,
    /// The server the role points at, when it names one.
    pub server: Option<String>,
    pub status: RoleStatus,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum RoleStatus {
    Ok,
    Problem { problem: String, fix: String },
}

/// Starts the configured servers, checks all five roles, stops the servers again. One
/// check per role and server: a device role spanning lab hosts is checked on each.
pub async fn check_roles(config: &Config) -> Vec<RoleCheck> {
    role_problems(config)
        .await
        .into_iter()
        .map(
            |RoleFindings {
                 role,
                 server,
                 problems: found,
                 ..
             }| {
                let status = if found.is_empty() {
                    RoleStatus::Ok
                } else {
                    RoleStatus::Problem {
                        problem: found
                            .iter()
                            .map(|p| p.to_string())
                            .collect::<Vec<_>>()
                            .join("; "),
                        fix: found
                            .iter()
                            .map(|p| p.fix(&config.path))
                            .collect::<Vec<_>>()
                            .join("; "),
                    }
                };
                RoleCheck {
                    role,
                    server,
                    status,
                }
            },
        )
        .collect()
}

/// One role on one server (`None` when the role names none): its problems, typed (the
/// doctor, `crate::doctor`, keys its findings on their kinds), and the role's optional
/// tools the server does not list (`Role::optional_tools`).
pub(crate) struct RoleFindings {
    pub(crate) role: Role,
    pub(crate) server: Option<String>,
    pub(crate) problems: Vec<RoleProblem>,
    pub(crate) optional_missing: Vec<&'static str>,
}

/// Every role on each of its servers.
pub(crate) async fn role_problems(config: &Config) -> Vec<RoleFindings> {
    let Connected {
        connections,
        problems,
    } = connect_roles(config).await;
    let listed: BTreeMap<String, BTreeSet<String>> = connections
        .iter()
        .map(|(name, conn)| (name.clone(), conn.tools.clone()))
        .collect();
    shutdown_all(connections).await;
    Role::ALL
        .into_iter()
        .flat_map(|role| {
            let servers: Vec<Option<String>> = match config.roles.get(&role) {
                Some(names) => names.names().iter().cloned().map(Some).collect(),
                None => vec![None],
            };
            servers.into_iter().map(move |server| (role, server))
        })
        .map(|(role, server)| {
            let found: Vec<RoleProblem> = problems
                .iter()
                .filter(|p| p.role == role && (server.is_none() || p.server == server))
                .cloned()
                .collect();
            let tools = server.as_ref().and_then(|s| listed.get(s));
            let optional_missing = role
                .optional_tools()
                .iter()
                .copied()
                .filter(|t| tools.is_some_and(|listed| !listed.contains(*t)))
                .collect();
            RoleFindings {
                role,
                server,
                problems: found,
                optional_missing,
            }
        })
        .collect()
}
