//! mobile-mcp's button names → Android key codes (`input keyevent <code>`).

/// Key code of a button name (case-insensitive), as in `KeyEvent.KEYCODE_*`.
pub fn key_code(button: &str) -> Option<u32> {
    let code = match button.to_ascii_uppercase().as_str() {
        "HOME" => 3,
        "BACK" => 4,
        "DPAD_UP" => 19,
        "DPAD_DOWN" => 20,
        "DPAD_LEFT" => 21,
        "DPAD_RIGHT" => 22,
        "DPAD_CENTER" => 23,
        "VOLUME_UP" => 24,
        "VOLUME_DOWN" => 25,
        "ENTER" => 66,
        _ => return None,
    };
    Some(code)
}

#[cfg(test)]
mod tests {
    use super::key_code;

    #[test]
    fn names_map_to_android_key_codes() {
        assert_eq!(key_code("BACK"), Some(4));
        assert_eq!(key_code("back"), Some(4));
        assert_eq!(key_code("HOME"), Some(3));
        assert_eq!(key_code("ENTER"), Some(66));
        assert_eq!(key_code("4"), None);
        assert_eq!(key_code("POWER"), None);
    }
}
