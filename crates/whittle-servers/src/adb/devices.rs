//! `adb devices -l` → the mobile role's device list.
use whittle_contract::mobile::Device;

/// Parses `adb devices -l`. Lines: `<serial> <state> [key:value]...`; the header, blank
/// lines and daemon chatter (`* daemon started successfully`) are skipped.
pub fn parse_devices(output: &str) -> Vec<Device> {
    output
        .lines()
        .filter(|l| !l.starts_with("List of devices") && !l.starts_with('*'))
        .filter_map(parse_line)
        .collect()
}

fn parse_line(line: &str) -> Option<Device> {
    let mut words = line.split_whitespace();
    let serial = words.next()?;
    let state = words.next()?;
    let mut model = None;
    let mut product = "";
    for w in words {
        if let Some(v) = w.strip_prefix("model:") {
            model = Some(v.replace('_', " "));
        } else if let Some(v) = w.strip_prefix("product:") {
            product = v;
        }
    }
    // Local emulators are `emulator-<port>`; an emulator reached over TCP keeps its
    // `sdk_gphone*` product name.
    let emulator = serial.starts_with("emulator-") || product.starts_with("sdk_");
    Some(Device {
        id: serial.to_string(),
        name: model.unwrap_or_else(|| serial.to_string()),
        platform: "android".into(),
        device_type: if emulator { "emulator" } else { "real" }.into(),
        state: match state {
            "device" => "online".to_string(),
            other => other.to_string(),
        },
        // Read per device with `getprop` (see `Backend::devices`).
        version: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_models_and_kinds_are_read() {
        let out = "* daemon not running; starting now at tcp:5037\n\
                   * daemon started successfully\n\
                   List of devices attached\n\
                   emulator-5554          device product:sdk_gphone64_x86_64 model:sdk_gphone64_x86_64 device:emu64x transport_id:1\n\
                   R58M123ABC             unauthorized usb:1-1 transport_id:2\n\
                   192.168.1.20:5555      offline product:panther model:Pixel_7 device:panther transport_id:3\n\
                   10.0.2.2:5557          device product:sdk_gphone_x86 model:sdk_gphone_x86 transport_id:4\n\n";
        let d = parse_devices(out);
        assert_eq!(d.len(), 4);
        assert_eq!(
            (
                d[0].id.as_str(),
                d[0].name.as_str(),
                d[0].device_type.as_str(),
                d[0].state.as_str()
            ),
            ("emulator-5554", "sdk gphone64 x86 64", "emulator", "online")
        );
        assert_eq!(
            (
                d[1].name.as_str(),
                d[1].device_type.as_str(),
                d[1].state.as_str()
            ),
            ("R58M123ABC", "real", "unauthorized")
        );
        assert_eq!(
            (
                d[2].name.as_str(),
                d[2].device_type.as_str(),
                d[2].state.as_str()
            ),
            ("Pixel 7", "real", "offline")
        );
        assert_eq!(d[3].device_type, "emulator");
        assert!(d.iter().all(|x| x.platform == "android"));
    }

    #[test]
    fn no_devices_is_an_empty_list() {
        assert!(parse_devices("List of devices attached\n\n").is_empty());
    }
}
