//! `pool.json`: which device ran which attempt of a run on several devices.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use whittle_core::engine::Phase;

/// The evidence of a run on several devices: which device ran which attempt.
pub const POOL_FILE: &str = "pool.json";

/// `pool.json`: the pool, and every replay with its device (wasted ones included).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PoolRecord {
    pub devices: Vec<String>,
    /// Device → lab host, when the pool spans several servers.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub servers: BTreeMap<String, String>,
    /// Speculative replays that ran but whose verdicts were not needed (not in
    /// `attempts`: the budget counts only the replays the search used).
    pub wasted: u32,
    /// The device time those took, summed over the devices (ms).
    #[serde(default)]
    pub wasted_device_ms: u64,
    pub replays: Vec<PoolReplay>,
}

/// Which device ran which attempt, and whether its verdict was used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PoolReplay {
    pub attempt: u32,
    pub phase: Phase,
    pub device: String,
    /// The lab host that owns `device`, in a pool across several servers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
    pub speculative: bool,
    /// `false`: a speculative replay whose verdict the search did not need (wasted;
    /// outside the budget).
    pub consumed: bool,
    /// How long the replay took on its device (ms).
    #[serde(default)]
    pub duration_ms: u32,
}

impl PoolRecord {
    /// The record of a run on `devices` whose replays are `replays`.
    pub(crate) fn new(
        devices: Vec<String>,
        servers: BTreeMap<String, String>,
        wasted: u32,
        replays: Vec<PoolReplay>,
    ) -> PoolRecord {
        let wasted_device_ms = replays
            .iter()
            .filter(|r| !r.consumed)
            .map(|r| u64::from(r.duration_ms))
            .sum();
        PoolRecord {
            devices,
            servers,
            wasted,
            wasted_device_ms,
            replays,
        }
    }
}

pub(crate) fn write_pool_record(dir: &Path, record: &PoolRecord) -> std::io::Result<()> {
    let text = serde_json::to_string_pretty(record).map_err(std::io::Error::other)?;
    std::fs::write(dir.join(POOL_FILE), text)
}

/// The pool record of a finished run on several devices, if it has one.
pub fn read_pool_record(evidence_dir: &Path) -> Option<PoolRecord> {
    let text = std::fs::read_to_string(evidence_dir.join(POOL_FILE)).ok()?;
    serde_json::from_str(&text).ok()
}
