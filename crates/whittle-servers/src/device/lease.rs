//! A lab host lends each device to one MCP session at a time (docs/device-lab.md, "One
//! run per device"), so orchestrators on different machines sharing one lab never drive
//! one phone together. The first call of a session that acts on a device takes it; the
//! device stays the session's until the session ends — closed by its client, timed out
//! (`--session-idle-secs`) or dropped with its connection — and every other session's
//! call naming it is answered `isError` with a `device_busy` record
//! (`whittle_contract::lease`) naming the holder. Listing a device's apps acts on
//! nothing, so it takes no lease (a client choosing a pool asks it of devices it may not
//! use), but is refused all the same while another session holds the device: that is
//! how a client learns before its run starts that the device is taken.
//!
//! Over stdio a server has one client, so nothing is leased.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use rmcp::model::{CallToolResult, ContentBlock};
use whittle_contract::lease::{DeviceBusy, DEVICE_BUSY};
use whittle_contract::mobile::LIST_APPS;

/// Every device's holder on this host.
#[derive(Default)]
pub struct LabLeases {
    held: Mutex<HashMap<String, Holder>>,
    sessions: AtomicU64,
}

#[derive(Clone)]
struct Holder {
    session: u64,
    words: String,
}

impl LabLeases {
    fn held(&self) -> MutexGuard<'_, HashMap<String, Holder>> {
        // The map stays consistent whatever panicked while holding the lock.
        self.held.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A new session's hold on this host's devices; it holds none yet.
    pub fn session(self: &Arc<Self>) -> SessionLeases {
        SessionLeases {
            lab: Arc::clone(self),
            session: self.sessions.fetch_add(1, Ordering::Relaxed) + 1,
            since: chrono::Utc::now().format("%H:%M:%S UTC").to_string(),
        }
    }
}

/// One MCP session's devices; dropped with the session, which frees them.
pub struct SessionLeases {
    lab: Arc<LabLeases>,
    session: u64,
    since: String,
}

impl SessionLeases {
    /// Whether this session may call `tool` on `device`: `None` if so (taking the device
    /// when the tool acts on it), else the `device_busy` answer naming the holder.
    /// `client` is the name the session's client gave at initialization.
    pub fn admit(&self, tool: &str, device: &str, client: &str) -> Option<CallToolResult> {
        let mut held = self.lab.held();
        match held.get(device) {
            Some(holder) if holder.session != self.session => {
                Some(busy_answer(device, &holder.words))
            }
            Some(_) => None,
            None if tool == LIST_APPS => None,
            None => {
                let words = format!(
                    "MCP session {} ({client}), holding it since {}",
                    self.session, self.since
                );
                let holder = Holder {
                    session: self.session,
                    words,
                };
                held.insert(device.to_owned(), holder);
                tracing::info!(device, session = self.session, "device leased");
                None
            }
        }
    }
}

impl Drop for SessionLeases {
    fn drop(&mut self) {
        let mut held = self.lab.held();
        let before = held.len();
        held.retain(|_, h| h.session != self.session);
        if held.len() < before {
            tracing::info!(
                session = self.session,
                "session ended: its devices are free"
            );
        }
    }
}

fn busy_answer(device: &str, holder: &str) -> CallToolResult {
    let record = DeviceBusy {
        error: DEVICE_BUSY.to_owned(),
        device: device.to_owned(),
        holder: holder.to_owned(),
    };
    let text = format!("device {device} is in use by {holder}; try again when that session ends");
    let mut answer = CallToolResult::error(vec![ContentBlock::text(text)]);
    answer.structured_content = serde_json::to_value(&record).ok();
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_session_holds_a_device_until_it_ends() {
        let lab = Arc::new(LabLeases::default());
        let a = lab.session();
        let b = lab.session();
        assert!(
            b.admit(LIST_APPS, "sim-1", "b").is_none(),
            "listing takes nothing"
        );
        assert!(a.admit("tap_element", "sim-1", "whittle").is_none());
        assert!(
            a.admit("tap_element", "sim-1", "whittle").is_none(),
            "its own"
        );
        let refused = b.admit(LIST_APPS, "sim-1", "b").expect("busy");
        assert_eq!(refused.is_error, Some(true));
        let record: DeviceBusy =
            serde_json::from_value(refused.structured_content.unwrap()).unwrap();
        assert_eq!(record.error, DEVICE_BUSY);
        assert!(record.holder.contains("(whittle)"), "{}", record.holder);
        assert!(
            b.admit("tap_element", "sim-2", "b").is_none(),
            "another device"
        );
        drop(a);
        assert!(b.admit("tap_element", "sim-1", "b").is_none(), "freed");
    }
}
