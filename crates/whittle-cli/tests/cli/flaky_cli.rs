//! Issue 21 end to end, with the real binary and the simulator over stdio MCP: rates
//! in the report and `--json`, `--baseline-tries`, and `--strategy flaky` (never high).

use crate::common;

use common::*;
use serde_json::Value;

fn rate_ok(rate: &Value) -> bool {
    let (k, n) = (rate["reproduced"].as_u64(), rate["total"].as_u64());
    let (low, high) = (rate["low"].as_f64(), rate["high"].as_f64());
    matches!((k, n, low, high), (Some(k), Some(n), Some(l), Some(h)) if k <= n && 0.0 <= l && l <= h && h <= 1.0)
        && rate["confidence"] == 0.95
}

/// `whittle minimize` on the demo checkout crash (4 of 9 replayable steps needed).
fn checkout(env: &Env, extra: &[&str]) -> std::process::Output {
    env.minimize(CHECKOUT, "200", extra)
}

#[test]
fn the_seed_json_gains_rates_and_keeps_its_fields() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    let out = checkout(&env, &["--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let j = json_out(&out);
    assert_eq!(j["minimal_path"], serde_json::json!([1, 9, 10, 11, 12]));
    assert_eq!(j["confidence"], "high");
    // The final path reproduced 3 of 3; every kept step's deletion 0 of 3.
    assert!(rate_ok(&j["final_rate"]), "{}", j["final_rate"]);
    assert_eq!(j["final_rate"]["reproduced"], 3);
    assert_eq!(j["final_rate"]["total"], 3);
    let deletions = j["deletion_rates"].as_array().unwrap();
    assert_eq!(
        deletions
            .iter()
            .map(|d| d["removed_step"].as_u64().unwrap())
            .collect::<Vec<_>>(),
        vec![9, 10, 11, 12]
    );
    for d in deletions {
        assert!(rate_ok(&d["rate"]), "{d}");
        assert_eq!(d["rate"]["reproduced"], 0, "{d}");
        assert_eq!(d["rate"]["total"], 3, "{d}");
    }
    assert!(rate_ok(&j["crash_rate"]));
    let ev = &env.evidence_dirs()[0];
    let report = std::fs::read_to_string(ev.join("report.md")).unwrap();
    assert!(
        report.contains("Rates:")
            && report.contains("final path: reproduced 3 of 3 (95 % interval 43–100 %)")
            && report.contains("without step 9: reproduced 0 of 3 (95 % interval 0–57 %)"),
        "{report}"
    );
    let result: Value =
        serde_json::from_str(&std::fs::read_to_string(ev.join("result.json")).unwrap()).unwrap();
    assert_eq!(
        result["final_outcomes"],
        serde_json::json!([true, true, true])
    );
}

#[test]
fn the_flaky_strategy_finds_the_same_path_and_says_medium() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    let out = checkout(&env, &["--strategy", "flaky", "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let j = json_out(&out);
    assert_eq!(j["status"], "unproven", "medium is never called minimized");
    assert_eq!(j["minimal_path"], serde_json::json!([1, 9, 10, 11, 12]));
    // A deterministic crash, proven by the shared audit, but the flaky strategy's misses
    // are evidence, not proof: never high.
    assert_eq!(j["confidence"], "medium");
    assert_eq!(j["complete"], true);
    assert_eq!(j["final_confirmed"], true);
    let warnings = j["warnings"].as_array().unwrap();
    assert!(
        warnings
            .iter()
            .any(|w| w["source"] == "assessment" && w["warning"]["kind"] == "statistical"),
        "{warnings:#?}"
    );
    for d in j["deletion_rates"].as_array().unwrap() {
        assert_eq!(d["rate"]["reproduced"], 0, "{d}");
        // Every deletion lies below the crash rate (which is 100 % here).
        assert!(
            d["rate"]["high"].as_f64() < j["crash_rate"]["low"].as_f64(),
            "{d}"
        );
    }
    let out = checkout(&env, &["--strategy", "flaky"]);
    let text = stdout(&out);
    assert!(!text.contains('✅'), "{text}");
    assert!(
        text.contains("crash rate: reproduced") && text.contains("— below the crash rate"),
        "{text}"
    );
    assert!(
        text.contains("Removed (a candidate without the step that reproduced):"),
        "{text}"
    );
}

#[test]
fn a_flaky_crash_with_baseline_tries_is_reduced_with_its_rates() {
    let env = Env::fast(&["--seed", "3"]);
    promo_session(&env);
    let out = env.minimize(
        PROMO,
        "200",
        &["--strategy", "flaky", "--baseline-tries", "8", "--json"],
    );
    assert_exit(&out, 1);
    let j = json_out(&out);
    assert_eq!(j["status"], "unproven", "medium is never called minimized");
    assert_ne!(j["confidence"], "high");
    let minimal = j["minimal_path"].as_array().unwrap();
    assert!(minimal.contains(&serde_json::json!(4)), "{j}");
    let crash = &j["crash_rate"];
    assert!(rate_ok(crash));
    // Roughly the simulator's 60 %.
    assert!(
        crash["low"].as_f64().unwrap() < 0.6 && 0.6 < crash["high"].as_f64().unwrap(),
        "{crash}"
    );
    assert!(j["attempts"].as_u64().unwrap() <= 200);
}

#[test]
fn zero_baseline_tries_are_refused_before_any_side_effect() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    for bad in ["0", "-1", "many"] {
        let out = checkout(&env, &["--baseline-tries", bad]);
        assert_eq!(out.status.code(), Some(3), "{bad}: {}", stderr(&out));
    }
    assert!(
        env.evidence_dirs().is_empty(),
        "no evidence session may be created"
    );
}

/// Seed 4: the promo crash does not show on the simulator's first launch of a run, so
/// a baseline of one try misses it (seeds 6, 7, 9 and 10 would too).
const MISSES_FIRST: &str = "4";

#[test]
fn a_baseline_miss_on_its_only_try_hints_at_more_baseline_tries() {
    let env = Env::fast(&["--seed", MISSES_FIRST]);
    promo_session(&env);
    let out = env.minimize(PROMO, "200", &["--json"]);
    assert_exit(&out, 2);
    let j = json_out(&out);
    assert_eq!(j["status"], "not_reproduced", "{j}");
    assert_eq!(j["attempts"], 1, "{j}");
    assert_eq!(
        j["hint"],
        serde_json::json!({"kind": "more_baseline_tries"})
    );
    let crash = j["crash_id"].as_str().unwrap().to_owned();

    let out = env.minimize(PROMO, "200", &[]);
    assert_exit(&out, 2);
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "hint: {PROMO} {crash} did not crash the same way on its only baseline try"
        )) && err.contains("--baseline-tries 3"),
        "{err}"
    );

    // The same first miss, then more tries: the crash shows, and nothing is hinted.
    let out = env.minimize(PROMO, "200", &["--baseline-tries", "3", "--json"]);
    let j = json_out(&out);
    assert_ne!(j["status"], "not_reproduced", "{j}");
    assert!(j.get("hint").is_none(), "{j}");
}
