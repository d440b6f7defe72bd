//! The hub's side of a device pool across lab hosts: listing devices and captures on
//! every host, and sending each device call to the host that owns the device. With a
//! single server per device role none of this applies and calls go out unchanged.
use serde_json::Value;
use whittle_contract::log::{CaptureList, LIST_CAPTURES, START_CAPTURE};
use whittle_contract::mobile::{DeviceList, LIST_DEVICES};
use whittle_contract::{NoArgs, Role};

use super::routing::{DeviceRoute, DeviceRoutes};
use super::{Hub, McpError, McpErrorKind};
use crate::config::DEVICE_ROLES;

impl Hub {
    /// Every mobile server's devices, ids qualified by server where two hosts list the
    /// same id; the routes are remembered for the calls that follow.
    pub(super) async fn list_devices_routed(&self) -> Result<DeviceList, McpError> {
        match &self.routes {
            Some(routes) => self.list_pool_devices(routes).await,
            None => {
                self.call_typed(Role::Mobile, LIST_DEVICES, &NoArgs {}, 0)
                    .await
            }
        }
    }

    /// Only `call_on`, never the routed path: routing itself may need a listing.
    async fn list_pool_devices(&self, routes: &DeviceRoutes) -> Result<DeviceList, McpError> {
        let mut listed = Vec::with_capacity(routes.servers().len());
        for server in routes.servers() {
            let list: DeviceList = self
                .call_on(Role::Mobile, server, LIST_DEVICES, &NoArgs {})
                .await?;
            listed.push((server.clone(), list.devices));
        }
        Ok(DeviceList {
            devices: routes.learn(listed),
        })
    }

    /// The captures of every log server that holds one of ours (all of them before
    /// the first capture starts).
    pub(super) async fn list_captures_routed(&self) -> Result<CaptureList, McpError> {
        let Some(routes) = &self.routes else {
            return self
                .call_typed(Role::Log, LIST_CAPTURES, &NoArgs {}, 0)
                .await;
        };
        let mut captures = Vec::new();
        for server in routes.capture_servers() {
            let list: CaptureList = self
                .call_on(Role::Log, &server, LIST_CAPTURES, &NoArgs {})
                .await?;
            captures.extend(list.captures);
        }
        Ok(CaptureList { captures })
    }

    /// The server a device call goes to (`None`: the role's only server), with
    /// `args.device` rewritten to the id that server knows. A `start_capture` is
    /// remembered with its server, so `stop_capture` of that session goes there too.
    pub(super) async fn route_call(
        &self,
        role: Role,
        tool: &str,
        args: &mut Value,
    ) -> Result<Option<String>, McpError> {
        let Some(routes) = &self.routes else {
            return Ok(None);
        };
        if !DEVICE_ROLES.contains(&role) {
            return Ok(None);
        }
        let Some(obj) = args.as_object_mut() else {
            return Ok(None);
        };
        if let Some(device) = obj
            .get("device")
            .and_then(Value::as_str)
            .map(str::to_string)
        {
            let route = match routes.route(&device) {
                Some(route) => route,
                // Not listed yet (a device named on the command line): list, then retry.
                None => {
                    self.list_pool_devices(routes).await?;
                    routes.route(&device).ok_or_else(|| McpError {
                        role,
                        server: routes.servers().join(", "),
                        tool: tool.to_string(),
                        kind: McpErrorKind::UnknownDevice(format!(
                            "{device:?} is listed by none of the servers {}",
                            routes.servers().join(", ")
                        )),
                    })?
                }
            };
            if tool == START_CAPTURE {
                if let Some(session) = obj.get("session_id").and_then(Value::as_str) {
                    routes.record_capture(session, &route.server);
                }
            }
            obj.insert("device".into(), Value::String(route.device));
            return Ok(Some(route.server));
        }
        Ok(obj
            .get("session_id")
            .and_then(Value::as_str)
            .and_then(|session| routes.capture_server(session)))
    }

    /// The configured server a device belongs to: its lab host in a pool, else the
    /// mobile role's server. For evidence and the app's pool list.
    pub fn device_server(&self, device: &str) -> Option<String> {
        self.server_serving(Role::Mobile, device)
    }

    /// A pool device's server and the id that server knows (`None` outside a pool).
    pub fn device_route(&self, device: &str) -> Option<DeviceRoute> {
        self.routes.as_ref().and_then(|r| r.route(device))
    }

    /// Pool ids of the devices some server knows as `raw`, in server order (empty
    /// outside a pool). Only meaningful after the devices were listed.
    pub fn pool_ids_for(&self, raw: &str) -> Vec<String> {
        self.routes
            .as_ref()
            .map(|r| r.pool_ids_for(raw))
            .unwrap_or_default()
    }
}
