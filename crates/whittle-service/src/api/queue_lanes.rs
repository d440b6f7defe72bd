//! The devices a queue runs its items on side by side ([`super::Queue::side_by_side`]):
//! each online Android device the mobile role lists, with the user apps installed on it,
//! so that an item goes only to a device that has its app (the rule a run's own device
//! pool follows, `run::prepare::choose_pool`) and that no other run holds.

use crate::client::Hub;
use crate::config::Config;
use crate::device_lease::DeviceLease;
use crate::run::{is_online_android, RunSpec};

/// One device a queue item may run on, alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueueLane {
    pub device: String,
    /// The user apps installed on it (an item's package must be one of them).
    pub packages: Vec<String>,
}

impl QueueLane {
    /// Whether an item of `package` (unknown: the run finds out) may run here.
    pub fn fits(&self, package: Option<&str>) -> bool {
        package.is_none_or(|p| self.packages.iter().any(|q| q == p))
    }
}

/// The lanes for items run from `template`: none — one item at a time, each run choosing
/// its devices as a single run does — when the template names a device or asks for a
/// pool of several (the run spreads its own replays then), when fewer than two devices
/// are online, or when the devices cannot be listed (each run then says why itself).
pub async fn queue_lanes(config: &Config, template: &RunSpec) -> Vec<QueueLane> {
    if template.device.is_some() || template.pool_size() > 1 {
        return Vec::new();
    }
    let hub = match Hub::connect(config).await {
        Ok(hub) => hub,
        Err(e) => {
            tracing::warn!(error = %e, "queue runs one item at a time: the servers did not start");
            return Vec::new();
        }
    };
    let lanes = list_lanes(&hub).await;
    hub.shutdown().await;
    if lanes.len() < 2 {
        return Vec::new();
    }
    lanes
}

async fn list_lanes(hub: &Hub) -> Vec<QueueLane> {
    let devices = match hub.mobile().list_devices().await {
        Ok(list) => list.devices,
        Err(e) => {
            tracing::warn!(error = %e, "queue runs one item at a time: no device list");
            return Vec::new();
        }
    };
    let mut lanes = Vec::new();
    for device in devices.iter().filter(|d| is_online_android(d)) {
        // A device another run holds is no lane: its item would only be refused
        // (`device_lease.rs`; a lab host's busy device fails to list its apps below).
        if let Err(e) = DeviceLease::take(
            &hub.device_key(&device.id),
            "queue: looking for free devices",
        ) {
            tracing::warn!(device = %device.id, error = %e, "device left out of the queue's lanes");
            continue;
        }
        // A device that cannot list its apps is left out, as from a run's pool.
        match hub.mobile().list_apps(&device.id).await {
            Ok(list) => lanes.push(QueueLane {
                device: device.id.clone(),
                packages: list
                    .apps
                    .into_iter()
                    .filter(|a| !a.system)
                    .map(|a| a.package)
                    .collect(),
            }),
            Err(e) => {
                tracing::warn!(device = %device.id, error = %e, "device left out of the queue's lanes")
            }
        }
    }
    lanes
}
