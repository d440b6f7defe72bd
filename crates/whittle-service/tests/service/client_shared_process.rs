//! Run in a process of its own (`alone`): it counts this process's children.
use crate::alone;
use crate::client_support;

use std::time::{Duration, Instant};

use client_support::{alive, servers_bin, setup};
use whittle_contract::ui::{By, Strategy};
use whittle_service::client::Hub;

fn children_of_this_process() -> Vec<u32> {
    let me = std::process::id().to_string();
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|s| {
                    s.rsplit(')')
                        .next()
                        .map(|rest| rest.split_whitespace().nth(1) == Some(me.as_str()))
                })
                .unwrap_or(false)
        })
        .filter(|pid| alive(*pid))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn roles_sharing_a_server_start_it_once_and_every_facade_works() {
    if !alone::in_own_process(
        "client_shared_process::roles_sharing_a_server_start_it_once_and_every_facade_works",
    ) {
        return;
    }
    let Some(bin) = servers_bin() else { return };
    let s = setup(&bin, &[], 30_000, |_| {});
    let hub = Hub::connect(&s.config).await.unwrap();

    let pids = hub.server_pids();
    assert_eq!(pids.len(), 2, "{pids:?}");
    let pids: Vec<u32> = pids.values().map(|p| p.unwrap()).collect();
    assert_ne!(pids[0], pids[1]);
    let mut children = children_of_this_process();
    children.sort();
    let mut expected = pids.clone();
    expected.sort();
    assert_eq!(children, expected, "exactly the two configured servers run");

    let devices = hub.mobile().list_devices().await.unwrap();
    let ids: Vec<_> = devices.devices.iter().map(|d| d.id.as_str()).collect();
    assert_eq!(ids, ["sim-1", "sim-2"]);
    let apps = hub.mobile().list_apps("sim-1").await.unwrap();
    assert!(apps
        .apps
        .iter()
        .any(|a| a.package == "com.example.shop" && !a.system));
    hub.mobile()
        .launch_app("sim-1", "com.example.shop")
        .await
        .unwrap();
    let tree = hub.ui().get_hierarchy("sim-1").await.unwrap();
    assert!(tree
        .elements
        .iter()
        .any(|e| e.resource_id == "com.example.shop:id/btn_cart"));
    let cart = [Strategy::new(
        By::Identifier,
        "com.example.shop:id/btn_cart",
    )];
    assert!(
        hub.ui()
            .wait_for_element("sim-1", &cart, 1000)
            .await
            .unwrap()
            .found
    );
    assert!(
        hub.ui()
            .tap_element("sim-1", &cart, 0)
            .await
            .unwrap()
            .tapped
    );
    let shot = s.dir.path().join("shot.png");
    let saved = hub
        .mobile()
        .save_screenshot("sim-1", shot.to_str().unwrap())
        .await
        .unwrap();
    assert_eq!(
        image::image_dimensions(&shot).unwrap(),
        (saved.width, saved.height)
    );
    hub.log().clear_logs("sim-1").await.unwrap();
    let crashes = hub
        .log()
        .get_recent_crashes("sim-1", Some("com.example.shop"))
        .await
        .unwrap();
    assert_eq!(crashes.count, 0);
    assert!(hub.log().list_captures().await.unwrap().captures.is_empty());

    let sessions = hub.report().list_sessions().await.unwrap();
    assert!(sessions.sessions.is_empty());
    let sig = hub
        .analyzer()
        .compute_signature(
            "java.lang.NullPointerException: x\n\tat com.example.shop.CheckoutActivity.onClick(CheckoutActivity.java:42)",
            None,
        )
        .await
        .unwrap();
    assert_eq!(sig.fingerprint.as_deref().map(str::len), Some(12));

    hub.shutdown().await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while pids.iter().any(|p| alive(*p)) && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        pids.iter().all(|p| !alive(*p)),
        "servers still running after shutdown"
    );
}
