//! Typing text that `input text` cannot (accents, CJK, emoji) through the ADBKeyBoard
//! input method (github.com/senzhk/ADBKeyBoard), when the device has it installed.
//!
//! The text travels base64-encoded in an `am broadcast` extra: the base64 alphabet has no
//! character the device shell interprets, so no quoting of user text is involved at all.
//! The user's own keyboard is switched back afterwards, whatever happened.

use base64::Engine;

/// The IME's component name as `ime` lists it.
pub const ADB_KEYBOARD_IME: &str = "com.android.adbkeyboard/.AdbIME";

/// The broadcast action ADBKeyBoard types the base64 `msg` extra of.
pub const BROADCAST_B64: &str = "ADB_INPUT_B64";

/// `true` when `ime list -a -s` output names ADBKeyBoard.
pub fn is_installed(ime_list: &str) -> bool {
    ime_list.lines().any(|l| l.trim() == ADB_KEYBOARD_IME)
}

/// The message extra for `text`.
pub fn encode(text: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(text.as_bytes())
}

/// The device's current IME from `settings get secure default_input_method`, if it is a
/// plain component name (it goes back to the device shell, so nothing else is accepted).
pub fn parse_current_ime(output: &str) -> Option<String> {
    let ime = output.trim();
    let (package, class) = ime.split_once('/')?;
    let plain = |s: &str, extra: &[u8]| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'_' || extra.contains(&b))
    };
    (plain(package, b"") && plain(class, b"$")).then(|| ime.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_the_ime_in_a_listing() {
        let listing = "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME\ncom.android.adbkeyboard/.AdbIME\n";
        assert!(is_installed(listing));
        assert!(!is_installed(
            "com.google.android.inputmethod.latin/.LatinIME\n"
        ));
        assert!(!is_installed("com.android.adbkeyboard/.AdbIMEx\n"));
    }

    #[test]
    fn encoded_text_uses_only_shell_inert_characters() {
        for text in ["Conclusão", "购物车 🛒", "'; reboot; $(x)", "a\u{0}b"] {
            let b64 = encode(text);
            assert!(b64
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=')));
            let back = base64::engine::general_purpose::STANDARD
                .decode(&b64)
                .unwrap();
            assert_eq!(back, text.as_bytes());
        }
    }

    #[test]
    fn only_a_plain_component_name_is_restored() {
        assert_eq!(
            parse_current_ime(
                "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME\n"
            )
            .as_deref(),
            Some("com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME")
        );
        assert_eq!(
            parse_current_ime("com.x/.Ime$Inner").as_deref(),
            Some("com.x/.Ime$Inner")
        );
        for bad in [
            "null",
            "",
            "com.x/.Ime; reboot",
            "com.x/.I me",
            "/.Ime",
            "com.x/",
        ] {
            assert_eq!(parse_current_ime(bad), None, "{bad:?}");
        }
    }
}
