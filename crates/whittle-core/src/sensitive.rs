//! Heuristics that decide whether an element key, an input value or a piece of UI text
//! is private: credentials, one-time codes, payment data or personal contact data.
//!
//! They err on the side of caution: a false positive only costs a skipped step or an
//! extra mask, a false negative leaks a secret into evidence that gets shared.
//! Keys are judged by their *words* (so `login_password` and `etPassword` match but
//! `spinner` does not contain "pin"); values and text by their *shape* (e-mail, phone,
//! Luhn-valid card number, token/JWT, password-like string).

use std::sync::LazyLock;

use regex::Regex;

/// Words that name a sensitive field when they appear as a whole segment of a key.
const SENSITIVE_WORDS: &[&str] = &[
    "password",
    "passwd",
    "pwd",
    "passcode",
    "passphrase",
    "pin",
    "otp",
    "totp",
    "token",
    "secret",
    "apikey",
    "credential",
    "credentials",
    "card",
    "creditcard",
    "cardnumber",
    "cvv",
    "cvc",
    "iban",
    "ssn",
    "email",
    "phone",
    "phonenumber",
    "mobile",
    "tel",
    "msisdn",
];

/// Adjacent segment pairs that together name a sensitive field (`api_key`, `e-mail`).
const SENSITIVE_PAIRS: &[(&str, &str)] = &[
    ("api", "key"),
    ("e", "mail"),
    ("private", "key"),
    ("access", "key"),
    ("security", "code"),
    ("auth", "code"),
];

/// Words unambiguous enough to count even inside a longer segment (`loginpassword`).
const EMBEDDED_WORDS: &[&str] = &[
    "password",
    "passwd",
    "passcode",
    "secret",
    "email",
    "creditcard",
    "cardnumber",
    "phonenumber",
];

/// Words that make a short run of digits look like a one-time code rather than a count.
const CODE_HINT_WORDS: &[&str] = &[
    "code",
    "verify",
    "verification",
    "sms",
    "auth",
    "mfa",
    "twofa",
    "security",
];

/// Does this element key (resource id, `text:…` or `label:…` key, or a field name)
/// name a field that holds private data? Only the part after the package
/// (`com.x:id/`) is judged, so a package called `com.bank.mobile` is not enough.
pub fn looks_sensitive_key(s: &str) -> bool {
    let segments = key_segments(s);
    segments
        .iter()
        .any(|seg| SENSITIVE_WORDS.contains(&seg.as_str()))
        || segments
            .windows(2)
            .any(|pair| SENSITIVE_PAIRS.contains(&(pair[0].as_str(), pair[1].as_str())))
        || segments
            .iter()
            .any(|seg| EMBEDDED_WORDS.iter().any(|w| seg.contains(w)))
}

/// Words that name a one-time-code or PIN entry: tapping such an element (a keypad key)
/// replays part of the secret itself, unlike a tap that merely focuses a field.
const CODE_ENTRY_WORDS: &[&str] = &["pin", "otp", "totp", "passcode", "cvv", "cvc"];

/// Does this element key name a code-entry control (PIN pad, OTP box), where a tap alone
/// reveals part of a secret?
pub fn looks_code_entry_key(s: &str) -> bool {
    key_segments(s)
        .iter()
        .any(|seg| CODE_ENTRY_WORDS.contains(&seg.as_str()))
}

/// Does this typed value look private on its own: anything [`looks_sensitive_text`]
/// finds, or a password-like string (mixed case, digit and symbol, no spaces)?
pub fn looks_sensitive_value(s: &str) -> bool {
    looks_sensitive_text(s) || looks_like_password(s.trim())
}

/// Does this value, typed into the field named by `key`, look private? Adds the one
/// case a value cannot decide alone: a 4–8 digit code typed into an OTP/PIN field.
pub fn looks_sensitive_input(key: &str, value: &str) -> bool {
    looks_sensitive_value(value)
        || (is_short_digit_code(value) && (looks_sensitive_key(key) || has_code_hint(key)))
}

/// Does this text contain an e-mail address, a phone number, a card number or a
/// token anywhere in it? Used on typed values and on UI text to be masked.
pub fn looks_sensitive_text(s: &str) -> bool {
    EMAIL.is_match(s)
        || JWT.is_match(s)
        || CARD.find_iter(s).any(|m| is_card_number(m.as_str()))
        || PHONE.find_iter(s).any(|m| is_phone_number(m.as_str()))
        || TOKEN.find_iter(s).any(|m| is_token_like(m.as_str()))
}

/// Text that shows a one-time code in prose ("Your verification code is 483920", an SMS
/// heads-up, a 2FA popup): a code word and a stand-alone run of 4–8 digits.
pub fn looks_like_one_time_code(s: &str) -> bool {
    CODE_WORD.is_match(s) && SHORT_CODE.is_match(s)
}

static CODE_WORD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(?:code|otp|passcode|pin|verification|verify|one[- ]time|2fa|tan)\b|验证码|校验码|动态码|确认码")
        .expect("static regex")
});
static SHORT_CODE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:^|[^\d])\d{4,8}(?:[^\d]|$)").expect("static regex"));

static EMAIL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)[a-z0-9._%+\-]+@[a-z0-9\-]+(?:\.[a-z0-9\-]+)*\.[a-z]{2,}")
        .expect("static regex")
});
static JWT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"eyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]*").expect("static regex")
});
static CARD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\d(?:[ \-]?\d){12,18}").expect("static regex"));
static PHONE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\+?\(?\d[\d ().\-]{5,}\d").expect("static regex"));
static DATE_PREFIX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\(?(?:19|20)\d{2}[\-/.]\d{1,2}[\-/.]\d{1,2}").expect("static regex")
});
static TOKEN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"[A-Za-z0-9_\-+/=.]{20,}").expect("static regex"));

/// Lower-cased words of a key: package prefix and `text:`/`label:` prefix dropped,
/// split on punctuation, camelCase humps and letter/digit boundaries.
fn key_segments(key: &str) -> Vec<String> {
    let body = key
        .strip_prefix("text:")
        .or_else(|| key.strip_prefix("label:"))
        .unwrap_or_else(|| match key.rfind('/') {
            Some(slash) => &key[slash + 1..],
            None => key,
        });
    let mut segments = Vec::new();
    let mut current = String::new();
    let mut prev: Option<char> = None;
    for c in body.chars() {
        if !c.is_alphanumeric() {
            flush(&mut segments, &mut current);
            prev = None;
            continue;
        }
        if let Some(p) = prev {
            let hump = p.is_lowercase() && c.is_uppercase();
            let digit_edge = p.is_ascii_digit() != c.is_ascii_digit();
            if hump || digit_edge {
                flush(&mut segments, &mut current);
            }
        }
        current.extend(c.to_lowercase());
        prev = Some(c);
    }
    flush(&mut segments, &mut current);
    segments
}

fn flush(segments: &mut Vec<String>, current: &mut String) {
    if !current.is_empty() {
        segments.push(std::mem::take(current));
    }
}

fn has_code_hint(key: &str) -> bool {
    key_segments(key)
        .iter()
        .any(|seg| CODE_HINT_WORDS.iter().any(|w| seg.contains(w)))
}

fn is_short_digit_code(s: &str) -> bool {
    let s = s.trim();
    (4..=8).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())
}

fn digits_of(s: &str) -> Vec<u32> {
    s.chars().filter_map(|c| c.to_digit(10)).collect()
}

fn is_card_number(candidate: &str) -> bool {
    let digits = digits_of(candidate);
    (13..=19).contains(&digits.len()) && luhn_valid(&digits)
}

fn luhn_valid(digits: &[u32]) -> bool {
    let sum: u32 = digits
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &d)| {
            if i % 2 == 1 {
                let doubled = d * 2;
                if doubled > 9 {
                    doubled - 9
                } else {
                    doubled
                }
            } else {
                d
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

/// International numbers (`+…`) need 8 digits, others 10, so that counts, prices,
/// short codes and dates do not pass for phone numbers.
fn is_phone_number(candidate: &str) -> bool {
    if DATE_PREFIX.is_match(candidate) {
        return false;
    }
    let count = digits_of(candidate).len();
    let min = if candidate.starts_with('+') { 8 } else { 10 };
    (min..=15).contains(&count)
}

/// Random-looking: letters and digits that switch class often. Words joined with
/// underscores or a name followed by a year switch rarely.
fn is_token_like(candidate: &str) -> bool {
    let letters = candidate
        .chars()
        .filter(|c| c.is_ascii_alphabetic())
        .count();
    let digits = candidate.chars().filter(|c| c.is_ascii_digit()).count();
    if letters < 4 || digits < 2 {
        return false;
    }
    let class = |c: char| {
        if c.is_ascii_digit() {
            0
        } else if c.is_ascii_uppercase() {
            1
        } else if c.is_ascii_lowercase() {
            2
        } else {
            3
        }
    };
    let classes: Vec<u8> = candidate.chars().map(class).filter(|&k| k != 3).collect();
    let switches = classes.windows(2).filter(|w| w[0] != w[1]).count();
    switches >= 6
}

fn looks_like_password(s: &str) -> bool {
    (8..=64).contains(&s.chars().count())
        && !s.chars().any(char::is_whitespace)
        && s.chars().any(|c| c.is_lowercase())
        && s.chars().any(|c| c.is_uppercase())
        && s.chars().any(|c| c.is_ascii_digit())
        && s.chars().any(|c| c.is_ascii_punctuation())
}

#[cfg(test)]
#[path = "sensitive_tests.rs"]
mod tests;
