//! Turning typed text into arguments for the device command `input text`.
//!
//! Why escaping is needed even though we pass an argv: adb does not forward an argument
//! vector. `adb shell input text X` joins the words after `shell` with spaces into ONE
//! string and hands it to the device's `/system/bin/sh`, which parses it again. Unescaped,
//! `; reboot` or `$(...)` in a text field would run on the device. So every chunk is
//! wrapped in single quotes (inside which a POSIX shell interprets nothing), with a
//! literal `'` written as `'\''`.
//!
//! Then `input text` itself rewrites `%s` to a space (it cannot take a literal space on
//! older releases), so spaces are sent as `%s`. A literal `%s` in the text would be
//! rewritten too; it is typed in two calls (`…%` then `s…`) so the pair never meets.
//!
//! `input text` injects key events from the virtual keyboard's character map, which holds
//! printable ASCII only; other characters (accents, emoji, CJK, control characters) are
//! refused before anything is typed, rather than typed in part.

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Untypeable {
    #[error("adb `input text` can only type printable ASCII; this text has a non-ASCII character")]
    NonAscii,
    #[error("adb `input text` cannot type control characters (newline, tab, ...)")]
    Control,
}

/// The shell words to pass as `input text <word>`, one `input` call per word, in order.
/// Empty text needs no call.
pub fn input_text_words(text: &str) -> Result<Vec<String>, Untypeable> {
    if let Some(c) = text.chars().find(|c| !c.is_ascii() || c.is_ascii_control()) {
        return Err(if c.is_ascii() {
            Untypeable::Control
        } else {
            Untypeable::NonAscii
        });
    }
    Ok(split_percent_s(text)
        .into_iter()
        .map(|chunk| single_quote(&chunk.replace(' ', "%s")))
        .collect())
}

/// Splits so that no chunk contains a literal `%s`.
fn split_percent_s(text: &str) -> Vec<String> {
    let mut chunks = Vec::new();
    let mut current = String::new();
    for c in text.chars() {
        if c == 's' && current.ends_with('%') {
            chunks.push(std::mem::take(&mut current));
        }
        current.push(c);
    }
    if !current.is_empty() {
        chunks.push(current);
    }
    chunks
}

fn single_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the device does with one word: the shell removes the quoting (only `'…'` and
    /// `\'` between quoted runs occur in our output), then `input` turns `%s` into spaces
    /// (Java `replaceAll("%s", " ")`, left to right).
    fn device_types(word: &str) -> String {
        let mut unquoted = String::new();
        let mut chars = word.chars().peekable();
        let mut in_quote = false;
        while let Some(c) = chars.next() {
            match (c, in_quote) {
                ('\'', _) => in_quote = !in_quote,
                ('\\', false) => unquoted.extend(chars.next()),
                (c, true) => unquoted.push(c),
                (c, false) => panic!("unquoted {c:?} in {word:?} reaches the shell"),
            }
        }
        assert!(!in_quote, "unbalanced quote in {word:?}");
        unquoted.replace("%s", " ")
    }

    fn typed(text: &str) -> String {
        input_text_words(text)
            .unwrap()
            .iter()
            .map(|w| device_types(w))
            .collect()
    }

    #[test]
    fn every_string_over_the_tricky_alphabet_round_trips() {
        // Every string up to length 5 over the characters that interact: quote, escape,
        // percent, 's', space, and shell metacharacters.
        let alphabet = ['%', 's', ' ', '\'', '"', '\\', '$', ';', 'a'];
        let mut frontier = vec![String::new()];
        for _ in 0..5 {
            let mut next = Vec::new();
            for prefix in &frontier {
                for c in alphabet {
                    let s = format!("{prefix}{c}");
                    assert_eq!(typed(&s), s, "{s:?} -> {:?}", input_text_words(&s));
                    next.push(s);
                }
            }
            frontier = next;
        }
    }

    #[test]
    fn every_printable_ascii_character_round_trips_alone_and_in_pairs() {
        let printable: Vec<char> = (0x20u8..0x7f).map(char::from).collect();
        for &a in &printable {
            for &b in &printable {
                let s = format!("{a}{b}");
                assert_eq!(typed(&s), s);
            }
        }
    }

    #[test]
    fn a_posix_shell_reads_every_word_back_literally() {
        // The device shell (mksh/toybox sh) and dash agree on single quotes: prove the
        // words with a real shell. The words are our own constants, not session data.
        let samples = [
            "; rm -rf / && $(x) 'q' \"d\"",
            "`id` | cat > /sdcard/x &",
            "a'b''c'''",
            "back\\slash \\' \\\\",
            "glob * ? [a-z] ~ #comment",
            "%s and %%s and 50% sure",
            "{brace,expansion} !history",
        ];
        for text in samples {
            let words = input_text_words(text).unwrap();
            let script = format!("printf '%s\\0' {}", words.join(" "));
            let out = std::process::Command::new("sh")
                .arg("-c")
                .arg(&script)
                .output()
                .expect("sh");
            assert!(out.status.success(), "{script}");
            let parsed: Vec<String> = String::from_utf8(out.stdout)
                .unwrap()
                .split_terminator('\0')
                .map(|w| w.replace("%s", " "))
                .collect();
            assert_eq!(parsed.len(), words.len(), "{script}");
            assert_eq!(parsed.concat(), text);
        }
    }

    #[test]
    fn spaces_become_percent_s_and_literal_percent_s_is_split() {
        assert_eq!(input_text_words("a b").unwrap(), ["'a%sb'"]);
        assert_eq!(input_text_words("a%sb").unwrap(), ["'a%'", "'sb'"]);
        assert_eq!(input_text_words("it's").unwrap(), [r"'it'\''s'"]);
        assert!(input_text_words("").unwrap().is_empty());
    }

    #[test]
    fn non_ascii_and_control_characters_are_refused_whole() {
        assert_eq!(input_text_words("Conclusão"), Err(Untypeable::NonAscii));
        assert_eq!(input_text_words("49°F"), Err(Untypeable::NonAscii));
        assert_eq!(input_text_words("日本"), Err(Untypeable::NonAscii));
        assert_eq!(input_text_words("line\nnext"), Err(Untypeable::Control));
        assert_eq!(input_text_words("tab\t"), Err(Untypeable::Control));
        assert_eq!(input_text_words("del\u{7f}"), Err(Untypeable::Control));
    }
}
