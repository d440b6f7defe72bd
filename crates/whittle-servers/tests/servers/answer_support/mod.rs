//! Reading the device tools' answers the same way in every test that lists devices.

use serde_json::Value;

/// The ids of a `mobile_list_available_devices` answer, in its order.
pub fn device_ids(answer: &Value) -> Vec<&str> {
    answer["devices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["id"].as_str().unwrap())
        .collect()
}
