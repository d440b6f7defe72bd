//! The simulator model the CLI tests replay on (small screens, zero timing) and the
//! crash stacks its buttons throw.

use serde_json::{json, Value};

use super::PKG;

fn el(id: &str, text: &str, y: i32, tap: Value) -> Value {
    let mut e = json!({"id": format!("{PKG}:id/{id}"), "class": "android.widget.Button", "text": text,
        "bounds": [20, y, 340, y + 40]});
    if !tap.is_null() {
        e["tap"] = tap;
    }
    e
}

fn stack(exception: &str, frames: &[&str]) -> String {
    let mut s = format!("FATAL EXCEPTION: main\nProcess: {PKG}, PID: 4242\n{exception}\n");
    for f in frames {
        s.push_str(&format!("\tat {f}(Source.java:42)\n"));
    }
    s.push_str("\tat android.view.View.performClick(View.java:7448)\n");
    s
}

pub fn npe_stack() -> String {
    stack(
        "java.lang.NullPointerException: Attempt to invoke virtual method 'int com.example.shop.Order.total()' on a null object reference",
        &["com.example.shop.CheckoutActivity.onCheckout", "com.example.shop.CheckoutActivity.onClick"],
    )
}

pub fn report_stack() -> String {
    stack(
        "java.lang.NullPointerException: report",
        &[
            "com.example.shop.ReportActivity.send",
            "com.example.shop.ReportActivity.onClick",
        ],
    )
}

pub fn empty_report_stack() -> String {
    stack(
        "java.lang.IllegalStateException: empty cart",
        &[
            "com.example.shop.ReportActivity.validate",
            "com.example.shop.ReportActivity.onClick",
        ],
    )
}

pub fn promo_stack() -> String {
    stack(
        "java.lang.IllegalStateException: promo",
        &[
            "com.example.shop.PromoBanner.show",
            "com.example.shop.HomeActivity.onPromo",
        ],
    )
}

pub fn sync_stack() -> String {
    stack(
        "java.util.ConcurrentModificationException",
        &[
            "com.example.shop.SyncWorker.merge",
            "com.example.shop.SyncWorker.run",
        ],
    )
}

pub fn launch_stack() -> String {
    stack(
        "java.lang.RuntimeException: boot",
        &[
            "com.example.shop.ShopApp.onCreate",
            "com.example.shop.ShopApp.init",
        ],
    )
}

/// The test app: small screens so screenshots are cheap, zero sim timing.
pub fn model() -> Value {
    json!({
        "package": PKG,
        "version": {"name": "2.3.0", "code": 230},
        "launch": {"screen": "home", "anchor": format!("{PKG}:id/home_root")},
        "state": {"cart": 0, "logged_in": false},
        "screen_size": [360, 640],
        "screens": {
            "home": {"back": "exit", "elements": [
                {"id": format!("{PKG}:id/home_root"), "class": "android.widget.FrameLayout", "bounds": [0, 0, 360, 20]},
                el("btn_login", "Login", 30, json!({"goto": "login"})),
                el("btn_search", "Search", 80, json!({"goto": "search"})),
                el("btn_product", "Product", 130, json!({"goto": "product"})),
                el("btn_promo", "Promo", 180, json!({})),
                el("btn_sync", "Sync", 230, json!({})),
                el("btn_home", "Home", 280, json!({})),
                el("btn_report", "Report", 330, json!({}))]},
            "login": {"back": "home", "elements": [
                {"id": format!("{PKG}:id/email"), "class": "android.widget.EditText", "bounds": [20, 30, 340, 70],
                 "input": {"set": {"email": "$text"}}},
                {"id": format!("{PKG}:id/password"), "class": "android.widget.EditText", "password": true,
                 "bounds": [20, 80, 340, 120], "input": {"set": {"password": "$text"}}},
                el("btn_signin", "Sign in", 130, json!({"set": {"logged_in": true}, "goto": "home"}))]},
            "search": {"back": "home", "elements": [
                {"id": format!("{PKG}:id/search_field"), "class": "android.widget.EditText", "bounds": [20, 30, 340, 70],
                 "input": {"set": {"query": "$text"}}}]},
            "product": {"back": "home", "elements": [
                el("btn_add", "Add to cart", 30, json!({"incr": {"cart": 1}})),
                el("btn_cart", "Cart", 80, json!({"goto": "cart"})),
                el("btn_home", "Home", 130, json!({"goto": "home"}))]},
            "cart": {"back": "product", "elements": [
                el("btn_checkout", "Checkout", 30, json!({}))]}
        },
        "crashes": [
            {"name": "npe-checkout", "kind": "java", "on": {"screen": "cart", "tap": format!("{PKG}:id/btn_checkout")},
             "when": {"cart": {">=": 1}}, "stack": npe_stack()},
            {"name": "report", "kind": "java", "on": {"screen": "home", "tap": format!("{PKG}:id/btn_report")},
             "when": {"cart": {">=": 1}}, "stack": report_stack()},
            {"name": "report-empty", "kind": "java", "on": {"screen": "home", "tap": format!("{PKG}:id/btn_report")},
             "when": {"cart": 0}, "stack": empty_report_stack()},
            {"name": "promo", "kind": "java", "on": {"screen": "home", "tap": format!("{PKG}:id/btn_promo")},
             "probability": 0.6, "stack": promo_stack()},
            {"name": "sync", "kind": "java", "on": {"screen": "home", "tap": format!("{PKG}:id/btn_sync")},
             "delay_ms": 60, "stack": sync_stack()}
        ],
        "timing": {"launch_ms": 0, "action_ms": 0}
    })
}
