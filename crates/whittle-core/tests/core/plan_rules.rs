//! Phase 1 (docs/design.md §13): the replay plan built from a crash's repro_path —
//! strategies, replayable forms, coverage and the launch anchor.

use serde_json::json;
use whittle_core::plan::{
    build_plan, By, Coverage, Disposition, ReplayAction, SkipReason, Strategy,
};

use crate::plan_support;
use plan_support::*;

#[test]
fn seed_worked_example() {
    let mut steps = vec![launch(1)];
    for i in 2..=8 {
        steps.push(if i == 4 {
            new_step(4, json!({"action_type": "tap"}))
        } else {
            tap(i, &format!("jko.dns.qwn.dfgt:id/v{i}"))
        });
    }
    let plan = build_plan(&steps, &[1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
    assert_eq!(plan.setup, vec![1]);
    assert_eq!(plan.candidate_ids(), vec![2, 3, 5, 6, 7, 8]);
    assert_eq!(
        plan.coverage,
        Coverage {
            non_launch: 7,
            replayable: 6
        }
    );
    assert!(plan.coverage.allows_live_run());
    assert!(!plan.launch_only());
    assert_eq!(skip_reason(&plan, 4), Some(SkipReason::NoElementKey));
    assert_eq!(plan.steps.len(), 8);
    assert_eq!(plan.steps[0].disposition, Disposition::Setup);
    assert_eq!(plan.steps[0].description, "Launch app");
    assert_eq!(plan.steps[1].disposition, Disposition::Replayable);
    assert_eq!(plan.steps[1].description, "Tap “v2” (id)");
    assert_eq!(
        plan.step(7).unwrap().action,
        ReplayAction::Tap {
            strategy: id("jko.dns.qwn.dfgt:id/v7")
        }
    );
    assert!(plan.step(4).is_none() && plan.step(1).is_none());
    assert!(
        plan.warnings
            .iter()
            .any(|w| w.starts_with("Step 4 is skipped.")),
        "{:?}",
        plan.warnings
    );
    assert_eq!(plan.path_with_setup(&[7]), vec![1, 7]);
    assert_eq!(plan.path_with_setup(&[]), vec![1]);
}

#[test]
fn key_prefixes_choose_the_strategy() {
    let steps = vec![
        tap(1, "text:Checkout"),
        tap(2, "label:Cart"),
        tap(3, "class:android.widget.Button"),
        tap(4, "bounds:[0,0][10,10]"),
        tap(5, "com.x:id/btn"),
        tap(6, ""),
        tap(7, "text:"),
    ];
    let plan = build_plan(&steps, &[1, 2, 3, 4, 5, 6, 7]).unwrap();
    let strategy = |i| match &plan.step(i).unwrap().action {
        ReplayAction::Tap { strategy } => strategy.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(strategy(1), Strategy::new(By::Text, "Checkout"));
    assert_eq!(strategy(2), Strategy::new(By::Label, "Cart"));
    assert_eq!(strategy(5), id("com.x:id/btn"));
    assert!(matches!(
        skip_reason(&plan, 3),
        Some(SkipReason::UnstableKey { .. })
    ));
    assert!(matches!(
        skip_reason(&plan, 4),
        Some(SkipReason::UnstableKey { .. })
    ));
    assert_eq!(skip_reason(&plan, 6), Some(SkipReason::NoElementKey));
    assert_eq!(skip_reason(&plan, 7), Some(SkipReason::NoElementKey));
    assert_eq!(plan.steps[0].description, "Tap “Checkout”");
    assert_eq!(plan.steps[1].description, "Tap “Cart” (label)");
}

#[test]
fn replayable_forms() {
    let steps = vec![
        new_step(1, json!({"action_type": "press_button", "button": "BACK"})),
        new_step(2, json!({"action_type": "press_button", "button": "HOME"})),
        new_step(3, json!({"action_type": "press_button"})),
        new_step(
            4,
            json!({"action_type": "input_text", "element_key": "com.x:id/search", "input_value": "search shoes"}),
        ),
        new_step(
            5,
            json!({"action_type": "input_text", "element_key": "com.x:id/search"}),
        ),
        new_step(
            6,
            json!({"action_type": "input_text", "element_key": "com.x:id/qty", "input_value": 42}),
        ),
        new_step(
            7,
            json!({"action_type": "swipe", "element_key": "com.x:id/list"}),
        ),
        new_step(8, json!({"element_key": "com.x:id/list"})),
        new_step(
            9,
            json!({"action_type": "input_text", "input_value": "shoes"}),
        ),
    ];
    let plan = build_plan(&steps, &[1, 2, 3, 4, 5, 6, 7, 8, 9]).unwrap();
    assert_eq!(plan.candidate_ids(), vec![1, 4]);
    assert_eq!(
        plan.step(1).unwrap().action,
        ReplayAction::PressButton {
            button: "BACK".into()
        }
    );
    match &plan.step(4).unwrap().action {
        ReplayAction::InputText { strategy, value } => {
            assert_eq!(strategy, &id("com.x:id/search"));
            assert_eq!(value.expose(), "search shoes");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        skip_reason(&plan, 2),
        Some(SkipReason::UnsupportedButton {
            button: "HOME".into()
        })
    );
    assert_eq!(
        skip_reason(&plan, 3),
        Some(SkipReason::UnsupportedButton {
            button: String::new()
        })
    );
    assert_eq!(skip_reason(&plan, 5), Some(SkipReason::MissingInputValue));
    assert_eq!(skip_reason(&plan, 6), Some(SkipReason::MissingInputValue));
    assert_eq!(
        skip_reason(&plan, 7),
        Some(SkipReason::UnsupportedAction {
            action_type: "swipe".into()
        })
    );
    // No action_type in replay: falls back to the legacy reading of `action` ("human").
    assert_eq!(
        skip_reason(&plan, 8),
        Some(SkipReason::UnsupportedAction {
            action_type: "human".into()
        })
    );
    assert_eq!(skip_reason(&plan, 9), Some(SkipReason::NoElementKey));
    assert_eq!(plan.steps[3].description, "Type into “search” (id)");
    assert!(!plan.steps.iter().any(|s| s.description.contains("shoes")));
    // 2 of 9 replayable: a live run is refused.
    assert_eq!(
        plan.coverage,
        Coverage {
            non_launch: 9,
            replayable: 2
        }
    );
    assert!(!plan.coverage.allows_live_run());
    assert!(plan
        .warnings
        .last()
        .unwrap()
        .contains("Only 2 of 9 actions"));
}

#[test]
fn coverage_threshold_is_half() {
    let half = |replayable: u32, non_launch: u32| {
        Coverage {
            non_launch,
            replayable,
        }
        .allows_live_run()
    };
    assert!(half(0, 0));
    assert!(half(1, 2));
    assert!(half(2, 4));
    assert!(!half(1, 3));
    assert!(!half(2, 5));
    assert!(!half(0, 1));
    assert!(half(u32::MAX, u32::MAX));

    // The 50% refusal on a real plan: launch + 2 keyed taps + 3 taps without keys.
    let steps = vec![
        launch(1),
        tap(2, "com.x:id/a"),
        tap(3, "com.x:id/b"),
        new_step(4, json!({"action_type": "tap"})),
        new_step(5, json!({"action_type": "tap"})),
        new_step(6, json!({"action_type": "tap"})),
    ];
    let plan = build_plan(&steps, &[1, 2, 3, 4, 5, 6]).unwrap();
    assert_eq!(
        plan.coverage,
        Coverage {
            non_launch: 5,
            replayable: 2
        }
    );
    assert!(!plan.coverage.allows_live_run());
    let plan = build_plan(&steps, &[1, 2, 3, 4, 5]).unwrap();
    assert_eq!(
        plan.coverage,
        Coverage {
            non_launch: 4,
            replayable: 2
        }
    );
    assert!(plan.coverage.allows_live_run());
}

#[test]
fn launch_only_path() {
    let steps = vec![
        new_step(
            1,
            json!({"action_type": "launch", "element_key": "com.example.shop:id/home_root"}),
        ),
        tap(2, "com.x:id/a"),
    ];
    let plan = build_plan(&steps, &[1]).unwrap();
    assert!(plan.launch_only());
    assert!(plan.candidate_ids().is_empty());
    assert!(plan.coverage.allows_live_run());
    assert_eq!(
        plan.coverage,
        Coverage {
            non_launch: 0,
            replayable: 0
        }
    );
    assert_eq!(
        plan.launch_anchor,
        Some(id("com.example.shop:id/home_root"))
    );
    assert_eq!(plan.path_with_setup(&[]), vec![1]);
}

#[test]
fn launch_anchor_follows_strategy_rules() {
    let anchor = |key: &str| {
        let steps = vec![new_step(
            1,
            json!({"action_type": "launch", "element_key": key}),
        )];
        build_plan(&steps, &[1]).unwrap().launch_anchor
    };
    assert_eq!(
        anchor("text:Welcome"),
        Some(Strategy::new(By::Text, "Welcome"))
    );
    assert_eq!(anchor("class:android.widget.FrameLayout"), None);
    assert_eq!(build_plan(&[launch(1)], &[1]).unwrap().launch_anchor, None);
    // A legacy launch step does not provide an anchor.
    let legacy = vec![step(1, "launch app", "element_key=com.x:id/root")];
    let plan = build_plan(&legacy, &[1]).unwrap();
    assert_eq!((plan.setup.clone(), plan.launch_anchor), (vec![1], None));
}
