//! The MCP client side: one connection per configured server that some role uses,
//! checked against each role's required tools, and a typed facade per role.

mod answer_meter;
mod capabilities;
mod connect;
mod connection;
mod decode;
mod deviation;
mod direct_http;
mod doctor;
mod error;
mod facade;
mod http;
mod hub;
mod keep_alive;
mod oversize;
mod pool;
mod prose;
#[cfg(test)]
mod recorded_mobile_mcp_tests;
mod redact;
mod routing;
mod start;
mod stderr_tail;
mod stdio_child;
mod tolerance;

pub use doctor::{check_roles, RoleCheck, RoleStatus};
pub(crate) use doctor::{role_problems, RoleFindings};
pub use error::{BadAnswer, HubError, McpError, McpErrorKind, RoleProblem, RoleProblemKind};
pub use facade::{Analyzer, Log, Mobile, Report, Ui};
pub use hub::Hub;
pub use routing::DeviceRoute;
pub use tolerance::{DecodeWarning, JsonType, Leniency, Tolerated};
