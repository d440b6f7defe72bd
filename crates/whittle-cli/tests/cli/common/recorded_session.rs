//! Sessions as the recorder writes them: one step line per action (new-format notes),
//! the 12-step checkout session most tests minimize, and the flaky promo session.

use std::path::PathBuf;

use serde_json::{json, Value};

use super::app_model::{npe_stack, promo_stack};
use super::run::notes_of;
use super::{Env, PKG, SECRET_EMAIL, SECRET_PASSWORD};

/// One recorded step (new-format notes).
pub fn step(index: u32, replay: Value) -> Value {
    let action = replay["action_type"].as_str().unwrap_or("").to_string();
    json!({"index": index, "ts": "2026-05-14T16:03:54Z", "action": action, "result": "ok",
           "notes": json!({"replay": replay}).to_string()})
}

pub fn launch(i: u32) -> Value {
    step(
        i,
        json!({"action_type": "launch", "element_key": format!("{PKG}:id/home_root")}),
    )
}
pub fn tap(i: u32, id: &str) -> Value {
    step(
        i,
        json!({"action_type": "tap", "element_key": format!("{PKG}:id/{id}")}),
    )
}
pub fn back(i: u32) -> Value {
    step(i, json!({"action_type": "press_button", "button": "BACK"}))
}
pub fn input(i: u32, id: &str, value: &str, redacted: bool) -> Value {
    step(
        i,
        json!({"action_type": "input_text", "element_key": format!("{PKG}:id/{id}"),
                   "input_value": value, "input_redacted": redacted}),
    )
}

/// `step` with its notes object changed by `edit` (notes are a JSON string in the step).
pub fn with_notes(mut step: Value, edit: impl FnOnce(&mut Value)) -> Value {
    let mut notes = notes_of(&step);
    edit(&mut notes);
    step["notes"] = notes.to_string().into();
    step
}

/// Steps 1–8 of the checkout session: the launch, a login detour with a sensitive
/// e-mail and a redacted password, and a search detour typing `search`.
pub fn login_and_search_detours(search: &str) -> Vec<Value> {
    vec![
        launch(1),
        tap(2, "btn_login"),
        input(3, "email", SECRET_EMAIL, false),
        input(4, "password", SECRET_PASSWORD, true),
        back(5),
        tap(6, "btn_search"),
        input(7, "search_field", search, false),
        back(8),
    ]
}

/// The 12-step checkout session: the login and search detours, then product → add →
/// cart → checkout.
pub fn checkout_session(env: &Env) -> PathBuf {
    let mut steps = login_and_search_detours("red shoes");
    steps.extend([
        tap(9, "btn_product"),
        tap(10, "btn_add"),
        tap(11, "btn_cart"),
        tap(12, "btn_checkout"),
    ]);
    env.add_session(
        "2026-05-14_160354_checkout-npe",
        &steps,
        &npe_stack(),
        &(1..=12).collect::<Vec<_>>(),
    )
}

/// The promo session's id.
pub const PROMO: &str = "2026-05-23_100000_promo";

/// Four steps to the promo crash, which the simulator shows on 60 % of taps (seeded);
/// steps 2 and 3 are noise.
pub fn promo_session(env: &Env) -> PathBuf {
    let steps = vec![
        launch(1),
        tap(2, "btn_search"),
        back(3),
        tap(4, "btn_promo"),
    ];
    env.add_whole_session(PROMO, &steps, &promo_stack())
}
