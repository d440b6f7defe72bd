//! Sessions as the recorder writes them: one step line per action (new-format notes),
//! and the 12-step checkout session most tests minimize.

use std::path::PathBuf;

use serde_json::{json, Value};

use super::app_model::npe_stack;
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

/// The 12-step checkout session: login detour with a sensitive e-mail and a redacted
/// password, a search detour, then product → add → cart → checkout.
pub fn checkout_session(env: &Env) -> PathBuf {
    let steps = vec![
        launch(1),
        tap(2, "btn_login"),
        input(3, "email", SECRET_EMAIL, false),
        input(4, "password", SECRET_PASSWORD, true),
        back(5),
        tap(6, "btn_search"),
        input(7, "search_field", "red shoes", false),
        back(8),
        tap(9, "btn_product"),
        tap(10, "btn_add"),
        tap(11, "btn_cart"),
        tap(12, "btn_checkout"),
    ];
    env.add_session(
        "2026-05-14_160354_checkout-npe",
        &steps,
        &npe_stack(),
        &(1..=12).collect::<Vec<_>>(),
    )
}
