//! The runnable files of a bundle, from the replay plan's entries: Maestro and Robo
//! read back with the import's own parsers; a private value never written (the step
//! says so in a comment); the ticket text.

use serde_json::json;
use whittle_core::import::{maestro, robo, ElementKey, ImportedAction};
use whittle_core::model::Confidence;
use whittle_service::export::{
    maestro_flow, robo_script, ticket_markdown, ExportInput, ExportStep,
};

const SECRET: &str = "S3cr3t-Pa55word!";

fn entry(index: u32, description: &str, action: serde_json::Value) -> ExportStep {
    let mut action = action;
    action["index"] = json!(index);
    action["description"] = json!(description);
    ExportStep {
        index,
        description: description.into(),
        action,
    }
}

fn input() -> ExportInput {
    let strategy = |by: &str, value: &str| json!({"by": by, "value": value});
    ExportInput {
        engine_version: "0.1.0".into(),
        package: "com.example.shop".into(),
        app_version: Some("2.3.0 (230)".into()),
        device: "sim-1".into(),
        device_name: Some("Pixel 7".into()),
        os_version: Some("14".into()),
        target_fingerprint: Some("0123456789ab".into()),
        target_label: "NullPointerException in ShippingQuote.forCart".into(),
        target_stack: Some("java.lang.NullPointerException\n\tat a.b.C.d(C.kt:1)".into()),
        side_process: None,
        attempts: 17,
        confidence: Confidence::High,
        complete: true,
        end: whittle_core::run_end::RunEnd::Minimized,
        original_path: (1..=9).collect(),
        minimal_path: vec![1, 3, 4, 5, 6, 7, 8],
        steps: vec![
            entry(1, "Launch app", json!({"action_type": "launch"})),
            entry(
                3,
                "Tap “product_card” (id)",
                json!({"action_type": "tap",
                "strategy": strategy("identifier", "com.example.shop:id/product_card")}),
            ),
            entry(
                4,
                "Tap “Add to cart”",
                json!({"action_type": "tap",
                "strategy": strategy("text", "Add to cart")}),
            ),
            entry(
                5,
                "Tap “Cart tab” (label)",
                json!({"action_type": "tap",
                "strategy": strategy("label", "Cart tab")}),
            ),
            entry(
                6,
                "Type into “search_box” (id)",
                json!({"action_type": "input_text",
                "strategy": strategy("identifier", "com.example.shop:id/search_box"),
                "input_value": "red \"shoes\"\n#2", "input_redacted": false}),
            ),
            entry(
                7,
                "Type into “promo” (id)",
                json!({"action_type": "input_text",
                "strategy": strategy("identifier", "com.example.shop:id/promo"),
                "input_value": SECRET, "input_redacted": false}),
            ),
            entry(
                8,
                "Press BACK",
                json!({"action_type": "press_button", "button": "BACK"}),
            ),
        ],
        proof_lines: vec!["without step 3: 0/3 reproduced".into()],
        rate_lines: Vec::new(),
        screenshots: Vec::new(),
        masking_level: None,
        review: None,
        filmstrip: None,
        evidence_session: "2026-05-14_170000_minimize-checkout".into(),
        seal: whittle_service::export::SealCheck::Verified,
    }
}

fn id(s: &str) -> ElementKey {
    ElementKey::Id(s.into())
}

/// Launch, the product card, "Add to cart", then the cart tab as the format selects it
/// (the flows differ there: Maestro's text selector also matches the accessibility text).
fn launch_to_cart(cart_tab: ElementKey) -> Vec<ImportedAction> {
    vec![
        ImportedAction::Launch,
        ImportedAction::Tap {
            element: id("com.example.shop:id/product_card"),
        },
        ImportedAction::Tap {
            element: ElementKey::Text("Add to cart".into()),
        },
        ImportedAction::Tap { element: cart_tab },
    ]
}

/// The search typed into its box (quotes and a line break survive).
fn typed_search() -> ImportedAction {
    ImportedAction::InputText {
        element: Some(id("com.example.shop:id/search_box")),
        value: Some("red \"shoes\"\n#2".into()),
        private: false,
    }
}

fn back() -> ImportedAction {
    ImportedAction::PressButton {
        button: "BACK".into(),
    }
}

/// An element as a Maestro flow names it when read back: a pattern Maestro matches.
fn pattern(by_id: bool, s: &str) -> ElementKey {
    ElementKey::Maestro {
        by_id,
        pattern: s.into(),
        selector: Default::default(),
    }
}

#[test]
fn the_maestro_flow_reads_back_as_the_minimal_path_without_the_private_value() {
    let text = maestro_flow(&input());
    assert!(!text.contains(SECRET), "{text}");
    assert!(text.contains("# The value typed here is private"), "{text}");
    let flow = maestro::parse("repro.maestro.yaml", text.as_bytes()).unwrap();
    assert_eq!(flow.package.as_deref(), Some("com.example.shop"));
    let actions: Vec<_> = flow.steps.iter().map(|s| s.action.clone()).collect();
    let tap = |by_id, s: &str| ImportedAction::Tap {
        element: pattern(by_id, s),
    };
    let expected = [
        ImportedAction::Launch,
        tap(true, "com.example.shop:id/product_card"),
        tap(false, "Add to cart"),
        tap(false, "Cart tab"),
        // Typing: focus the field, then type where the focus is.
        tap(true, "com.example.shop:id/search_box"),
        ImportedAction::InputText {
            element: Some(ElementKey::Focused),
            value: Some("red \"shoes\"\n#2".into()),
            private: false,
        },
        // The private step: its field is focused, the typing is left for the human.
        tap(true, "com.example.shop:id/promo"),
        back(),
    ];
    assert_eq!(actions, expected);
}

#[test]
fn the_robo_script_reads_back_with_the_private_step_as_a_comment() {
    let text = robo_script(&input());
    assert!(!text.contains(SECRET), "{text}");
    assert!(
        text.contains(
            "// 6. Type into “promo” (id) (original step 7): the value typed here is private"
        ),
        "{text}"
    );
    let script = robo::parse("repro.robo.json", text.as_bytes()).unwrap();
    let actions: Vec<_> = script.steps.iter().map(|s| s.action.clone()).collect();
    // Robo types into the field itself (no focusing tap); the private step is a comment.
    let mut expected = launch_to_cart(ElementKey::Label("Cart tab".into()));
    expected.extend([typed_search(), back()]);
    assert_eq!(actions, expected);
}

#[test]
fn a_redacted_entry_or_a_private_looking_element_is_left_for_the_human() {
    let mut input = input();
    input.steps[4].action["input_redacted"] = json!(true);
    input.steps[1].action["strategy"]["value"] = json!("jane.doe@example.com");
    let flow = maestro_flow(&input);
    let script = robo_script(&input);
    for text in [&flow, &script] {
        assert!(
            !text.contains("red \\\"shoes") && !text.contains("red \"shoes"),
            "{text}"
        );
        assert!(!text.contains("jane.doe"), "{text}");
        assert!(
            text.contains("Left for the human") || text.contains("left for the human"),
            "{text}"
        );
    }
}

#[test]
fn the_ticket_has_steps_confidence_identity_and_the_flow() {
    let md = ticket_markdown(&input());
    assert!(!md.contains(SECRET));
    for words in [
        "### Crash: NullPointerException in ShippingQuote.forCart",
        "**App:** `com.example.shop` 2.3.0 (230) · **Device:** Pixel 7 (`sim-1`), Android 14",
        "1. Launch the app from a fresh start (force-stopped first) (original step 1)",
        "2. Tap “product_card” (id) (original step 3)",
        "**Confidence:** high (minimal / converged) · 17 replays",
        "- without step 3: 0/3 reproduced",
        "```yaml\n# Reproduction of",
        "at a.b.C.d(C.kt:1)",
    ] {
        assert!(md.contains(words), "{words:?} missing:\n{md}");
    }
}

/// Issue 29: a crash in one of the app's other processes is the app's, and the ticket
/// and repro.md say which process crashed (the package alone does not).
#[test]
fn a_crash_in_a_side_process_names_the_process_in_the_ticket_and_repro_md() {
    let mut with_process = input();
    with_process.side_process = Some("com.example.shop:sync".into());
    let md = ticket_markdown(&with_process);
    assert!(
        md.contains("**App:** `com.example.shop` 2.3.0 (230) (in process `com.example.shop:sync`)"),
        "{md}"
    );
    let out = tempfile::tempdir().unwrap();
    let bundle = whittle_service::export::export_bundle(&with_process, out.path(), "b").unwrap();
    let repro = std::fs::read_to_string(bundle.join("repro.md")).unwrap();
    assert!(
        repro
            .contains("- Crashed in process: `com.example.shop:sync` (not the app's main process)"),
        "{repro}"
    );
    let main_only = ticket_markdown(&input());
    assert!(!main_only.contains("in process"), "{main_only}");
}
