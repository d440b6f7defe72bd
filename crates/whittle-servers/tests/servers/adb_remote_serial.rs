//! Remote adb (`adb connect host:port`, a device farm's remote debug address): the adb
//! server lists, accepts and drives such serials, also when it is itself served over
//! HTTP for a pool on another machine; malformed ones never reach adb.
use crate::answer_support;
use crate::listen_support;
use crate::support;

use serde_json::json;
use support::{FakeAdb, PKG};
use whittle_contract::mobile;

const FARM: &str = "stf.lab.example:7401";
const WIFI: &str = "192.168.1.20:5555";

fn farm_devices(fake: &mut FakeAdb) {
    fake.on(
        &["devices", "-l"],
        vec![json!({"stdout": format!("List of devices attached\n\
            {WIFI} device product:panther model:Pixel_7 transport_id:3\n\
            {FARM} device product:oriole model:Pixel_6 transport_id:4\n\n")})],
    );
}

#[tokio::test]
async fn a_host_port_serial_is_listed_accepted_and_named_to_adb() {
    let mut fake = FakeAdb::new();
    farm_devices(&mut fake);
    fake.on(
        &["-s", FARM, "shell", "am", "force-stop", PKG],
        vec![json!({"stdout": ""})],
    );
    let client = fake.start(&["--serial", FARM]).await;
    let v = support::call_ok(&client, mobile::LIST_DEVICES, json!({})).await;
    assert_eq!(v["devices"].as_array().unwrap().len(), 1);
    assert_eq!(v["devices"][0]["id"], FARM);
    assert_eq!(v["devices"][0]["name"], "Pixel 6");
    support::call_ok(
        &client,
        mobile::TERMINATE_APP,
        json!({"device": FARM, "packageName": PKG}),
    )
    .await;
    assert!(fake.calls().contains(
        &["-s", FARM, "shell", "am", "force-stop", PKG]
            .map(String::from)
            .to_vec()
    ));
    // The other farm device is not this server's to drive.
    let msg = support::call_err(
        &client,
        mobile::TERMINATE_APP,
        json!({"device": WIFI, "packageName": PKG}),
    )
    .await;
    assert!(msg.contains(WIFI), "{msg}");
    // A colon form that is not host:port never reaches adb.
    let before = fake.calls().len();
    let msg = support::call_err(
        &client,
        mobile::TERMINATE_APP,
        json!({"device": "a:b:5555", "packageName": PKG}),
    )
    .await;
    assert!(msg.contains("a:b:5555"), "{msg}");
    assert_eq!(fake.calls().len(), before);
}

#[test]
fn a_malformed_remote_serial_is_refused_at_start() {
    for bad in ["host:0", "host:99999", "a:b:1"] {
        let (code, _, err) = listen_support::run_to_end(&["adb", "--serial", bad], &[]);
        assert_eq!(code, Some(2), "{bad}: {err}");
        assert!(err.contains(bad), "{err}");
    }
}

#[tokio::test]
async fn the_adb_server_serves_farm_devices_over_http() {
    let mut fake = FakeAdb::new();
    farm_devices(&mut fake);
    let dir = fake.dir.path().to_str().unwrap().to_string();
    let log = fake.log.to_str().unwrap().to_string();
    let server = listen_support::Listening::start(
        &[
            "adb",
            "--adb",
            env!("CARGO_BIN_EXE_fake-adb"),
            "--listen",
            "127.0.0.1:0",
        ],
        &[
            ("WHITTLE_SERVER_TOKEN", listen_support::TOKEN),
            ("FAKE_ADB_DIR", &dir),
            ("FAKE_ADB_LOG", &log),
        ],
    );
    let client = listen_support::connect(
        &server.url,
        Some(listen_support::TOKEN),
        listen_support::plain_client(),
    )
    .await
    .unwrap();
    let v = listen_support::call(&client, mobile::LIST_DEVICES, json!({})).await;
    let ids = answer_support::device_ids(&v);
    assert_eq!(ids, [WIFI, FARM]);
    client.cancel().await.unwrap();
}
