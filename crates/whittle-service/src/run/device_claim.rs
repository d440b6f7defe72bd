//! Claiming a device for a run before anything runs on it (docs/device-lab.md, "One run
//! per device"): the device's ui server must list every optional tool the plan's steps
//! use (`Role::optional_tools`), and no other run may hold it — neither a Whittle
//! process on this machine (its lease, `device_lease.rs`) nor another session of the
//! lab host serving it (the host's own lease, `whittle_contract::lease`). The chosen
//! device is refused, or waited for; a pool device that is busy or lacks a tool is
//! left out with a notice.

use std::time::{Duration, Instant};

use whittle_contract::Role;
use whittle_core::plan::{ActionKind, ReplayStep};

use super::{RunError, RunNotice};
use crate::client::{Hub, McpError, McpErrorKind};
use crate::device_lease::{DeviceHolder, DeviceHome, DeviceLease, LeaseError, WAIT_POLL};

/// An optional tool a step of the plan uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NeededTool {
    pub(crate) step: u32,
    pub(crate) action: ActionKind,
    pub(crate) tool: &'static str,
}

/// The optional tools `steps` use, first step first.
pub(crate) fn needed_tools<'a>(steps: impl IntoIterator<Item = &'a ReplayStep>) -> Vec<NeededTool> {
    steps
        .into_iter()
        .filter_map(|step| {
            let kind = step.action.kind();
            whittle_contract::ui::tool_for_action(kind).map(|tool| NeededTool {
                step: step.index,
                action: kind,
                tool,
            })
        })
        .collect()
}

/// The first needed tool the ui server of `device` does not list, as a refusal naming
/// the step, the tool and the servers that have it.
pub(crate) fn check_tools(hub: &Hub, device: &str, needed: &[NeededTool]) -> Result<(), RunError> {
    let Some(server) = hub.server_serving(Role::Ui, device) else {
        return Ok(());
    };
    match needed.iter().find(|n| !hub.lists_tool(&server, n.tool)) {
        None => Ok(()),
        Some(missing) => Err(RunError::MissingTool {
            step: missing.step,
            action: missing.action,
            tool: missing.tool.to_owned(),
            servers_with_it: hub.servers_with_tool(Role::Ui, missing.tool),
            server,
        }),
    }
}

/// Takes `device` for this run: its lease here, then, for a lab host's device, the
/// host's word that no other session holds it. Busy: refused naming the holder, or
/// asked again every [`WAIT_POLL`] until `wait` has passed. Cancelled by dropping.
pub(crate) async fn claim_device(
    hub: &Hub,
    device: &str,
    purpose: &str,
    wait: Option<Duration>,
) -> Result<DeviceLease, RunError> {
    let deadline = wait.map(|w| Instant::now() + w);
    let key = hub.device_key(device);
    loop {
        let busy = match DeviceLease::take(&key, purpose) {
            Ok(lease) => match host_holder(hub, device, &key.home).await? {
                None => return Ok(lease),
                Some(holder) => RunError::DeviceBusy {
                    device: device.to_owned(),
                    holder,
                },
            },
            Err(LeaseError::Busy { holder, .. }) => RunError::DeviceBusy {
                device: device.to_owned(),
                holder,
            },
            Err(io) => return Err(io.into()),
        };
        if deadline.is_none_or(|d| Instant::now() >= d) {
            return Err(busy);
        }
        tokio::time::sleep(WAIT_POLL).await;
    }
}

/// A pool device for this run, or why it is left out: its ui server lacks a tool the
/// plan needs, or a run here holds it. Never waits: the pool is optional. Its lab host's
/// word was already had: the pool lists the device's apps first (`prepare::choose_pool`),
/// and a host refuses that for a device another session holds.
pub(crate) fn claim_pool_device(
    hub: &Hub,
    device: &str,
    purpose: &str,
    needed: &[NeededTool],
) -> Result<DeviceLease, RunNotice> {
    if let Err(RunError::MissingTool { tool, .. }) = check_tools(hub, device, needed) {
        return Err(RunNotice::PoolDeviceLacksTool {
            device: device.to_owned(),
            tool,
        });
    }
    match DeviceLease::take(&hub.device_key(device), purpose) {
        Ok(lease) => Ok(lease),
        Err(LeaseError::Busy { holder, .. }) => Err(RunNotice::PoolDeviceBusy {
            device: device.to_owned(),
            holder,
        }),
        Err(io) => Err(RunNotice::PoolDeviceLeftOut {
            device: device.to_owned(),
            detail: io.to_string(),
        }),
    }
}

/// The holder a lab host named when it refused a call, if that is why the call failed.
pub(crate) fn lab_holder(error: &McpError) -> Option<DeviceHolder> {
    match &error.kind {
        McpErrorKind::DeviceBusy { holder, .. } => {
            Some(DeviceHolder::lab_session(error.server.clone(), holder))
        }
        _ => None,
    }
}

/// Who holds `device` on its lab host, if another session does. The host answers a
/// call naming a device another session holds with its `device_busy` record; listing
/// the apps changes nothing on the device and takes no lease there.
async fn host_holder(
    hub: &Hub,
    device: &str,
    home: &DeviceHome,
) -> Result<Option<DeviceHolder>, RunError> {
    if !matches!(home, DeviceHome::Host(_)) {
        return Ok(None);
    }
    match hub.mobile().list_apps(device).await {
        Ok(_) => Ok(None),
        Err(error) => match lab_holder(&error) {
            Some(holder) => Ok(Some(holder)),
            None => Err(error.into()),
        },
    }
}
