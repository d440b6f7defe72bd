//! Each role on each of its servers: does the server start and list the role's tools,
//! and which of its optional tools does it lack (a path using one is refused there)?

use super::check::{Check, CheckName, Finding};
use crate::client::{role_problems, RoleFindings, RoleProblemKind};
use crate::config::Config;

pub(super) async fn role_checks(config: &Config) -> Vec<Check> {
    role_problems(config)
        .await
        .into_iter()
        .map(|findings| {
            let RoleFindings {
                role,
                server,
                problems: found,
                optional_missing,
            } = findings;
            let check = |finding, detail: String| {
                Check::new(CheckName::Role, finding, detail)
                    .subject(role.as_str())
                    .server(server.clone())
            };
            let Some(first) = found.first() else {
                // Lacking an optional tool stops no run but those of paths that use it.
                return match optional_missing.as_slice() {
                    [] => check(
                        Finding::RoleReady,
                        optional_words("starts and lists the role's tools", role),
                    ),
                    missing => check(
                        Finding::RoleReadyWithoutOptional,
                        format!(
                            "starts and lists the role's tools; does not list the optional {} (a path with a step that needs one is refused on this server)",
                            missing.join(", ")
                        ),
                    ),
                };
            };
            // Several problems on one role and server are one line: the first names it.
            let finding = match first.kind {
                RoleProblemKind::Unassigned => Finding::RoleUnassigned,
                RoleProblemKind::UnknownServer => Finding::RoleUnknownServer,
                RoleProblemKind::StartFailed(_) => Finding::RoleStartFailed,
                RoleProblemKind::Unauthorized(_) => Finding::RoleUnauthorized,
                RoleProblemKind::MissingTools(_) => Finding::RoleMissingTools,
            };
            let join = |f: &dyn Fn(&crate::client::RoleProblem) -> String| {
                found.iter().map(f).collect::<Vec<_>>().join("; ")
            };
            check(finding, join(&|p| p.to_string())).fail(join(&|p| p.fix(&config.path)))
        })
        .collect()
}

/// `lead`, and the role's optional tools the server lists, when it has any.
fn optional_words(lead: &str, role: whittle_contract::Role) -> String {
    match role.optional_tools() {
        [] => lead.to_owned(),
        offered => format!("{lead}, and the optional {}", offered.join(", ")),
    }
}
