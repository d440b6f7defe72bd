//! The sensitivity heuristics on the keys, values and texts they must and must not flag.

use super::*;

#[test]
fn keys() {
    let positives = [
        "com.x:id/login_password",
        "com.x:id/etPassword",
        "com.x:id/user_passwd",
        "com.x:id/pwd",
        "com.x:id/pin_code",
        "com.x:id/pinKey5",
        "com.x:id/otp_input",
        "com.x:id/auth_token",
        "com.x:id/client_secret",
        "com.x:id/api_key",
        "com.x:id/card_number",
        "com.x:id/cvv",
        "com.x:id/iban_field",
        "com.x:id/ssn",
        "com.x:id/email",
        "com.x:id/input_e-mail",
        "com.x:id/phone",
        "com.x:id/mobile_number",
        "com.x:id/loginpassword",
        "com.x:id/useremail",
        "text:Enter your PIN",
        "label:Password",
        "password",
    ];
    for key in positives {
        assert!(looks_sensitive_key(key), "should be sensitive: {key}");
    }
    let negatives = [
        "com.x:id/btn_checkout",
        "com.x:id/btn_cart",
        "com.x:id/spinner",
        "com.x:id/search_box",
        "com.x:id/home_root",
        "com.bank.mobile:id/btn_next",
        "com.x:id/hotel_list",
        "com.x:id/shopping_item",
        "text:Add to cart",
        "text:Checkout",
        "label:search shoes",
        "",
    ];
    for key in negatives {
        assert!(!looks_sensitive_key(key), "should not be sensitive: {key}");
    }
}

#[test]
fn values_and_text() {
    let positives = [
        "bob@example.com",
        "Signed in as alice.smith+qa@mail.example.co.uk",
        "+1 415 555 0100",
        "(415) 555-0100",
        "13812345678",
        "+44 20 7946 0958",
        "4111 1111 1111 1111",
        "5500-0000-0000-0004",
        "4012888888881881",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N",
        "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
        "sk_live_51H8xYzAbC9dEfGh2IjKlMn",
        "550e8400-e29b-41d4-a716-446655440000",
    ];
    for value in positives {
        assert!(
            looks_sensitive_text(value),
            "text should be sensitive: {value}"
        );
        assert!(
            looks_sensitive_value(value),
            "value should be sensitive: {value}"
        );
    }
    let negatives = [
        "Add to cart",
        "Checkout",
        "search shoes",
        "42",
        "1234",
        "Order 2024-05-14 10:30",
        "$1,299.00",
        "Qty 3",
        "search_results_page_2024",
        "screenshots/step_0001.png",
        "com.example.shop:id/btn_checkout",
        "4111 1111 1111 1112",
        "555-0100",
        "iPhone 15 Pro",
        "",
    ];
    for value in negatives {
        assert!(
            !looks_sensitive_text(value),
            "text should not be sensitive: {value}"
        );
        assert!(
            !looks_sensitive_value(value),
            "value should not be sensitive: {value}"
        );
    }
}

#[test]
fn password_like_values_are_sensitive_values_but_not_text() {
    assert!(looks_sensitive_value("Tr0ub4dor&3"));
    assert!(!looks_sensitive_text("Tr0ub4dor&3"));
    assert!(!looks_sensitive_value("iPhone15"));
    assert!(!looks_sensitive_value("Hello, World 1!"));
}

#[test]
fn short_codes_need_a_key_hint() {
    assert!(looks_sensitive_input("com.x:id/otp", "123456"));
    assert!(looks_sensitive_input("com.x:id/pin_entry", "0000"));
    assert!(looks_sensitive_input("com.x:id/verification_code", "4821"));
    assert!(looks_sensitive_input("com.x:id/sms_code_box", "99881234"));
    assert!(!looks_sensitive_input("com.x:id/quantity", "1234"));
    assert!(!looks_sensitive_input("com.x:id/search_box", "42"));
    // A field named for a secret keeps any value private, even a partial code.
    assert!(looks_sensitive_input("com.x:id/otp", "123"));
    assert!(!looks_sensitive_input("com.x:id/quantity", "123"));
    assert!(!looks_sensitive_input(
        "com.x:id/search_box",
        "search shoes"
    ));
    assert!(looks_sensitive_input(
        "com.x:id/search_box",
        "bob@example.com"
    ));
}

#[test]
fn luhn() {
    assert!(luhn_valid(&digits_of("79927398713")));
    assert!(!luhn_valid(&digits_of("79927398710")));
}

mod one_time_code {
    use super::super::looks_like_one_time_code;

    #[test]
    fn codes_shown_in_prose_are_recognised() {
        for text in [
            "Your verification code is 483920",
            "OTP: 1234",
            "Use code 99812 to sign in",
            "您的验证码为 602913，5分钟内有效",
            "2FA code 12345678",
        ] {
            assert!(looks_like_one_time_code(text), "{text}");
        }
    }

    #[test]
    fn ordinary_text_with_numbers_or_code_words_alone_is_not() {
        for text in [
            "Order 1234567890123 shipped",
            "Enter the code we sent you",
            "Total: 1299",
            "Promo codes apply at checkout",
            "Room 1204",
            "zip 94107 barcode",
        ] {
            assert!(!looks_like_one_time_code(text), "{text}");
        }
    }
}

#[test]
fn secret_keys_in_many_languages_and_contact_keys_apart() {
    let secrets = [
        "text:Passwort",
        "label:Mot de passe",
        "com.x:id/motDePasse",
        "text:Contraseña",
        "text:Senha",
        "text:Codice PIN",
        "com.x:id/wachtwoord",
        "text:Пароль",
        "text:N\u{fa}mero de tarjeta",
        "text:\u{5bc6}\u{7801}",
        "text:\u{8f93}\u{5165}\u{5bc6}\u{7801}",
        "text:\u{30d1}\u{30b9}\u{30ef}\u{30fc}\u{30c9}",
        "text:\u{be44}\u{bc00}\u{bc88}\u{d638}",
    ];
    for key in secrets {
        assert!(looks_secret_key(key), "should name a secret: {key}");
        assert!(looks_sensitive_key(key), "{key}");
    }
    let contacts = [
        "com.x:id/email",
        "text:E-Mail-Adresse",
        "text:Courriel",
        "text:Telefon",
        "text:\u{90ae}\u{7bb1}",
    ];
    for key in contacts {
        assert!(looks_contact_key(key), "should name contact data: {key}");
        assert!(!looks_secret_key(key), "not a secret: {key}");
        assert!(!looks_sensitive_input(key, "foo"), "{key}");
        assert!(looks_sensitive_input(key, "jean@example.fr"), "{key}");
    }
    assert!(looks_sensitive_input("text:Telefon", "030 1234"));
    for key in ["com.x:id/spinner", "text:Carrito", "com.x:id/search_box"] {
        assert!(!looks_secret_key(key) && !looks_contact_key(key), "{key}");
    }
}
