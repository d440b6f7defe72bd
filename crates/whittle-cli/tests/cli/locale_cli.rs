//! The human output of `whittle minimize` follows LC_ALL / LC_MESSAGES / LANG (the first
//! non-empty one): Simplified Chinese in the seed's own words for zh*, English otherwise;
//! `--json` never changes with the language.

use crate::common;

use std::process::Output;

use common::*;
use serde_json::Value;

const SESSION: &str = "2026-05-14_160354_checkout-npe";

/// `whittle` with exactly these locale variables (the test runner's own are dropped).
fn whittle_in(env: &Env, locale: &[(&str, &str)], args: &[&str]) -> Output {
    let mut command = env.command(args);
    for name in ["LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"] {
        command.env_remove(name);
    }
    command.envs(locale.iter().copied());
    command.output().expect("run whittle")
}

fn no_secret_in(out: &Output) {
    let all = format!("{}{}", stdout(out), stderr(out));
    for secret in [SECRET_PASSWORD, SECRET_EMAIL] {
        assert!(!all.contains(secret), "{secret} leaked");
    }
}

#[test]
fn a_chinese_lang_gets_the_report_in_the_seeds_chinese() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    let out = whittle_in(
        &env,
        &[("LANG", "zh_CN.UTF-8")],
        &["minimize", SESSION, "--max-replays", "120"],
    );
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("✅ 复现路径精简：最小路径，已收敛 ("),
        "{text}"
    );
    assert!(
        text.contains("  原始:     [1,2,3,4,5,6,7,8,9,10,11,12]"),
        "{text}"
    );
    assert!(text.contains("  最小:     [1,9,10,11,12]"), "{text}");
    assert!(text.contains("每个单删除候选 0/3，最终路径 3/3"), "{text}");
    assert!(text.contains("已收敛"), "{text}");
    assert!(text.contains("删除第 10 步：0/3 复现"), "{text}");
    assert!(text.contains("  报告:     "), "{text}");
    assert!(!text.contains("Minimal path found"), "{text}");
    no_secret_in(&out);
}

#[test]
fn lang_c_gets_english_and_lc_all_overrides_lang() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    for locale in [
        &[("LANG", "C")][..],
        &[("LC_ALL", "C"), ("LANG", "zh_CN.UTF-8")][..],
    ] {
        let out = whittle_in(&env, locale, &["minimize", SESSION, "--max-replays", "120"]);
        assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(&out));
        let text = stdout(&out);
        assert!(
            text.starts_with("✅ Minimal path found ("),
            "{locale:?}: {text}"
        );
        assert!(text.contains("without step 10: 0/3 reproduced"), "{text}");
        assert!(!text.contains("复现"), "{locale:?}: {text}");
    }
}

#[test]
fn an_unproven_result_is_never_called_minimal_in_chinese() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    let out = whittle_in(
        &env,
        &[("LC_MESSAGES", "zh_CN.UTF-8"), ("LANG", "C")],
        &["minimize", SESSION, "--max-replays", "5"],
    );
    assert_eq!(out.status.code(), Some(1), "stderr: {}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("当前已复现的最短候选——未完成最小性证明"),
        "{text}"
    );
    assert!(text.contains("5 次 replay 的预算已耗尽"), "{text}");
    assert!(!text.contains('✅'), "{text}");
    assert!(!text.contains("已收敛"), "{text}");
}

#[test]
fn json_output_does_not_depend_on_the_language() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    let json_in = |locale: &[(&str, &str)]| -> Value {
        let out = whittle_in(
            &env,
            locale,
            &["minimize", SESSION, "--max-replays", "5", "--json"],
        );
        assert_eq!(out.status.code(), Some(1), "stderr: {}", stderr(&out));
        let mut j = json_out(&out);
        // Each run has its own evidence session; everything else must be equal.
        j.as_object_mut().unwrap().remove("evidence_session");
        j
    };
    let english = json_in(&[("LANG", "C")]);
    let chinese = json_in(&[("LANG", "zh_CN.UTF-8")]);
    assert_eq!(english, chinese);
    // Typed, in no language: each front end words it.
    assert!(english["warnings"]
        .as_array()
        .unwrap()
        .contains(&serde_json::json!({
            "source": "assessment",
            "warning": {"kind": "budget_exhausted", "max_replays": 5}
        })));
}

#[test]
fn a_refused_budget_is_explained_in_the_language_before_any_side_effect() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    let out = whittle_in(
        &env,
        &[("LANG", "zh_CN.UTF-8")],
        &["minimize", SESSION, "--max-replays", "0"],
    );
    assert_eq!(out.status.code(), Some(3));
    assert!(
        stderr(&out).contains("错误：--max-replays 必须是 >= 1 的整数（收到 0）"),
        "{}",
        stderr(&out)
    );
    let out = whittle_in(&env, &[], &["minimize", SESSION, "--max-replays", "0"]);
    assert!(
        stderr(&out).contains("error: --max-replays must be an integer >= 1 (got 0)"),
        "{}",
        stderr(&out)
    );
    assert!(env.evidence_dirs().is_empty());
}

#[test]
fn a_static_suggestion_is_worded_in_chinese_and_stays_low() {
    let env = Env::fast(&[]);
    let session = checkout_session(&env);
    let meta_path = session.join("meta.json");
    let mut meta: Value =
        serde_json::from_str(&std::fs::read_to_string(&meta_path).unwrap()).unwrap();
    meta["platform"] = "ios".into();
    std::fs::write(&meta_path, meta.to_string()).unwrap();

    let out = whittle_in(&env, &[("LANG", "zh_CN.UTF-8")], &["minimize", SESSION]);
    assert_eq!(out.status.code(), Some(3), "stderr: {}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("ⓘ 仅静态建议，置信度低 ("), "{text}");
    assert!(text.contains("  建议:     ["), "{text}");
    assert!(text.contains("(未回放)"), "{text}");
    assert!(
        text.contains("未回放任何步骤，也不会写回任何内容。"),
        "{text}"
    );
    assert!(!text.contains('✅'), "{text}");
}
