//! The MCP tool contract of docs/design.md §2: one argument type and one result type per tool,
//! shared by the servers Whittle ships and by its client, so both sides agree by
//! construction. Results travel as `structuredContent` and as one JSON text block.
//! Servers written by others are read leniently where a field decides nothing and
//! strictly where a verdict rests on it ([`lenient`]; the table is `docs/tool-contract.md`).

pub mod analyzer;
pub mod lenient;
pub mod log;
pub mod mobile;
pub mod report;
mod role;
pub mod ui;

pub use role::Role;

/// Declares a contract struct with the derives every contract type needs.
macro_rules! contract_type {
    ($(#[$m:meta])* pub struct $name:ident { $($body:tt)* }) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        pub struct $name { $($body)* }
    };
}
pub(crate) use contract_type;

contract_type! {
    /// Arguments of a tool that takes none.
    #[derive(Default)]
    pub struct NoArgs {}
}

contract_type! {
    /// Arguments of the device tools that take only the device id.
    pub struct DeviceArgs {
        pub device: String,
    }
}
