//! The word for "password" (and for "PIN", where a language has its own) in every
//! language Android itself is translated into, so that a field hinted "Şifre", "Mật
//! khẩu" or "Пароль" is known to hold a secret without a hand-kept list of a few
//! languages.
//!
//! Source: the Android Open Source Project's lock-screen strings, which Google keeps
//! translated for every locale Android ships: `kg_wrong_password` ("Wrong password") and
//! `kg_wrong_pin` ("Wrong PIN") of `frameworks/base/packages/SystemUI/res-keyguard/
//! values-<locale>/strings.xml` (Apache-2.0), read from the mirror lxtung/android-systemui
//! at commit 689d2639bddd2875a717cda39ac96c6cd60aa974 (tests/fixtures/SOURCES.md). From
//! each translation the noun was kept; where the language inflects it, its stem is
//! matched as the start of a word (Turkish "şifreniz", Finnish "salasanasi"), and scripts
//! written without spaces are matched anywhere in the text.
//!
//! A word list is never complete, so the importers do not rely on it alone: a value
//! typed into a field that no fact and no word names is withheld unless it is
//! obviously harmless (`import/privacy.rs`).

/// How a word of the table is found in a normalized text.
#[derive(Clone, Copy)]
enum Word {
    /// The whole word (or words, in order).
    Whole(&'static str),
    /// The start of a word: the stem of an inflected noun.
    Stem(&'static str),
    /// Anywhere: scripts written without spaces between words, and long compounds.
    Within(&'static str),
}

use Word::{Stem, Whole, Within};

/// Language (Android's locale folder) → its words for password and PIN, lower case,
/// without zero-width joiners (they are removed from the text too).
const PASSWORD_WORDS: &[(&str, &[Word])] = &[
    ("af", &[Within("wagwoord")]),
    ("am", &[Within("የይለፍ ቃል"), Within("ፒን")]),
    (
        "ar",
        &[
            Within("كلمة مرور"),
            Within("كلمة المرور"),
            Within("رقم تعريف شخصي"),
        ],
    ),
    ("as", &[Within("পাছৱৰ্ড"), Within("পিন")]),
    ("az", &[Whole("parol")]),
    ("be", &[Stem("парол")]),
    ("bg", &[Stem("парол"), Whole("пин")]),
    ("bn", &[Within("পাসওয়ার্ড"), Within("পিন")]),
    ("bs", &[Stem("lozink")]),
    ("ca", &[Stem("contrasenya")]),
    ("cs", &[Stem("hesl")]),
    ("da", &[Within("adgangskode"), Within("pinkode")]),
    ("de", &[Within("passwort")]),
    (
        "el",
        &[
            Within("κωδικός πρόσβασης"),
            Within("κωδικό πρόσβασης"),
            Within("κωδικού πρόσβασης"),
        ],
    ),
    ("en", &[Within("password"), Whole("pin")]),
    ("es", &[Stem("contraseña")]),
    ("et", &[Stem("parool")]),
    ("eu", &[Within("pasahitz")]),
    ("fa", &[Within("گذرواژه")]),
    ("fi", &[Stem("salasan")]),
    ("fr", &[Whole("mot de passe"), Whole("nip")]),
    ("gl", &[Stem("contrasinal")]),
    ("gu", &[Within("પાસવર્ડ"), Within("પિન")]),
    ("hi", &[Within("पासवर्ड"), Within("पिन")]),
    ("hr", &[Stem("lozink"), Stem("zapork")]),
    ("hu", &[Stem("jelsz")]),
    ("hy", &[Within("գաղտնաբառ")]),
    ("id", &[Whole("sandi"), Whole("kata sandi")]),
    ("is", &[Within("aðgangsorð")]),
    ("it", &[Within("password")]),
    ("iw", &[Within("סיסמ"), Within("קוד האימות")]),
    ("ja", &[Within("パスワード")]),
    ("ka", &[Within("პაროლ")]),
    ("kk", &[Within("құпия сөз")]),
    ("km", &[Within("ពាក្យសម្ងាត់")]),
    ("kn", &[Within("ಪಾಸ್ವರ್ಡ್"), Within("ಪಿನ್")]),
    ("ko", &[Within("비밀번호")]),
    ("ky", &[Within("сырсөз")]),
    ("lo", &[Within("ລະຫັດຜ່ານ")]),
    ("lt", &[Stem("slaptažod")]),
    ("lv", &[Whole("parole"), Whole("paroli")]),
    ("mk", &[Stem("лозинк")]),
    ("ml", &[Within("പാസ്വേഡ്"), Within("പിൻ")]),
    ("mn", &[Within("нууц үг"), Whole("пин")]),
    ("mr", &[Within("पासवर्ड")]),
    ("ms", &[Whole("kata laluan")]),
    ("my", &[Within("စကားဝှက်"), Within("ပင်နံပါတ်")]),
    ("nb", &[Within("passord")]),
    ("ne", &[Within("पासवर्ड")]),
    ("nl", &[Within("wachtwoord"), Within("pincode")]),
    ("or", &[Within("ପାସ୍ୱର୍ଡ")]),
    ("pa", &[Within("ਪਾਸਵਰਡ"), Within("ਪਿੰਨ")]),
    ("pl", &[Stem("hasł")]),
    ("pt", &[Whole("senha"), Whole("palavra passe")]),
    ("ro", &[Whole("parolă"), Whole("parola"), Whole("parolei")]),
    ("ru", &[Stem("парол"), Whole("пин")]),
    ("si", &[Within("මුරපද")]),
    ("sk", &[Stem("hesl")]),
    ("sl", &[Stem("gesl")]),
    ("sq", &[Stem("fjalëkalim")]),
    ("sr", &[Stem("лозинк"), Stem("lozink")]),
    ("sv", &[Within("lösenord"), Whole("pinkod")]),
    ("sw", &[Within("nenosiri")]),
    ("ta", &[Within("கடவுச்சொல்")]),
    ("te", &[Within("పాస్వర్డ్"), Within("పిన్")]),
    ("th", &[Within("รหัสผ่าน")]),
    ("tl", &[Within("password")]),
    // Turkish fields are often named without the cedilla (`sifre`, "Web Sifresi").
    ("tr", &[Stem("şifre"), Stem("sifre")]),
    ("uk", &[Stem("парол")]),
    ("ur", &[Within("پاس ورڈ")]),
    ("uz", &[Whole("parol")]),
    // Vietnamese is also typed without its diacritics.
    ("vi", &[Whole("mật khẩu"), Whole("mat khau")]),
    ("zh-CN", &[Within("密码")]),
    ("zh-TW", &[Within("密碼")]),
    ("zu", &[Within("phasiwedi"), Within("phinikhodi")]),
];

/// The languages of the table (Android's locale names), for tests and documentation.
pub fn languages() -> impl Iterator<Item = &'static str> {
    PASSWORD_WORDS.iter().map(|(lang, _)| *lang)
}

/// Does this key or hint name a password or a PIN in any language of the table? A key's
/// package (`com.x:id/`) and its `text:`/`label:` prefix are not read.
pub fn names_a_password(key: &str) -> bool {
    let text = normalized(body(key));
    if text.trim().is_empty() {
        return false;
    }
    PASSWORD_WORDS
        .iter()
        .flat_map(|(_, words)| words.iter())
        .any(|word| match *word {
            Whole(w) => text.contains(&format!(" {} ", folded(w))),
            Stem(w) => text.contains(&format!(" {}", folded(w))),
            Within(w) => text.contains(&folded(w)),
        })
}

/// The part of a key that names the field: after a `text:`/`label:` prefix, else after
/// the last `/` of a resource id.
fn body(key: &str) -> &str {
    key.strip_prefix("text:")
        .or_else(|| key.strip_prefix("label:"))
        .unwrap_or_else(|| match key.rfind('/') {
            Some(slash) if !key[slash + 1..].contains(' ') && !key[..slash].contains(' ') => {
                &key[slash + 1..]
            }
            _ => key,
        })
}

/// Lower case, words separated by single spaces with one before and after: split at
/// punctuation, spaces and camelCase humps (`sifreInput`); zero-width joiners and
/// direction marks removed, and the dot a Turkish capital İ leaves after lower-casing.
fn normalized(text: &str) -> String {
    let mut out = String::from(" ");
    let mut prev: Option<char> = None;
    for c in text.chars() {
        if is_invisible(c) {
            continue;
        }
        if is_separator(c) {
            if !out.ends_with(' ') {
                out.push(' ');
            }
            prev = None;
            continue;
        }
        if prev.is_some_and(|p| p.is_lowercase() && c.is_uppercase()) && !out.ends_with(' ') {
            out.push(' ');
        }
        out.extend(c.to_lowercase().filter(|&l| l != '\u{307}').map(fold));
        prev = Some(c);
    }
    if !out.ends_with(' ') {
        out.push(' ');
    }
    out
}

/// Greek written in capitals drops its accents and its final sigma: both sides are
/// compared without them.
fn fold(c: char) -> char {
    match c {
        'ς' => 'σ',
        'ά' => 'α',
        'έ' => 'ε',
        'ή' => 'η',
        'ί' | 'ϊ' | 'ΐ' => 'ι',
        'ό' => 'ο',
        'ύ' | 'ϋ' | 'ΰ' => 'υ',
        'ώ' => 'ω',
        other => other,
    }
}

fn folded(word: &str) -> String {
    word.chars().map(fold).collect()
}

fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
            | '\u{feff}')
}

/// Spaces and punctuation, ASCII and the common Unicode marks: what separates words.
fn is_separator(c: char) -> bool {
    c.is_whitespace()
        || c.is_ascii_punctuation()
        || matches!(
            c,
            '·' | '、'
                | '。'
                | '：'
                | '，'
                | '（'
                | '）'
                | '«'
                | '»'
                | '“'
                | '”'
                | '‘'
                | '’'
                | '…'
                | '–'
                | '—'
                | '¿'
                | '¡'
                | '؟'
                | '،'
                | '\u{a0}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_covers_many_languages_and_scripts() {
        assert!(languages().count() >= 70, "{}", languages().count());
    }

    #[test]
    fn inflected_and_undecorated_forms_are_found_and_look_alikes_are_not() {
        for named in [
            "Şifre",
            "ŞİFRE",
            "Şifrenizi girin",
            "com.x:id/sifre_input",
            "com.x:id/sifreInput",
            "Salasanasi",
            "Nieprawidłowe hasło",
            "ಪಾಸ್\u{200c}ವರ್ಡ್",
            "Mat khau",
            "text:Palavra-passe",
            "label:Kata sandi",
            "ΚΩΔΙΚΟΣ ΠΡΟΣΒΑΣΗΣ",
        ] {
            assert!(names_a_password(named), "{named}");
        }
        for plain in [
            "",
            "Parola chiave search",
            "Sandiego",
            "com.x:id/paroles_song",
            "Pinnacle",
            "com.x:id/spinner",
            "Heading",
        ] {
            // "Parola" is Romanian for password: caution wins over the Italian "word".
            let expected = plain.starts_with("Parola");
            assert_eq!(names_a_password(plain), expected, "{plain}");
        }
    }
}
