//! One simulated phone: its app process (if running) and its crash log.
use std::collections::BTreeMap;

use serde_json::Value;
use whittle_contract::log::LogCrash;
use whittle_core::model::CrashKind;

/// The app while it runs; dropped when it exits, crashes or is terminated.
#[derive(Debug, Clone)]
pub struct AppProcess {
    /// The device's launch counter at start; a delayed crash only hits its own process.
    pub generation: u64,
    pub pid: u32,
    pub screen: String,
    pub state: BTreeMap<String, Value>,
    /// Text typed into an element, by (screen, element index).
    pub entered: BTreeMap<(String, usize), String>,
    pub focused: Option<(String, usize)>,
}

#[derive(Debug, Clone)]
struct Record {
    seq: u64,
    crash: LogCrash,
}

#[derive(Debug)]
pub struct SimDevice {
    pub id: String,
    /// 1-based, as in the id `sim-N`.
    pub number: u32,
    pub app: Option<AppProcess>,
    pub launches: u64,
    records: Vec<Record>,
    next_seq: u64,
    /// Records with `seq` up to this were cleared by `clear_logs`.
    watermark: u64,
}

impl SimDevice {
    pub fn new(number: u32) -> SimDevice {
        SimDevice {
            id: format!("sim-{number}"),
            number,
            app: None,
            launches: 0,
            records: Vec::new(),
            next_seq: 1,
            watermark: 0,
        }
    }

    /// A plausible, deterministic pid for this device's `generation`th process.
    pub fn pid_for(&self, generation: u64) -> u32 {
        let spread = (generation.wrapping_mul(7919) % 20_000) as u32;
        3_000 + self.number * 1_000 + spread
    }

    /// The sequence number the next crash record will get.
    pub fn next_seq(&self) -> u64 {
        self.next_seq
    }

    pub fn record_crash(&mut self, ts: String, kind: CrashKind, process: &str, stack: String) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.records.push(Record {
            seq,
            crash: LogCrash {
                record_id: format!("{}:{seq}", self.id),
                ts,
                kind,
                process: process.to_string(),
                stack,
            },
        });
    }

    /// Moves the watermark past every record so far; later records (including delayed
    /// crashes still in flight) stay visible.
    pub fn clear_logs(&mut self) {
        self.watermark = self.next_seq - 1;
    }

    pub fn recent_crashes(&self, package: Option<&str>) -> Vec<LogCrash> {
        self.records
            .iter()
            .filter(|r| r.seq > self.watermark)
            // The app's processes: its main one and its `:suffix` ones, as on a device.
            .filter(|r| {
                package.is_none_or(|p| whittle_core::model::runs_in_app(&r.crash.process, p))
            })
            .map(|r| r.crash.clone())
            .collect()
    }
}
