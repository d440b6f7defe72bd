//! Where each device of a pool lives when the device roles span several servers (one
//! per lab host): pool ids, qualified as `server/id` only when two servers list the
//! same id, map back to their server and the id that server knows; each log capture
//! is remembered with the server it was started on, so it is listed and stopped there.
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Mutex, MutexGuard};

use whittle_contract::mobile::Device;

/// A device as its own server knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceRoute {
    pub server: String,
    pub device: String,
}

#[derive(Default)]
struct Known {
    devices: BTreeMap<String, DeviceRoute>,
    captures: BTreeMap<String, String>,
}

pub(crate) struct DeviceRoutes {
    /// The device roles' servers, in the configured order.
    servers: Vec<String>,
    known: Mutex<Known>,
}

impl DeviceRoutes {
    pub(crate) fn new(servers: Vec<String>) -> DeviceRoutes {
        DeviceRoutes {
            servers,
            known: Mutex::new(Known::default()),
        }
    }

    pub(crate) fn servers(&self) -> &[String] {
        &self.servers
    }

    fn known(&self) -> MutexGuard<'_, Known> {
        // The maps stay consistent whatever panicked while holding the lock.
        self.known.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The union of each server's list, in server order, with pool ids; remembers
    /// every route (a device no longer listed keeps its route: a call to it then fails
    /// at its server, which names the problem).
    pub(crate) fn learn(&self, listed: Vec<(String, Vec<Device>)>) -> Vec<Device> {
        let mut seen = BTreeMap::<String, usize>::new();
        for (_, devices) in &listed {
            let unique: BTreeSet<&str> = devices.iter().map(|d| d.id.as_str()).collect();
            for id in unique {
                *seen.entry(id.to_string()).or_default() += 1;
            }
        }
        let mut known = self.known();
        let mut union = Vec::new();
        for (server, devices) in listed {
            for mut device in devices {
                let raw = device.id.clone();
                if seen.get(&raw).copied().unwrap_or(0) > 1 {
                    device.id = format!("{server}/{raw}");
                }
                known.devices.insert(
                    device.id.clone(),
                    DeviceRoute {
                        server: server.clone(),
                        device: raw,
                    },
                );
                union.push(device);
            }
        }
        union
    }

    /// The route of a pool id: learned from a listing, else `server/id` naming one of
    /// the pool's servers.
    pub(crate) fn route(&self, pool_id: &str) -> Option<DeviceRoute> {
        if let Some(route) = self.known().devices.get(pool_id) {
            return Some(route.clone());
        }
        let (server, device) = pool_id.split_once('/')?;
        (self.servers.iter().any(|s| s == server) && !device.is_empty()).then(|| DeviceRoute {
            server: server.to_string(),
            device: device.to_string(),
        })
    }

    /// Pool ids whose server knows them as `raw` (a session recorded before the pool
    /// qualified its ids names the device unqualified), in server order.
    pub(crate) fn pool_ids_for(&self, raw: &str) -> Vec<String> {
        let known = self.known();
        let mut ids: Vec<(usize, String)> = known
            .devices
            .iter()
            .filter(|(_, r)| r.device == raw)
            .map(|(id, r)| {
                let at = self.servers.iter().position(|s| *s == r.server);
                (at.unwrap_or(usize::MAX), id.clone())
            })
            .collect();
        ids.sort();
        ids.into_iter().map(|(_, id)| id).collect()
    }

    pub(crate) fn record_capture(&self, session_id: &str, server: &str) {
        self.known()
            .captures
            .insert(session_id.to_string(), server.to_string());
    }

    pub(crate) fn capture_server(&self, session_id: &str) -> Option<String> {
        self.known().captures.get(session_id).cloned()
    }

    /// The servers holding a capture this client started, in server order; all of them
    /// when none was started yet.
    pub(crate) fn capture_servers(&self) -> Vec<String> {
        let known = self.known();
        let holding: BTreeSet<&String> = known.captures.values().collect();
        if holding.is_empty() {
            return self.servers.clone();
        }
        self.servers
            .iter()
            .filter(|s| holding.contains(s))
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn device(id: &str) -> Device {
        Device {
            id: id.into(),
            name: id.into(),
            platform: "android".into(),
            device_type: "emulator".into(),
            state: "online".into(),
            version: None,
        }
    }

    fn routes() -> DeviceRoutes {
        DeviceRoutes::new(vec!["labA".into(), "labB".into()])
    }

    #[test]
    fn only_colliding_ids_are_qualified_and_each_routes_home() {
        let r = routes();
        let union = r.learn(vec![
            ("labA".into(), vec![device("sim-1"), device("R58M")]),
            (
                "labB".into(),
                vec![device("sim-1"), device("10.0.0.7:5555")],
            ),
        ]);
        let ids: Vec<&str> = union.iter().map(|d| d.id.as_str()).collect();
        assert_eq!(ids, ["labA/sim-1", "R58M", "labB/sim-1", "10.0.0.7:5555"]);
        let home = |id: &str| r.route(id).map(|x| (x.server, x.device));
        assert_eq!(home("labB/sim-1"), Some(("labB".into(), "sim-1".into())));
        assert_eq!(
            home("10.0.0.7:5555"),
            Some(("labB".into(), "10.0.0.7:5555".into()))
        );
        assert_eq!(home("R58M"), Some(("labA".into(), "R58M".into())));
        assert_eq!(home("sim-1"), None, "ambiguous raw ids have no route");
        assert_eq!(r.pool_ids_for("sim-1"), ["labA/sim-1", "labB/sim-1"]);
        // Qualified ids route without a listing; unknown servers do not.
        assert_eq!(
            home("labB/emulator-5554"),
            Some(("labB".into(), "emulator-5554".into()))
        );
        assert_eq!(home("labC/x"), None);
        assert_eq!(home("labA/"), None);
    }

    #[test]
    fn captures_are_listed_and_stopped_where_they_started() {
        let r = routes();
        assert_eq!(r.capture_servers(), ["labA", "labB"]);
        r.record_capture("ev@labB/sim-1", "labB");
        assert_eq!(r.capture_server("ev@labB/sim-1").as_deref(), Some("labB"));
        assert_eq!(r.capture_servers(), ["labB"]);
        assert_eq!(r.capture_server("other"), None);
    }
}
