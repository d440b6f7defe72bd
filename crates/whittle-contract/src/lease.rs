//! A lab host (`whittle-servers … --listen`) lends each device to one MCP session at a
//! time, so orchestrators on different machines sharing one lab never drive one phone
//! together (docs/device-lab.md, "One run per device"). A call naming a device another
//! session holds is answered `isError` with this record as its `structuredContent`, so
//! a client tells "busy" from a failure without reading prose.
use crate::contract_type;

/// The `error` of a [`DeviceBusy`] answer.
pub const DEVICE_BUSY: &str = "device_busy";

contract_type! {
    /// Why a call naming a device was refused: another session holds it.
    pub struct DeviceBusy {
        /// Always [`DEVICE_BUSY`].
        pub error: String,
        pub device: String,
        /// Who holds it, for a person: the session's number on this host, its client's
        /// name and since when.
        pub holder: String,
    }
}
