use whittle_mcp::client::{check_roles, RoleStatus};
use whittle_mcp::config::Config;

use crate::exit::Exit;

/// Each role: does its server start and list the tools? Then the devices.
pub async fn run(config: &Config) -> Exit {
    println!("config: {}", config.path.display());
    println!("workspace: {}", config.workspace.display());
    let mut problems = 0;
    for check in check_roles(config).await {
        let server = check.server.as_deref().unwrap_or("-");
        match &check.status {
            RoleStatus::Ok => println!("ok       {:<8} ({server})", check.role.as_str()),
            RoleStatus::Problem { problem, fix } => {
                problems += 1;
                println!(
                    "PROBLEM  {:<8} ({server}): {problem}\n         fix: {fix}",
                    check.role.as_str()
                );
            }
        }
    }
    if problems > 0 {
        return Exit::Usage;
    }
    let hub = match super::connect(config).await {
        Ok(hub) => hub,
        Err(exit) => return exit,
    };
    let exit = match hub.mobile().list_devices().await {
        Ok(list) if list.devices.is_empty() => {
            println!("PROBLEM  devices: none listed\n         fix: connect an Android device or start the simulator");
            Exit::Infrastructure
        }
        Ok(list) => {
            for d in list.devices {
                println!(
                    "device   {}  {}  {}  {}",
                    d.id, d.platform, d.device_type, d.state
                );
            }
            Exit::Live
        }
        Err(e) => {
            println!("PROBLEM  devices: {e}\n         fix: check the mobile role's server");
            Exit::Infrastructure
        }
    };
    hub.shutdown().await;
    exit
}
