//! The MCP client side: one connection per configured server that some role uses,
//! checked against each role's required tools, and a typed facade per role.

mod connect;
mod connection;
mod decode;
mod doctor;
mod error;
mod facade;
mod http;
mod hub;
mod pool;
mod redact;
mod routing;
mod start;

pub use doctor::{check_roles, RoleCheck, RoleStatus};
pub use error::{HubError, McpError, McpErrorKind, RoleProblem, RoleProblemKind};
pub use facade::{Analyzer, Log, Mobile, Report, Ui};
pub use hub::Hub;
pub use routing::DeviceRoute;
