//! The devices a run may use: what the configured mobile server lists (every lab host's
//! devices, each with its server, when the device roles span several servers).

use serde::Serialize;

use crate::client::{Hub, HubError, McpError};
use crate::config::Config;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DeviceView {
    pub id: String,
    pub name: String,
    pub platform: String,
    /// `emulator`, `real`, `simulator`… as the server says.
    pub kind: String,
    pub state: String,
    /// The configured server (lab host) that owns the device, when the device roles
    /// span several servers; `null` otherwise.
    pub server: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum DevicesError {
    #[error("the device servers did not start: {0}")]
    Servers(#[from] HubError),
    #[error(transparent)]
    List(#[from] McpError),
}

impl DevicesError {
    pub fn code(&self) -> &'static str {
        match self {
            DevicesError::Servers(_) => "servers_unavailable",
            DevicesError::List(_) => "server_failed",
        }
    }
}

/// Starts the configured servers, lists the devices and shuts the servers down.
pub async fn list_devices(config: &Config) -> Result<Vec<DeviceView>, DevicesError> {
    let hub = Hub::connect(config).await?;
    let listed = hub.mobile().list_devices().await;
    let listed = listed.map(|list| {
        list.devices
            .into_iter()
            .map(|d| DeviceView {
                server: hub.device_route(&d.id).map(|r| r.server),
                id: d.id,
                name: d.name,
                platform: d.platform,
                kind: d.device_type,
                state: d.state,
            })
            .collect()
    });
    hub.shutdown().await;
    Ok(listed?)
}
