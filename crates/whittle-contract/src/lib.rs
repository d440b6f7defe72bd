//! The MCP tool contract (`docs/tool-contract.md`): one argument type and one result
//! type per tool, shared by the servers Whittle ships and by its client, so both sides
//! agree by construction without either depending on the other. Results travel as
//! `structuredContent` and as one JSON text block. Servers written by others are read
//! leniently where a field decides nothing and strictly where a verdict rests on it
//! ([`lenient`]; the table is `docs/tool-contract.md`).
//!
//! The values the domain itself decides are the core's, re-exported here where a tool
//! carries them: the element locator (`ui::{By, Strategy}`, from `whittle_core::plan`)
//! and the crash signature and group (`analyzer::{Signature, CrashGroup}`, from
//! `whittle_core::signature`).

pub mod analyzer;
pub mod lease;
pub mod log;
pub mod mobile;
pub mod report;
mod role;
pub mod ui;

/// The field readers of `docs/tool-contract.md`; they live in the core because the
/// core's own answer types (a signature, a crash group) are read with them.
pub use whittle_core::lenient;

pub use role::Role;

/// Declares a contract struct with the derives every contract type needs.
///
/// A field marked `#[opt_text]` (after its doc comment, typed `Option<String>`) is free
/// text a server may add, such as why an action failed or where a log went: read with
/// [`lenient::opt_text`] (absent or `null` is `None`) and left out of the JSON when
/// `None`. The marker keeps that one reading rule in one place instead of on every
/// such field.
macro_rules! contract_type {
    ($(#[$m:meta])* pub struct $name:ident { $($fields:tt)* }) => {
        $crate::contract_type!(@fields [$(#[$m])*] $name [] $($fields)*);
    };
    (@fields $attrs:tt $name:ident [$($done:tt)*]
        $(#[doc = $doc:literal])* #[opt_text] pub $field:ident: Option<String>, $($rest:tt)*
    ) => {
        $crate::contract_type!(@fields $attrs $name [$($done)*
            $(#[doc = $doc])*
            #[serde(
                default,
                skip_serializing_if = "Option::is_none",
                deserialize_with = "whittle_core::lenient::opt_text"
            )]
            pub $field: Option<String>,
        ] $($rest)*);
    };
    (@fields $attrs:tt $name:ident [$($done:tt)*]
        $(#[$fm:meta])* pub $field:ident: $ty:ty, $($rest:tt)*
    ) => {
        $crate::contract_type!(@fields $attrs $name [$($done)* $(#[$fm])* pub $field: $ty,] $($rest)*);
    };
    (@fields [$($attr:tt)*] $name:ident [$($done:tt)*]) => {
        $($attr)*
        #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        pub struct $name { $($done)* }
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
