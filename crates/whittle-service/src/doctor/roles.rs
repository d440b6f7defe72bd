//! Each role on each of its servers: does the server start and list the role's tools?

use super::check::{Check, CheckName, Finding};
use crate::client::{role_problems, RoleProblemKind};
use crate::config::Config;

pub(super) async fn role_checks(config: &Config) -> Vec<Check> {
    role_problems(config)
        .await
        .into_iter()
        .map(|(role, server, found)| {
            let check = |finding, detail: String| {
                Check::new(CheckName::Role, finding, detail)
                    .subject(role.as_str())
                    .server(server.clone())
            };
            let Some(first) = found.first() else {
                return check(
                    Finding::RoleReady,
                    "starts and lists the role's tools".into(),
                );
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
