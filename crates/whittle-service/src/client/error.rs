use std::fmt;
use std::path::PathBuf;

use whittle_contract::Role;

/// A tool call that did not produce a usable result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{server} server (role {role}) tool {tool}: {kind}")]
pub struct McpError {
    pub role: Role,
    /// The configured server name (key in `mcpServers`).
    pub server: String,
    pub tool: String,
    pub kind: McpErrorKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum McpErrorKind {
    /// The tool answered `isError: true`, or the server refused the request.
    ToolError(String),
    Timeout {
        after_ms: u32,
    },
    /// The server process exited or closed the connection.
    ServerGone,
    /// The answer was longer than one MCP message may be, so the transport dropped it:
    /// its size when measured (stdio), else only that it was over `limit` bytes.
    AnswerTooLarge {
        bytes: Option<u64>,
        limit: u64,
    },
    /// The result is not of the contract's shape; names the field at fault.
    BadResult(BadAnswer),
    Transport(String),
    /// A device id that no server of the pool lists (the message names the servers).
    UnknownDevice(String),
    /// The lab host lends `device` to another MCP session (`whittle_contract::lease`).
    DeviceBusy {
        device: String,
        holder: String,
    },
}

impl fmt::Display for McpErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            McpErrorKind::ToolError(m) => write!(f, "tool reported an error: {m}"),
            McpErrorKind::Timeout { after_ms } if after_ms % 1000 == 0 => {
                write!(f, "timed out after {} s", after_ms / 1000)
            }
            McpErrorKind::Timeout { after_ms } => write!(f, "timed out after {after_ms} ms"),
            McpErrorKind::ServerGone => f.write_str("the server exited or closed the connection"),
            McpErrorKind::AnswerTooLarge {
                bytes: Some(bytes),
                limit,
            } => write!(
                f,
                "its answer of {} is over the {} one MCP message may have, so it was dropped",
                mib(*bytes),
                mib(*limit)
            ),
            McpErrorKind::AnswerTooLarge { bytes: None, limit } => write!(
                f,
                "its answer is over the {} one MCP message may have, so it was dropped",
                mib(*limit)
            ),
            McpErrorKind::BadResult(bad) => bad.fmt(f),
            McpErrorKind::Transport(m) => write!(f, "transport error: {m}"),
            McpErrorKind::UnknownDevice(m) => write!(f, "unknown device: {m}"),
            McpErrorKind::DeviceBusy { device, holder } => {
                write!(f, "device {device} is in use by {holder}")
            }
        }
    }
}

/// `bytes` in MiB, as a tester reads a size: "16 MiB", "17.3 MiB" (never rounded down
/// to the limit it exceeds: 16 MiB and one byte reads "16.1 MiB").
fn mib(bytes: u64) -> String {
    const MIB: u64 = 1024 * 1024;
    if bytes.is_multiple_of(MIB) {
        return format!("{} MiB", bytes / MIB);
    }
    let tenths = (u128::from(bytes) * 10).div_ceil(u128::from(MIB));
    format!("{}.{} MiB", tenths / 10, tenths % 10)
}

/// What is wrong with an answer the client cannot use: the field (a path such as
/// `crashes[0].record_id`; `None` for the answer as a whole) and the problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadAnswer {
    pub field: Option<String>,
    pub problem: String,
}

impl BadAnswer {
    /// A problem with the answer as a whole (no JSON, wrong kind of result).
    pub fn whole(problem: impl Into<String>) -> BadAnswer {
        BadAnswer {
            field: None,
            problem: problem.into(),
        }
    }
}

impl fmt::Display for BadAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.field {
            Some(field) => write!(
                f,
                "the answer breaks the tool contract at field `{field}`: {}",
                self.problem
            ),
            None => write!(f, "unexpected result: {}", self.problem),
        }
    }
}

/// Why a server could not be used; each is a sentence for a tester.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum StartError {
    Failed(String),
    /// A `url` server refused our credentials (HTTP 401/403): a configuration matter.
    Unauthorized(String),
}

impl From<String> for StartError {
    fn from(message: String) -> Self {
        StartError::Failed(message)
    }
}

/// Why one role cannot be served.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoleProblem {
    pub role: Role,
    /// The server the role points at, when it names one.
    pub server: Option<String>,
    pub kind: RoleProblemKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RoleProblemKind {
    Unassigned,
    UnknownServer,
    StartFailed(String),
    /// A `url` server refused the credentials in the config's `headers`.
    Unauthorized(String),
    MissingTools(Vec<String>),
}

impl RoleProblem {
    /// What the user can do about it, in words.
    pub fn fix(&self, config: &std::path::Path) -> String {
        let server = self.server.as_deref().unwrap_or("<server>");
        match &self.kind {
            RoleProblemKind::Unassigned => format!(
                "add \"{}\": \"{server}\" under \"roles\" in {}",
                self.role,
                config.display()
            ),
            RoleProblemKind::UnknownServer => format!(
                "add an entry \"{server}\" under \"mcpServers\" in {}, or point role {} at an existing server",
                config.display(),
                self.role
            ),
            RoleProblemKind::StartFailed(_) => format!(
                "check mcpServers.{server} in {} (command, args, url); run that command by hand to see its error",
                config.display()
            ),
            RoleProblemKind::Unauthorized(_) => format!(
                "set mcpServers.{server}.headers in {} to the token the server expects, \
                 e.g. \"Authorization\": \"Bearer ${{LAB_TOKEN}}\" with LAB_TOKEN in the environment",
                config.display()
            ),
            RoleProblemKind::MissingTools(_) => format!(
                "point role {} at a server that provides the {} tools ({})",
                self.role,
                self.role,
                self.role.required_tools().join(", ")
            ),
        }
    }
}

impl fmt::Display for RoleProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let server = self.server.as_deref().unwrap_or("");
        match &self.kind {
            RoleProblemKind::Unassigned => write!(f, "role {}: no server is assigned", self.role),
            RoleProblemKind::UnknownServer => write!(
                f,
                "role {}: server \"{server}\" is not configured in mcpServers",
                self.role
            ),
            RoleProblemKind::StartFailed(m) => write!(
                f,
                "role {}: server \"{server}\" failed to start: {m}",
                self.role
            ),
            RoleProblemKind::Unauthorized(m) => write!(
                f,
                "role {}: server \"{server}\" refused the credentials: {m}",
                self.role
            ),
            RoleProblemKind::MissingTools(tools) => write!(
                f,
                "role {}: server \"{server}\" lacks tool(s) {}",
                self.role,
                tools.join(", ")
            ),
        }
    }
}

/// Every role that cannot be served, in one message, before a run starts.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("MCP roles not ready (config {}): {}", .config.display(), join(.problems))]
pub struct HubError {
    pub config: PathBuf,
    pub problems: Vec<RoleProblem>,
}

fn join(problems: &[RoleProblem]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_oversized_answer_names_its_size_and_the_limit() {
        let kind = McpErrorKind::AnswerTooLarge {
            bytes: Some(16 * 1024 * 1024 + 1),
            limit: 16 * 1024 * 1024,
        };
        assert_eq!(
            kind.to_string(),
            "its answer of 16.1 MiB is over the 16 MiB one MCP message may have, so it was dropped"
        );
        let unmeasured = McpErrorKind::AnswerTooLarge {
            bytes: None,
            limit: 4 * 1024 * 1024,
        };
        assert!(unmeasured
            .to_string()
            .starts_with("its answer is over the 4 MiB"));
        assert_eq!(mib(3 * 1024 * 1024 / 2), "1.5 MiB");
    }
}
