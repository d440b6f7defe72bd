//! What the connected servers can do for a device: which server serves a role for it,
//! which optional tools each lists (`Role::optional_tools`), and where the device lives
//! for its lease (`device_lease`).
use whittle_contract::Role;

use super::Hub;
use crate::device_lease::{DeviceHome, DeviceKey};

impl Hub {
    /// The configured server that serves `role` for `device`: its lab host in a pool
    /// (a host serves every device role of its devices), else the role's one server.
    pub fn server_serving(&self, role: Role, device: &str) -> Option<String> {
        match &self.routes {
            Some(routes) => routes.route(device).map(|r| r.server),
            None => self.server_for(role).map(str::to_owned),
        }
    }

    /// Whether `server` listed `tool` when it started.
    pub fn lists_tool(&self, server: &str, tool: &str) -> bool {
        self.connections
            .get(server)
            .is_some_and(|c| c.tools.contains(tool))
    }

    /// The configured servers of `role` that list `tool`, in the configured order.
    pub fn servers_with_tool(&self, role: Role, tool: &str) -> Vec<String> {
        self.roles
            .get(&role)
            .map(|servers| {
                servers
                    .names()
                    .iter()
                    .filter(|name| self.lists_tool(name, tool))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Which device a lease of `device` (a pool id) is for: where its mobile server
    /// reaches it, and the id that server knows.
    pub fn device_key(&self, device: &str) -> DeviceKey {
        let server = self.server_serving(Role::Mobile, device);
        let home = server
            .as_deref()
            .and_then(|s| self.homes.get(s))
            .cloned()
            .unwrap_or(DeviceHome::ThisMachine);
        let device = self
            .device_route(device)
            .map_or_else(|| device.to_owned(), |r| r.device);
        DeviceKey { home, device }
    }
}
