//! Whether a value an imported flow types may be stored in the session, decided from
//! facts before words and words before guesses:
//!
//! 1. **Facts** about the field mark it private (`private` on the action): a password
//!    input type (Robo's `inputType`), a password widget class, a hint, description or
//!    selector that names a secret, an ancestor named for one, a masked text, a Maestro
//!    variable named for one, or a value the user marks private (`--private`).
//! 2. The field's **words** (its key) and the value's own **shape**
//!    (`crate::sensitive::looks_sensitive_input`; secret words in every language of
//!    `crate::password_words`).
//! 3. **In doubt**, withheld: when no fact says what the field is ([`FieldFacts::Silent`])
//!    and the value is not obviously harmless ([`is_obviously_harmless`]), the value is
//!    not stored either. Privacy must not depend on a word list being complete.
//!
//! A value not stored is never written (see `action.rs`).

use crate::sensitive::{looks_contact_key, looks_secret_key, looks_sensitive_input};

/// What a flow's facts say about the field a value is typed into, besides marking it
/// private (that is the action's `private`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum FieldFacts {
    /// Nothing says what kind of field it is.
    #[default]
    Silent,
    /// A fact says it is a plain field: an input type without a password variation, or
    /// a name that says contact data (whose values are private only by their shape).
    Plain,
}

/// What becomes of a typed value in the stored step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Storage {
    /// Stored, and replayed.
    Kept,
    /// Private by a fact, a word or its shape: not stored, never replayed.
    Private,
    /// Not known to be private, but nothing says it is not: not stored either.
    Withheld,
}

/// How the value typed into the field keyed `key` ("" when the flow does not say) is
/// stored. `marked` is a fact's or the user's word that it is private.
pub fn typed_value_storage(key: &str, value: &str, marked: bool, field: FieldFacts) -> Storage {
    if marked || looks_sensitive_input(key, value) {
        Storage::Private
    } else if field == FieldFacts::Plain || looks_contact_key(key) || is_obviously_harmless(value) {
        Storage::Kept
    } else {
        Storage::Withheld
    }
}

/// A value that is no credential or code whatever its field: nothing; one word of
/// letters ("espresso", "O'Brien"); a number of at most three digits (a quantity); or a
/// phrase none of whose words mixes letters with digits or has four digits or more
/// ("table 42 for Ada"). A run like "pass123", "qa_7", "test.com" or "4821" is not.
pub fn is_obviously_harmless(value: &str) -> bool {
    let words: Vec<&str> = value.split_whitespace().collect();
    match words.as_slice() {
        [] => true,
        [one] => is_plain_word(one) || is_small_number(one),
        many => !many.iter().any(|w| is_code_like(w)),
    }
}

fn is_plain_word(word: &str) -> bool {
    word.chars().any(char::is_alphabetic)
        && word
            .chars()
            .all(|c| c.is_alphabetic() || c == '\'' || c == '-')
}

fn is_small_number(word: &str) -> bool {
    (1..=3).contains(&word.len()) && word.bytes().all(|b| b.is_ascii_digit())
}

fn is_code_like(word: &str) -> bool {
    let digits = word.chars().filter(char::is_ascii_digit).count();
    (digits > 0 && word.chars().any(char::is_alphabetic)) || digits >= 4
}

/// Does this value hold one of the values the user marked private?
pub fn holds_private_value(value: &str, private_values: &[String]) -> bool {
    private_values
        .iter()
        .any(|p| !p.trim().is_empty() && value.contains(p.as_str()))
}

/// Does one of the names a format gives a field (its hint, class, description, its
/// ancestors' ids and descriptions, a variable's name) name a secret?
pub fn names_a_secret<'a>(names: impl IntoIterator<Item = &'a str>) -> bool {
    names.into_iter().any(looks_secret_key)
}

/// Does one of the names a format gives a field name contact data?
pub fn names_contact_data<'a>(names: impl IntoIterator<Item = &'a str>) -> bool {
    names.into_iter().any(looks_contact_key)
}

/// Is this the text a password field shows: only mask characters (`•`, `*`, `●`)?
pub fn is_masked_text(text: &str) -> bool {
    let text = text.trim();
    !text.is_empty()
        && text
            .chars()
            .all(|c| matches!(c, '\u{2022}' | '*' | '\u{25cf}'))
}

/// What Android's `inputType` (a field's `android.text.InputType` bits) says: a class
/// (the low four bits) with its variation (the next eight).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputTypeFact {
    /// `TYPE_CLASS_TEXT` with `TYPE_TEXT_VARIATION_PASSWORD` (0x80),
    /// `…_VISIBLE_PASSWORD` (0x90) or `…_WEB_PASSWORD` (0xE0), or `TYPE_CLASS_NUMBER`
    /// with `TYPE_NUMBER_VARIATION_PASSWORD` (0x10).
    Password,
    /// Any other class: a plain field.
    Plain,
    /// `TYPE_NULL` (0): not an editor, so nothing is said.
    Nothing,
}

const CLASS_MASK: u32 = 0x0f;
const VARIATION_MASK: u32 = 0xff0;
const CLASS_TEXT: u32 = 0x01;
const CLASS_NUMBER: u32 = 0x02;
const TEXT_PASSWORDS: [u32; 3] = [0x80, 0x90, 0xe0];
const NUMBER_PASSWORD: u32 = 0x10;

/// Reads `inputType` bits.
pub fn input_type_fact(bits: u32) -> InputTypeFact {
    let class = bits & CLASS_MASK;
    let variation = bits & VARIATION_MASK;
    match class {
        0 => InputTypeFact::Nothing,
        CLASS_TEXT if TEXT_PASSWORDS.contains(&variation) => InputTypeFact::Password,
        CLASS_NUMBER if variation == NUMBER_PASSWORD => InputTypeFact::Password,
        _ => InputTypeFact::Plain,
    }
}

/// Reads an `inputType` as a script may write it: a number, a decimal or `0x` string, or
/// the layout attribute's flag names (`"textPassword|textNoSuggestions"`). What cannot
/// be read says nothing.
pub fn input_type_of(value: &serde_json::Value) -> InputTypeFact {
    let bits = match value {
        serde_json::Value::Number(n) => n.as_u64().and_then(|n| u32::try_from(n).ok()),
        serde_json::Value::String(s) => {
            let s = s.trim();
            match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
                Some(hex) => u32::from_str_radix(hex, 16).ok(),
                None => s.parse().ok().or_else(|| named_input_type(s)),
            }
        }
        _ => None,
    };
    bits.map_or(InputTypeFact::Nothing, input_type_fact)
}

/// `android:inputType` flag names, as layouts write them.
fn named_input_type(names: &str) -> Option<u32> {
    let mut bits = 0;
    for name in names.split('|').map(str::trim) {
        bits |= match name {
            "textPassword" => 0x81,
            "textVisiblePassword" => 0x91,
            "textWebPassword" => 0xe1,
            "numberPassword" => 0x12,
            "text" | "textEmailAddress" | "textPersonName" | "textUri" | "textMultiLine" => 0x01,
            "number" => 0x02,
            "phone" => 0x03,
            "datetime" | "date" | "time" => 0x04,
            // A flag (`textNoSuggestions`, `textCapWords`) adds nothing to the class.
            _ if name.starts_with("text") => 0x01,
            _ => return None,
        };
    }
    Some(bits)
}

#[cfg(test)]
#[path = "privacy_tests.rs"]
mod tests;
