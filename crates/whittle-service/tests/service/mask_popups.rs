//! Leaks (issue #8): masking on screens where private data sits in what pops up over the
//! app: a dialog over a password field, an autofill suggestion list, a popup with a
//! one-time code. Public API only (`auto_masks`); each case asserts the exact elements
//! masked, so an element that stops being masked fails here.

use crate::mask_support;

use whittle_contract::ui::{Hierarchy, UiElement};
use whittle_service::mask::{auto_masks, MaskRect};

use mask_support::{element, field};

/// The masks' top edges with their reasons, in hierarchy order.
fn masked(elements: Vec<UiElement>) -> Vec<(u32, String)> {
    auto_masks(&Hierarchy { elements }, &[])
        .into_iter()
        .map(|m: MaskRect| (m.y, m.reason))
        .collect()
}

/// The frame of the verification popup the one-time-code screens show.
fn popup() -> UiElement {
    element(
        "com.example.shop:id/popup",
        "android.widget.FrameLayout",
        "",
        [80, 600, 1000, 1300],
    )
}

fn has(masks: &[(u32, String)], y: u32) -> bool {
    masks.iter().any(|(top, _)| *top == y)
}

/// A login screen under a "Save password?" dialog: the field stays masked although the
/// dialog covers it (it may be drawn through a translucent scrim), and the dialog's own
/// account line is masked too; the dialog's buttons and title are not.
#[test]
fn a_dialog_over_a_password_field_masks_the_field_and_the_account_it_names() {
    let password = UiElement {
        password: true,
        ..field(
            "com.example.shop:id/password",
            "••••••••",
            [40, 600, 1040, 700],
        )
    };
    let elements = vec![
        element("", "android.widget.FrameLayout", "", [0, 0, 1080, 1920]),
        element(
            "com.example.shop:id/title",
            "android.widget.TextView",
            "Sign in",
            [40, 100, 1040, 200],
        ),
        password,
        // The dialog, drawn over the screen.
        element(
            "android:id/parentPanel",
            "android.widget.LinearLayout",
            "",
            [60, 500, 1020, 1100],
        ),
        element(
            "android:id/alertTitle",
            "android.widget.TextView",
            "Save password?",
            [100, 540, 980, 620],
        ),
        element(
            "android:id/message",
            "android.widget.TextView",
            "Save the password for jane.doe@example.com in your password manager",
            [100, 640, 980, 760],
        ),
        element(
            "android:id/button1",
            "android.widget.Button",
            "Save",
            [700, 960, 980, 1060],
        ),
        element(
            "android:id/button2",
            "android.widget.Button",
            "Never",
            [100, 960, 380, 1060],
        ),
    ];
    assert_eq!(
        masked(elements),
        vec![
            (600, "password field".to_string()),
            (640, "sensitive text".to_string()),
        ]
    );
}

/// The autofill dropdown under a focused e-mail field: the field (what is being typed)
/// and every suggestion that shows an address or a phone number are masked.
#[test]
fn autofill_suggestions_showing_an_email_or_a_phone_are_masked() {
    let email = UiElement {
        focused: true,
        ..field("com.example.shop:id/email", "jane", [40, 300, 1040, 400])
    };
    let suggestion = |text: &str, top: i32| {
        element(
            "android:id/autofill_dataset_title",
            "android.widget.TextView",
            text,
            [40, top, 1040, top + 90],
        )
    };
    let mut described = element(
        "android:id/autofill_dataset_picker",
        "android.widget.LinearLayout",
        "",
        [40, 700, 1040, 790],
    );
    described.content_desc = "Suggestion: jane.work@example.org".into();
    let elements = vec![
        email,
        element(
            "android:id/autofill_dataset_list",
            "android.widget.ListView",
            "",
            [40, 400, 1040, 900],
        ),
        suggestion("jane.doe@example.com", 410),
        suggestion("+1 415 555 0100", 510),
        suggestion("Manage passwords…", 610),
        described,
    ];
    let masks = masked(elements);
    assert!(has(&masks, 300), "the focused field: {masks:?}");
    assert!(has(&masks, 410), "the e-mail suggestion: {masks:?}");
    assert!(has(&masks, 510), "the phone suggestion: {masks:?}");
    assert!(
        has(&masks, 700),
        "a suggestion only its description names: {masks:?}"
    );
    assert!(!has(&masks, 610) && !has(&masks, 400), "{masks:?}");
}

/// A one-time code typed into an OTP box in a verification popup is masked by the box's
/// id; the popup's "Verify" button is not.
#[test]
fn an_otp_box_in_a_popup_is_masked() {
    let elements = vec![
        popup(),
        element(
            "com.example.shop:id/otp_input",
            "android.widget.EditText",
            "483920",
            [120, 800, 960, 900],
        ),
        element(
            "com.example.shop:id/verify",
            "android.widget.Button",
            "Verify",
            [120, 1100, 960, 1200],
        ),
    ];
    let masks = masked(elements);
    assert_eq!(masks, vec![(800, "private field".to_string())]);
}

/// A popup (or heads-up SMS notification) that *shows* a one-time code in prose, in an
/// element with a neutral id.
#[test]
fn a_popup_showing_a_one_time_code_in_prose_is_masked() {
    let elements = vec![
        popup(),
        element(
            "com.example.shop:id/message",
            "android.widget.TextView",
            "Your verification code is 483920",
            [120, 700, 960, 780],
        ),
    ];
    assert!(has(&masked(elements), 700));
}
