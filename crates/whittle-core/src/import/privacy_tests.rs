use crate::import::{maestro, robo, ImportedFlow};

/// Where the value is typed, as each format writes it.
enum Field {
    /// Maestro: `tapOn: "<text>"` (text, hint or description) before `inputText`.
    MaestroText(&'static str),
    /// Maestro: `tapOn: {id: "<id>"}` before `inputText`.
    MaestroId(&'static str),
    /// Robo: `VIEW_TEXT_CHANGED` whose element descriptors are this JSON list.
    Robo(&'static str),
}

/// One row: the field, the value typed, whether the value must stay out of the session.
struct Row(Field, &'static str, bool);

fn rows() -> Vec<Row> {
    use Field::{MaestroId as Mid, MaestroText as Mt, Robo as R};
    vec![
        // A key naming contact data keeps only values of that shape private.
        Row(Mt("Email"), "foo", false),
        Row(Mt("Email"), "qa.tester@example.com", true),
        Row(Mid("email_input"), "foo", false),
        Row(
            R(r#"[{"resourceId": "com.x:id/email"}]"#),
            "qa.tester",
            false,
        ),
        Row(R(r#"[{"resourceId": "com.x:id/phone"}]"#), "n/a", false),
        Row(
            R(r#"[{"resourceId": "com.x:id/phone"}]"#),
            "+49 30 1234567",
            true,
        ),
        Row(Mt("Telefon"), "030 1234", true),
        Row(Mt("Telefon"), "keine", false),
        Row(Mt("E-Mail-Adresse"), "foo", false),
        Row(Mt("Courriel"), "jean@example.fr", true),
        Row(Mt("\u{c774}\u{BA54}\u{C77C}"), "foo", false),
        // A value's own shape is private whatever the field.
        Row(Mt("Search products"), "red shoes", false),
        Row(Mt("Search"), "4111 1111 1111 1111", true),
        Row(
            R(r#"[{"resourceId": "com.x:id/query"}]"#),
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
            true,
        ),
        Row(R(r#"[{"resourceId": "com.x:id/spinner"}]"#), "red", false),
        // A key naming a secret makes any value private, in every language.
        Row(Mt("Password"), "pass123", true),
        Row(R(r#"[{"resourceId": "com.x:id/password"}]"#), "12345", true),
        Row(Mid("cvv"), "123", true),
        Row(R(r#"[{"resourceId": "com.x:id/otp"}]"#), "483920", true),
        Row(Mt("Verification code"), "483920", true),
        Row(Mt("Passwort"), "pass123", true),
        Row(
            R(r#"[{"contentDescription": "Kennwort"}]"#),
            "pass123",
            true,
        ),
        Row(Mt("Mot de passe"), "pass123", true),
        Row(
            R(r#"[{"contentDescription": "Contraseña"}]"#),
            "pass123",
            true,
        ),
        Row(Mt("Número de tarjeta"), "1234", true),
        Row(Mt("Senha"), "pass123", true),
        Row(Mt("Codice PIN"), "4821", true),
        Row(
            R(r#"[{"resourceId": "com.x:id/wachtwoord"}]"#),
            "pass123",
            true,
        ),
        Row(Mt("Пароль"), "pass123", true),
        Row(Mt("\u{5bc6}\u{7801}"), "pass123", true),
        Row(Mt("\u{9a8c}\u{8bc1}\u{7801}"), "483920", true),
        Row(
            R(r#"[{"contentDescription": "\u30d1\u30b9\u30ef\u30fc\u30c9"}]"#),
            "pass123",
            true,
        ),
        Row(Mt("\u{30ab}\u{30fc}\u{30c9}\u{756a}\u{53f7}"), "1234", true),
        Row(Mt("\u{be44}\u{bc00}\u{bc88}\u{d638}"), "pass123", true),
        // Facts a Robo script carries: the widget's class, its ancestors, a masked text.
        Row(
            R(
                r#"[{"className": "com.x.widget.PasswordEditText", "resourceId": "com.x:id/field"}]"#,
            ),
            "pass123",
            true,
        ),
        Row(
            R(r#"[{"className": "android.widget.EditText"},
                  {"className": "com.google.android.material.textfield.TextInputLayout",
                   "resourceId": "com.x:id/til_password"}]"#),
            "pass123",
            true,
        ),
        Row(
            R(r#"[{"resourceId": "com.x:id/field", "text": "•••••••"}]"#),
            "pass123",
            true,
        ),
        Row(
            R(r#"[{"resourceId": "com.x:id/input"}, {"resourceId": "com.x:id/email_layout"}]"#),
            "foo",
            false,
        ),
    ]
}

fn import(field: &Field, value: &str) -> ImportedFlow {
    let quoted = serde_json::to_string(value).unwrap();
    match field {
        Field::MaestroText(text) => {
            let text = serde_json::to_string(text).unwrap();
            let yaml = format!("appId: com.x\n---\n- tapOn: {text}\n- inputText: {quoted}\n");
            maestro::parse("f.yaml", yaml.as_bytes()).unwrap()
        }
        Field::MaestroId(id) => {
            let yaml =
                format!("appId: com.x\n---\n- tapOn:\n    id: \"{id}\"\n- inputText: {quoted}\n");
            maestro::parse("f.yaml", yaml.as_bytes()).unwrap()
        }
        Field::Robo(descriptors) => {
            let json = format!(
                r#"[{{"eventType": "VIEW_TEXT_CHANGED", "replacementText": {quoted}, "elementDescriptors": {descriptors}}}]"#
            );
            robo::parse("s.json", json.as_bytes()).unwrap()
        }
    }
}

/// Whether the typed value was kept out of the stored step.
fn stored_private(flow: &ImportedFlow, value: &str) -> bool {
    let step = flow.steps.last().unwrap();
    let stored = step.to_step(2, "2026-05-14T16:03:54Z", flow.format);
    let notes: serde_json::Value = serde_json::from_str(&stored.notes).unwrap();
    let replay = &notes["replay"];
    assert_eq!(replay["action_type"], "input_text", "{notes}");
    match (&replay["input_redacted"], &replay["input_value"]) {
        (serde_json::Value::Bool(true), serde_json::Value::Null) => {
            assert!(!stored.notes.contains(value) && !stored.action.contains(value));
            true
        }
        (serde_json::Value::Null, v) => {
            assert_eq!(v, value);
            false
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn typed_values_are_private_by_facts_words_and_shape_in_both_formats() {
    let wrong: Vec<String> = rows()
        .iter()
        .filter_map(|Row(field, value, private)| {
            let got = stored_private(&import(field, value), value);
            (got != *private).then(|| {
                let field = match field {
                    Field::MaestroText(t) => format!("maestro text {t:?}"),
                    Field::MaestroId(i) => format!("maestro id {i:?}"),
                    Field::Robo(d) => format!("robo {}", d.split_whitespace().collect::<String>()),
                };
                format!("{field} <- {value:?}: expected private={private}, got {got}")
            })
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "{} wrong rows:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

#[test]
fn values_the_user_marks_private_stay_private() {
    let mut flow = import(&Field::MaestroText("Name"), "Jane Doe");
    assert!(!stored_private(&flow, "Jane Doe"));
    flow.mark_private(&[String::new(), "Other".into()]);
    assert!(!stored_private(&flow, "Jane Doe"));
    flow.mark_private(&["Jane Doe".into()]);
    assert!(stored_private(&flow, "Jane Doe"));
    let mut robo = import(
        &Field::Robo(r#"[{"resourceId": "com.x:id/note"}]"#),
        "ref Jane Doe",
    );
    robo.mark_private(&["Jane Doe".into()]);
    assert!(stored_private(&robo, "ref Jane Doe"));
}

/// The hint a password field shows, in 24 languages and 14 scripts: each marks what is
/// typed under it private, whether a Robo script gives it as `hintText` or a Maestro flow
/// taps the field by it. The phrases are AOSP's lock-screen prompts and labels.
const PASSWORD_HINTS: &[(&str, &str)] = &[
    ("tr", "Şifre"),
    ("tr", "Şifrenizi girin"),
    ("de", "Passwort eingeben"),
    ("fr", "Mot de passe"),
    ("es", "Contraseña"),
    ("pt", "Senha"),
    ("it", "Password"),
    ("nl", "Wachtwoord"),
    ("pl", "Hasło"),
    ("cs", "Heslo"),
    ("sv", "Lösenord"),
    ("fi", "Salasana"),
    ("hu", "Jelszó"),
    ("ro", "Parolă"),
    ("id", "Kata sandi"),
    ("vi", "Mật khẩu"),
    ("ru", "Введите пароль"),
    ("uk", "Пароль"),
    ("bg", "Парола"),
    ("el", "Κωδικός πρόσβασης"),
    ("he", "סיסמה"),
    ("ar", "كلمة المرور"),
    ("fa", "گذرواژه"),
    ("hi", "पासवर्ड"),
    ("bn", "পাসওয়ার্ড"),
    ("ta", "கடவுச்சொல்"),
    ("th", "รหัสผ่าน"),
    ("ka", "პაროლი"),
    ("hy", "Գաղտնաբառ"),
    ("am", "የይለፍ ቃል"),
    ("zh-CN", "密码"),
    ("zh-TW", "密碼"),
    ("ja", "パスワード"),
    ("ko", "비밀번호"),
];

#[test]
fn a_password_hint_in_any_language_keeps_the_value_private() {
    let languages: std::collections::BTreeSet<&str> =
        PASSWORD_HINTS.iter().map(|(lang, _)| *lang).collect();
    assert!(languages.len() >= 20, "{}", languages.len());
    let mut wrong = Vec::new();
    for (lang, hint) in PASSWORD_HINTS {
        let hint_json = serde_json::to_string(hint).unwrap();
        let robo = format!(r#"[{{"hintText": {hint_json}}}]"#);
        let robo = Box::leak(robo.into_boxed_str());
        for field in [Field::Robo(robo), Field::MaestroText(hint)] {
            // A value no word list would call private on its own.
            if !stored_private(&import(&field, "sunshine"), "sunshine") {
                wrong.push(format!("{lang} {hint:?}"));
            }
        }
    }
    assert!(wrong.is_empty(), "stored in clear: {wrong:?}");
}

#[test]
fn in_doubt_a_value_is_withheld_unless_it_is_obviously_harmless() {
    // Esperanto is in no word list: only the value's look decides.
    let unknown = Field::Robo(r#"[{"hintText": "Pasvorto", "resourceId": "com.x:id/f1"}]"#);
    for value in ["pass123", "qa_7", "test.com", "4821", "sesame-42"] {
        let flow = import(&unknown, value);
        assert!(stored_private(&flow, value), "{value}");
        let stored = flow.steps[1].to_step(2, "t", flow.format);
        assert!(stored.notes.contains("\"input_withheld\":true"), "{value}");
    }
    for value in ["espresso", "Jane Doe", "table 42 for Ada", "3", ""] {
        assert!(
            !stored_private(&import(&unknown, value), value),
            "{value:?}"
        );
    }
    // A fact that the field is plain keeps the value: an input type without a password
    // variation (text, number), or a field named for contact data.
    for plain in [
        r#"[{"resourceId": "com.x:id/f1", "inputType": 1}]"#,
        r#"[{"resourceId": "com.x:id/f1", "inputType": "0x2"}]"#,
        r#"[{"resourceId": "com.x:id/f1", "inputType": "textCapWords|textNoSuggestions"}]"#,
        r#"[{"resourceId": "com.x:id/phone"}]"#,
    ] {
        assert!(
            !stored_private(&import(&Field::Robo(plain), "user123"), "user123"),
            "{plain}"
        );
    }
}

#[test]
fn a_password_input_type_is_a_fact_whatever_the_words() {
    for (input_type, private) in [
        ("129", true),      // TEXT | VARIATION_PASSWORD
        ("\"0x91\"", true), // TEXT | VISIBLE_PASSWORD
        ("225", true),      // TEXT | WEB_PASSWORD
        ("18", true),       // NUMBER | NUMBER_PASSWORD
        ("\"numberPassword\"", true),
        ("\"textPassword|textNoSuggestions\"", true),
        ("33", false), // TEXT | EMAIL_ADDRESS
        ("2", false),  // NUMBER
        ("0", false),  // TYPE_NULL says nothing: "espresso" is harmless
    ] {
        let descriptors =
            format!(r#"[{{"resourceId": "com.x:id/field", "inputType": {input_type}}}]"#);
        let field = Field::Robo(Box::leak(descriptors.into_boxed_str()));
        assert_eq!(
            stored_private(&import(&field, "espresso"), "espresso"),
            private,
            "{input_type}"
        );
    }
}

#[test]
fn a_maestro_variable_named_for_a_secret_keeps_its_value_private() {
    let yaml =
        b"appId: com.x\n---\n- tapOn: Continue\n- inputText: ${PASSWORD}\n- inputText: ${QUERY}\n";
    let vars = [("PASSWORD", "espresso"), ("QUERY", "espresso")]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let flow = maestro::parse_with("v.yaml", yaml, &vars).unwrap();
    let notes: Vec<String> = flow
        .steps
        .iter()
        .map(|s| s.to_step(1, "t", flow.format).notes)
        .collect();
    assert!(notes[1].contains("input_redacted") && !notes[1].contains("espresso"));
    assert!(
        notes[2].contains("\"input_value\":\"espresso\""),
        "{}",
        notes[2]
    );
}
