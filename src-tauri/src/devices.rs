//! The run panel's device picker: what the configured mobile server lists (every lab
//! host's devices, each with its server, when the device roles span several servers).

use std::path::Path;

use serde::Serialize;

use crate::app_config::config_for;
use crate::error::AppError;
use crate::live_run::connect;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
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

pub async fn list(
    config_path: Option<&Path>,
    workspace: &Path,
) -> Result<Vec<DeviceView>, AppError> {
    let config = config_for(config_path, workspace)?;
    let hub = connect(&config).await?;
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
    listed.map_err(|e| AppError::ServersUnavailable {
        reason: e.to_string(),
    })
}
