//! What the client reads from the mobile role must read from the public mobile-mcp
//! server's answers (`tests/fixtures/mobile_mcp/`, sources in its SOURCES.md): each is
//! wrapped the way mobile-mcp sends it, as one text block and nothing else.
use rmcp::model::{CallToolResult, ContentBlock};
use whittle_contract::mobile::DeviceList;

use super::decode::{decode, tool_error};
use super::prose::{read_apps, read_screenshot};
use super::McpErrorKind;

fn fixture(name: &str) -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/mobile_mcp/"
    );
    std::fs::read_to_string(format!("{path}{name}"))
        .unwrap_or_else(|e| panic!("fixture {name}: {e}"))
}

/// A mobile-mcp answer: one text block, no `structuredContent`, no `isError`.
fn answer(text: &str) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text)])
}

#[test]
fn list_available_devices() {
    let d = decode::<DeviceList>(&answer(&fixture(
        "list_available_devices_output_DERIVED.json",
    )))
    .unwrap();
    let device = &d.value.devices[0];
    assert_eq!(
        (
            device.id.as_str(),
            device.platform.as_str(),
            device.state.as_str()
        ),
        ("Codex_API_36", "android", "online")
    );
    assert_eq!(device.device_type, "emulator");
    // mobile-mcp's `version` is the contract's optional OS version: read as it is.
    assert_eq!(device.version.as_deref(), Some("16"));
    assert!(d.tolerated.is_empty(), "{:?}", d.tolerated);

    let empty = decode::<DeviceList>(&answer(&fixture(
        "list_available_devices_output_empty_DERIVED.json",
    )))
    .unwrap();
    assert!(empty.value.devices.is_empty());
    assert_eq!(empty.tolerated[0].field, "hint");
}

#[test]
fn list_apps() {
    let d = read_apps(&answer(&fixture("list_apps_output_DERIVED.txt"))).unwrap();
    let packages: Vec<_> = d.value.apps.iter().map(|a| a.package.as_str()).collect();
    assert_eq!(
        packages,
        [
            "com.mobilenext.playground",
            "com.android.chrome",
            "com.google.android.apps.maps"
        ]
    );
    assert!(d
        .value
        .apps
        .iter()
        .all(|a| !a.system && a.version_code.is_none()));
}

#[test]
fn save_screenshot() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("attempt-001.png");
    image::RgbImage::new(108, 240).save(&path).unwrap();
    let path = path.to_string_lossy().to_string();
    let text = fixture("save_screenshot_output_TEMPLATE.txt").replace("${saveTo}", &path);
    let d = read_screenshot(&answer(&text), &path).unwrap();
    assert_eq!(
        (d.value.path.as_str(), d.value.width, d.value.height),
        (path.as_str(), 108, 240)
    );
}

#[test]
fn unit_tools_succeed_on_prose_and_fail_on_actionable_errors() {
    for ok in [
        "launch_app_output_DERIVED.txt",
        "press_button_output_DERIVED.txt",
    ] {
        assert_eq!(tool_error(&answer(&fixture(ok))), None, "{ok}");
    }
    let err = tool_error(&answer(&fixture(
        "device_not_found_actionable_error_DERIVED.txt",
    )));
    assert!(
        matches!(&err, Some(McpErrorKind::ToolError(m)) if m.contains("emulator-5554")),
        "{err:?}"
    );
}
