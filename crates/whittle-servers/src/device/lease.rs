//! A lab host lends each device to one MCP session at a time (docs/device-lab.md, "One
//! run per device"), so orchestrators on different machines sharing one lab never drive
//! one phone together. The first call of a session that acts on a device takes it; every
//! other session's call naming it is answered `isError` with a `device_busy` record
//! (`whittle_contract::lease`) naming the holder. Listing a device's apps acts on nothing,
//! so it takes no lease (a client choosing a pool asks it of devices it may not use), but
//! is refused all the same while another session holds the device: that is how a client
//! learns before its run starts that the device is taken.
//!
//! A lease ends with its session — closed by its client, dropped with its connections
//! (`listen::session_links`), timed out (`--session-idle-secs`) — or lapses when no call
//! acting on the device has run for the lease's idle time (`--lease-idle-secs`): a ping
//! or a listing keeps a session alive, never a device. A call acting on the device
//! keeps its lease from lapsing while it runs. A lapsed device is free: another session
//! that acts on it takes it (and the lapsed holder's captures of it fail, `server`),
//! and the lapsed holder, acting again, is refused `device_busy` like anyone else — or
//! takes it back if nobody did.
//!
//! Over stdio a server has one client, so nothing is leased.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use rmcp::model::{CallToolResult, ContentBlock};
use whittle_contract::lease::{DeviceBusy, DEVICE_BUSY};
use whittle_contract::mobile::LIST_APPS;

use super::client_name::shown_client_name;

/// How long a device stays a session's without a call acting on it.
pub const DEFAULT_LEASE_IDLE: Duration = Duration::from_secs(300);

/// Every device's holder on this host.
pub struct LabLeases {
    state: Mutex<State>,
    sessions: AtomicU64,
    idle: Duration,
}

#[derive(Default)]
struct State {
    devices: HashMap<String, Holder>,
    /// Each session's number by its MCP session id (`Mcp-Session-Id`), once it called.
    by_mcp_id: HashMap<String, u64>,
}

struct Holder {
    session: u64,
    words: String,
    /// When the last call acting on the device ended (or the lease was taken).
    last_act: Instant,
    /// Calls acting on the device now: while any runs, the lease does not lapse.
    acting: u32,
}

impl Holder {
    fn lapsed(&self, idle: Duration, now: Instant) -> bool {
        self.acting == 0 && now.saturating_duration_since(self.last_act) >= idle
    }
}

impl LabLeases {
    /// Leases that lapse after `idle` without a call acting on their device.
    pub fn new(idle: Duration) -> LabLeases {
        LabLeases {
            state: Mutex::default(),
            sessions: AtomicU64::new(0),
            idle,
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // The maps stay consistent whatever panicked while holding the lock.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A new session's hold on this host's devices; it holds none yet.
    pub fn session(self: &Arc<Self>) -> SessionLeases {
        SessionLeases {
            lab: Arc::clone(self),
            session: self.sessions.fetch_add(1, Ordering::Relaxed) + 1,
            mcp_id: OnceLock::new(),
        }
    }

    /// This host's number of the session with MCP session id `mcp_id`, once it called.
    pub fn number_of(&self, mcp_id: &str) -> Option<u64> {
        self.state().by_mcp_id.get(mcp_id).copied()
    }

    /// Whether `session` holds a device whose lease has not lapsed.
    pub fn holds_a_device(&self, session: u64) -> bool {
        let now = Instant::now();
        self.state()
            .devices
            .values()
            .any(|h| h.session == session && !h.lapsed(self.idle, now))
    }
}

/// One MCP session's devices; dropped with the session, which frees them.
pub struct SessionLeases {
    lab: Arc<LabLeases>,
    session: u64,
    mcp_id: OnceLock<String>,
}

/// Whether a call may go on.
pub enum LeaseAnswer {
    /// It may. `acting` keeps the lease from lapsing until the call ends; `took_from`
    /// is the session whose lapsed lease this call took over.
    Admitted {
        acting: Option<Acting>,
        took_from: Option<u64>,
    },
    /// Another session holds the device: the `device_busy` answer naming it.
    Busy(CallToolResult),
}

impl SessionLeases {
    /// This session's number on this host (what its captures are owned by).
    pub fn number(&self) -> u64 {
        self.session
    }

    /// Notes the session's MCP session id (every call carries it), so the session
    /// table can ask what it holds (`listen::SessionHolds`).
    pub fn know_mcp_id(&self, mcp_id: &str) {
        if self.mcp_id.get().is_some() {
            return;
        }
        if self.mcp_id.set(mcp_id.to_owned()).is_ok() {
            self.lab
                .state()
                .by_mcp_id
                .insert(mcp_id.to_owned(), self.session);
        }
    }

    /// Whether this session may call `tool` on `device` (taking or renewing the device
    /// when the tool acts on it). `client` is the name the session's client gave at
    /// initialization; it is shown to others only made safe (`client_name`).
    pub fn admit(&self, tool: &str, device: &str, client: &str) -> LeaseAnswer {
        let now = Instant::now();
        let acts = tool != LIST_APPS;
        let idle = self.lab.idle;
        let mut state = self.lab.state();
        let free = |acting| LeaseAnswer::Admitted {
            acting,
            took_from: None,
        };
        match state.devices.get_mut(device) {
            Some(holder) if holder.session == self.session => {
                if !acts {
                    return free(None);
                }
                holder.acting += 1;
                holder.last_act = now;
                return free(Some(self.acting(device)));
            }
            Some(holder) if !holder.lapsed(idle, now) => {
                return LeaseAnswer::Busy(busy_answer(device, &holder.words));
            }
            _ if !acts => return free(None),
            _ => {}
        }
        let words = format!(
            "MCP session {} ({}), holding it since {}",
            self.session,
            shown_client_name(client),
            chrono::Utc::now().format("%H:%M:%S UTC")
        );
        let holder = Holder {
            session: self.session,
            words,
            last_act: now,
            acting: 1,
        };
        let took_from = state
            .devices
            .insert(device.to_owned(), holder)
            .map(|lapsed| lapsed.session);
        match took_from {
            Some(lapsed) => tracing::info!(
                device,
                session = self.session,
                lapsed,
                idle_secs = idle.as_secs(),
                "device lease lapsed without a call acting on the device: taken by another session"
            ),
            None => tracing::info!(device, session = self.session, "device leased"),
        }
        LeaseAnswer::Admitted {
            acting: Some(self.acting(device)),
            took_from,
        }
    }

    fn acting(&self, device: &str) -> Acting {
        Acting {
            lab: Arc::clone(&self.lab),
            device: device.to_owned(),
            session: self.session,
        }
    }
}

impl Drop for SessionLeases {
    fn drop(&mut self) {
        let mut state = self.lab.state();
        if let Some(id) = self.mcp_id.get() {
            state.by_mcp_id.remove(id);
        }
        let before = state.devices.len();
        state.devices.retain(|_, h| h.session != self.session);
        if state.devices.len() < before {
            tracing::info!(
                session = self.session,
                "session ended: its devices are free"
            );
        }
    }
}

/// A call acting on a leased device, running: the lease's idle time counts from its end.
pub struct Acting {
    lab: Arc<LabLeases>,
    device: String,
    session: u64,
}

impl Drop for Acting {
    fn drop(&mut self) {
        let mut state = self.lab.state();
        if let Some(holder) = state.devices.get_mut(&self.device) {
            if holder.session == self.session {
                holder.acting = holder.acting.saturating_sub(1);
                holder.last_act = Instant::now();
            }
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

    fn admitted(admission: LeaseAnswer) -> (Option<Acting>, Option<u64>) {
        match admission {
            LeaseAnswer::Admitted { acting, took_from } => (acting, took_from),
            LeaseAnswer::Busy(answer) => panic!("busy: {answer:?}"),
        }
    }

    fn busy(admission: LeaseAnswer) -> DeviceBusy {
        match admission {
            LeaseAnswer::Busy(answer) => {
                assert_eq!(answer.is_error, Some(true));
                serde_json::from_value(answer.structured_content.unwrap()).unwrap()
            }
            LeaseAnswer::Admitted { .. } => panic!("admitted"),
        }
    }

    #[test]
    fn one_session_holds_a_device_until_it_ends() {
        let lab = Arc::new(LabLeases::new(DEFAULT_LEASE_IDLE));
        let a = lab.session();
        let b = lab.session();
        assert!(admitted(b.admit(LIST_APPS, "sim-1", "b")).0.is_none());
        let acting = admitted(a.admit("tap_element", "sim-1", "whittle")).0;
        assert!(acting.is_some());
        drop(acting);
        admitted(a.admit("tap_element", "sim-1", "whittle"));
        let record = busy(b.admit(LIST_APPS, "sim-1", "b"));
        assert_eq!(record.error, DEVICE_BUSY);
        assert!(record.holder.contains("(whittle)"), "{}", record.holder);
        admitted(b.admit("tap_element", "sim-2", "b"));
        assert!(lab.holds_a_device(a.number()));
        drop(a);
        admitted(b.admit("tap_element", "sim-1", "b"));
    }

    #[test]
    fn a_lease_lapses_without_acting_calls_and_never_while_one_runs() {
        let lab = Arc::new(LabLeases::new(Duration::from_millis(50)));
        let (a, b) = (lab.session(), lab.session());
        let long_call = admitted(a.admit("wait_for_element", "sim-1", "a")).0;
        std::thread::sleep(Duration::from_millis(80));
        busy(b.admit("tap_element", "sim-1", "b"));
        drop(long_call);
        // Only listings (no call acting on the device) since: it lapses.
        std::thread::sleep(Duration::from_millis(80));
        admitted(a.admit(LIST_APPS, "sim-1", "a"));
        assert!(!lab.holds_a_device(a.number()));
        admitted(b.admit(LIST_APPS, "sim-1", "b"));
        let (_acting, took_from) = admitted(b.admit("tap_element", "sim-1", "b"));
        assert_eq!(took_from, Some(a.number()));
        // The lapsed holder is refused like anyone else.
        let record = busy(a.admit("tap_element", "sim-1", "a"));
        assert!(record.holder.contains("(b)"), "{}", record.holder);
    }

    #[test]
    fn a_lapsed_holder_takes_its_device_back_when_nobody_else_did() {
        let lab = Arc::new(LabLeases::new(Duration::from_millis(20)));
        let a = lab.session();
        drop(admitted(a.admit("tap_element", "sim-1", "a")));
        std::thread::sleep(Duration::from_millis(40));
        let (acting, took_from) = admitted(a.admit("tap_element", "sim-1", "a"));
        assert!(acting.is_some() && took_from.is_none());
        assert!(lab.holds_a_device(a.number()));
    }

    #[test]
    fn a_client_name_is_shown_made_safe_and_the_mcp_id_is_forgotten_at_the_end() {
        let lab = Arc::new(LabLeases::new(DEFAULT_LEASE_IDLE));
        let (a, b) = (lab.session(), lab.session());
        a.know_mcp_id("mcp-a");
        assert_eq!(lab.number_of("mcp-a"), Some(a.number()));
        let name = format!("\u{1b}[31m{}", "x".repeat(200_000));
        admitted(a.admit("tap_element", "sim-1", &name));
        let record = busy(b.admit("tap_element", "sim-1", "b"));
        assert!(!record.holder.contains('\u{1b}'), "{}", record.holder);
        assert!(record.holder.len() < 200, "{} bytes", record.holder.len());
        drop(a);
        assert_eq!(lab.number_of("mcp-a"), None);
    }
}
