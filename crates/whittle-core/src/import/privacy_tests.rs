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
