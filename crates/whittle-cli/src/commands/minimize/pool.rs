//! What `whittle minimize --devices N` adds to its output: the pool and where each
//! replay ran (from the evidence's `pool.json`; absent for a one-device run, whose
//! output stays exactly as before).

use std::collections::BTreeMap;

use serde_json::{Map, Value};
use whittle_service::api::{read_pool_record, PoolRecord, RunOutcome};

fn pool(outcome: &RunOutcome) -> Option<PoolRecord> {
    outcome.evidence_dir.as_deref().and_then(read_pool_record)
}

/// Replays per device (wasted speculative ones included).
fn replays_on_devices(pool: &PoolRecord) -> BTreeMap<String, u32> {
    let mut counts: BTreeMap<String, u32> = pool.devices.iter().map(|d| (d.clone(), 0)).collect();
    for replay in &pool.replays {
        *counts.entry(replay.device.clone()).or_insert(0) += 1;
    }
    counts
}

/// Adds `devices`, `wasted_replays`, `wasted_device_s` and `replays_on_devices`, and `device_servers`
/// when the pool spans lab hosts (fields added only).
pub fn add_json_fields(outcome: &RunOutcome, map: &mut Map<String, Value>) {
    let Some(pool) = pool(outcome) else {
        return;
    };
    map.insert("devices".into(), pool.devices.clone().into());
    if !pool.servers.is_empty() {
        map.insert(
            "device_servers".into(),
            serde_json::to_value(&pool.servers).unwrap_or_default(),
        );
    }
    map.insert("wasted_replays".into(), pool.wasted.into());
    map.insert(
        "wasted_device_s".into(),
        (pool.wasted_device_ms as f64 / 1000.0).into(),
    );
    map.insert(
        "replays_on_devices".into(),
        serde_json::to_value(replays_on_devices(&pool)).unwrap_or_default(),
    );
}

/// One line under the report: replays per device and the wasted ones.
pub fn print_line(outcome: &RunOutcome) {
    let Some(pool) = pool(outcome) else {
        return;
    };
    let per_device: Vec<String> = replays_on_devices(&pool)
        .iter()
        .map(|(device, n)| format!("{device} {n}"))
        .collect();
    println!(
        "  Devices:  {} ({} speculative replays not needed, {:.1} s of device time, outside the attempts and the budget)",
        per_device.join(", "),
        pool.wasted,
        pool.wasted_device_ms as f64 / 1000.0
    );
    let hosts: std::collections::BTreeSet<&String> = pool.servers.values().collect();
    if !hosts.is_empty() {
        let hosts: Vec<&str> = hosts.into_iter().map(String::as_str).collect();
        println!("  Servers:  {}", hosts.join(", "));
    }
}
