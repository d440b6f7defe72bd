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

use crate::password_words::names_a_password;

/// Words and phrases that name a secret when they appear as whole words of a key or a
/// hint (`login_password`, `motDePasse`, "Número de tarjeta"): whatever is typed into
/// such a field is private. English, German, French, Spanish, Portuguese, Italian,
/// Dutch and Russian; the CJK names are in [`EMBEDDED_SECRET_WORDS`], and the word for
/// password and PIN in every language Android ships is in `crate::password_words`.
const SECRET_WORDS: &[&str] = &[
    "password",
    "passwd",
    "pwd",
    "passcode",
    "passphrase",
    "pin",
    "otp",
    "totp",
    "tan",
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
    "cvv2",
    "csc",
    "iban",
    "ssn",
    "api key",
    "private key",
    "access key",
    "security code",
    "auth code",
    "verification code",
    "one time code",
    // de
    "passwort",
    "kennwort",
    "geheimzahl",
    "karte",
    "kartennummer",
    "bestätigungscode",
    "sicherheitscode",
    // fr
    "mot de passe",
    "mdp",
    "code secret",
    "carte",
    "numéro de carte",
    "code de vérification",
    // es
    "contraseña",
    "contrasena",
    "clave",
    "tarjeta",
    "código de verificación",
    // pt
    "senha",
    "cartão",
    "cartao",
    "código de verificação",
    // it
    "parola d ordine",
    "carta di credito",
    "numero di carta",
    "codice di verifica",
    // nl
    "wachtwoord",
    "pincode",
    "kaartnummer",
    "verificatiecode",
    // ru
    "пароль",
    "пин",
    "карта",
    "карты",
    "код подтверждения",
];

/// Secret names unambiguous enough to count inside a longer word (`loginpassword`,
/// `Passwortbestätigung`), and the Chinese, Japanese and Korean ones, whose words
/// are not separated: password, PIN, verification code, card number, security code.
const EMBEDDED_SECRET_WORDS: &[&str] = &[
    "password",
    "passwd",
    "passcode",
    "secret",
    "creditcard",
    "cardnumber",
    "passwort",
    "kennwort",
    "wachtwoord",
    "contraseña",
    "пароль",
    // zh: 密码 口令 验证码 校验码 动态码 卡号 安全码
    "\u{5bc6}\u{7801}",
    "\u{53e3}\u{4ee4}",
    "\u{9a8c}\u{8bc1}\u{7801}",
    "\u{6821}\u{9a8c}\u{7801}",
    "\u{52a8}\u{6001}\u{7801}",
    "\u{5361}\u{53f7}",
    "\u{5b89}\u{5168}\u{7801}",
    // zh-Hant / ja: 密碼 暗証番号 パスワード 認証コード 確認コード カード番号
    "\u{5bc6}\u{78bc}",
    "\u{6697}\u{8a3c}\u{756a}\u{53f7}",
    "\u{30d1}\u{30b9}\u{30ef}\u{30fc}\u{30c9}",
    "\u{8a8d}\u{8a3c}\u{30b3}\u{30fc}\u{30c9}",
    "\u{78ba}\u{8a8d}\u{30b3}\u{30fc}\u{30c9}",
    "\u{30ab}\u{30fc}\u{30c9}\u{756a}\u{53f7}",
    // ko: 비밀번호 암호 인증번호 카드번호
    "\u{be44}\u{bc00}\u{bc88}\u{d638}",
    "\u{c554}\u{d638}",
    "\u{c778}\u{c99d}\u{bc88}\u{d638}",
    "\u{ce74}\u{b4dc}\u{bc88}\u{d638}",
];

/// Words and phrases that name contact data: a value typed into such a field is private
/// only when it has the shape of that data (see [`looks_sensitive_input`]).
const CONTACT_WORDS: &[&str] = &[
    "email",
    "e mail",
    "mail",
    "phone",
    "phonenumber",
    "mobile",
    "tel",
    "msisdn",
    "telefon",
    "telefonnummer",
    "handynummer",
    "courriel",
    "téléphone",
    "telephone",
    "correo",
    "teléfono",
    "telefono",
    "telefone",
    "celular",
    "telefoon",
    "почта",
    "телефон",
];

/// Contact names that count inside a longer word, and the CJK ones: e-mail, phone.
const EMBEDDED_CONTACT_WORDS: &[&str] = &[
    "email",
    "phonenumber",
    "telefonnummer",
    // zh: 邮箱 电话 手机 / ja: メール 電話 / ko: 이메일 전화
    "\u{90ae}\u{7bb1}",
    "\u{7535}\u{8bdd}",
    "\u{624b}\u{673a}",
    "\u{30e1}\u{30fc}\u{30eb}",
    "\u{96fb}\u{8a71}",
    "\u{c774}\u{BA54}\u{C77C}",
    "\u{c804}\u{d654}",
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
    "código",
    "codigo",
    "codice",
    "код",
];

/// Does this element key (resource id, `text:…` or `label:…` key, or a field name)
/// name a field that holds private data, a secret or contact data? Only the part after
/// the package (`com.x:id/`) is judged, so a package called `com.bank.mobile` is not
/// enough.
pub fn looks_sensitive_key(s: &str) -> bool {
    looks_secret_key(s) || looks_contact_key(s)
}

/// Does this key or hint name a secret (a password, PIN, one-time code, card number,
/// token), so that any value typed into it is private? The word for password and PIN is
/// known in every language Android is translated into (`password_words`).
pub fn looks_secret_key(s: &str) -> bool {
    names_any(s, SECRET_WORDS, EMBEDDED_SECRET_WORDS) || names_a_password(s)
}

/// Does this key or hint name contact data (an e-mail address, a phone number)?
pub fn looks_contact_key(s: &str) -> bool {
    names_any(s, CONTACT_WORDS, EMBEDDED_CONTACT_WORDS)
}

/// The key's words, joined by single spaces, contain one of `phrases` as whole words,
/// or its letters contain one of `embedded`.
fn names_any(key: &str, phrases: &[&str], embedded: &[&str]) -> bool {
    let segments = key_segments(key);
    let spaced = format!(" {} ", segments.join(" "));
    phrases.iter().any(|p| spaced.contains(&format!(" {p} ")))
        || segments
            .iter()
            .any(|seg| embedded.iter().any(|w| seg.contains(w)))
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

/// Does this value, typed into the field named by `key`, look private? Yes when the
/// key names a secret (any value), when the value looks private on its own, when a
/// 4–8 digit code is typed into a field named for codes, and when a key naming contact
/// data receives a value of that shape (`foo` typed into "Email" is not private).
pub fn looks_sensitive_input(key: &str, value: &str) -> bool {
    looks_secret_key(key)
        || looks_sensitive_value(value)
        || (is_short_digit_code(value) && has_code_hint(key))
        || (looks_contact_key(key) && has_contact_shape(value))
}

/// An e-mail address anywhere, or phone characters only with at least six digits
/// (a local number typed without its area code).
fn has_contact_shape(value: &str) -> bool {
    let v = value.trim();
    EMAIL.is_match(v)
        || (digits_of(v).len() >= 6
            && v.chars()
                .all(|c| c.is_ascii_digit() || " +-().".contains(c)))
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
