//! Every parser of untrusted text in the core refuses input nested past
//! `MAX_NESTING_DEPTH` with a typed error naming the limit and the line, on a thread
//! with the stack of a tokio worker (2 MiB, where `whittle mcp` runs its tools): a
//! Maestro flow of 1,000 nested mappings used to overflow it and abort the process.
//! Input nested exactly to the limit is still read, on the same stack.

use std::collections::BTreeSet;

use whittle_core::import::{maestro, robo, ImportError, ImportProblem};
use whittle_core::model::{Step, StepResult};
use whittle_core::nesting::MAX_NESTING_DEPTH;
use whittle_core::plan::build_plan;
use whittle_core::session::{parse_crashes, parse_meta, parse_steps, SessionError, SessionProblem};

/// The stack of one of tokio's worker (and blocking) threads.
const WORKER_STACK: usize = 2 * 1024 * 1024;

/// Runs `f` on a thread with a worker's stack; a stack overflow aborts the test binary.
fn on_worker_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(WORKER_STACK)
        .spawn(f)
        .unwrap()
        .join()
        .expect("the parser panicked")
}

const DEPTHS: [usize; 2] = [1_000, 100_000];

/// `n` nested block mappings under a tap (indentation grows a column per level, so the
/// file stays under the import's 2 MiB at 1,000 levels).
fn block_mappings(n: usize) -> String {
    let mut flow = String::from("appId: com.example\n---\n- tapOn:\n");
    for level in 0..n {
        flow.push_str(&" ".repeat(4 + level));
        flow.push_str("below:\n");
    }
    flow.push_str(&" ".repeat(4 + n));
    flow.push_str("x\n");
    flow
}

/// Block sequences (`- - - x`) and explicit keys (`? ? ? x`) nest a level per two bytes.
fn block_on_one_line(marker: &str, n: usize) -> String {
    format!("appId: com.example\n---\n- back\n- {}x\n", marker.repeat(n))
}

fn flow_style(n: usize) -> String {
    format!(
        "appId: com.example\n---\n- back\n- tapOn: {}x{}\n",
        "{below: ".repeat(n),
        "}".repeat(n)
    )
}

fn refused_deep_import(result: Result<usize, ImportError>, line: usize) {
    let err = result.expect_err("deep input was accepted");
    assert_eq!(
        err.problem,
        ImportProblem::TooDeep {
            limit: MAX_NESTING_DEPTH
        },
        "{err}"
    );
    assert_eq!(err.line, Some(line), "{err}");
    assert!(err.to_string().contains("deeper than 64 levels"), "{err}");
}

fn maestro_steps(text: String) -> Result<usize, ImportError> {
    on_worker_stack(move || maestro::parse("deep.yaml", text.as_bytes()).map(|f| f.steps.len()))
}

#[test]
fn a_maestro_flow_nested_past_the_limit_is_refused_in_block_and_flow_style() {
    // Block mappings: the 64th `below:` is the 65th level (the commands list is the 1st,
    // a command the 2nd, the tap's selector the 3rd), on line 3 + 63.
    refused_deep_import(maestro_steps(block_mappings(1_000)), 3 + 63);
    for n in DEPTHS {
        refused_deep_import(maestro_steps(block_on_one_line("- ", n)), 4);
        refused_deep_import(maestro_steps(block_on_one_line("? ", n)), 4);
        refused_deep_import(maestro_steps(flow_style(n)), 4);
    }
}

#[test]
fn a_maestro_flow_nested_to_the_limit_is_read_on_a_worker_stack() {
    // The commands list, a command and its selector are 3 levels: 61 more reach 64. A
    // relative selector is kept as a step Whittle does not replay: read to the end.
    assert_eq!(maestro_steps(block_mappings(MAX_NESTING_DEPTH - 3)), Ok(1));
    let flow = format!(
        "appId: com.example\n---\n- tapOn:\n    id: ok\n    below: {}1{}\n- back\n",
        "[".repeat(MAX_NESTING_DEPTH - 3),
        "]".repeat(MAX_NESTING_DEPTH - 3)
    );
    assert_eq!(maestro_steps(flow), Ok(2));
    // The commands list and a command are 2 levels.
    assert_eq!(maestro_steps(flow_style(MAX_NESTING_DEPTH - 2)), Ok(2));
    // A list is no command: the reader's own complaint, not the limit's.
    let err = maestro_steps(block_on_one_line("- ", MAX_NESTING_DEPTH - 1)).unwrap_err();
    assert!(matches!(err.problem, ImportProblem::BadValue(_)), "{err}");
}

fn robo_steps(json: String) -> Result<usize, ImportError> {
    on_worker_stack(move || robo::parse("deep.json", json.as_bytes()).map(|f| f.steps.len()))
}

#[test]
fn a_robo_script_nested_past_the_limit_is_refused_with_its_line() {
    for n in DEPTHS {
        for (open, close) in [("[", "]"), ("{\"a\": ", "}")] {
            let json = format!(
                "// a recorded script\n[\n  {{\"eventType\": \"PRESSED_BACK\",\n   \"contextDescriptor\": {}1{}}}\n]\n",
                open.repeat(n),
                close.repeat(n)
            );
            refused_deep_import(robo_steps(json), 4);
        }
    }
    // Brackets in a comment line are no nesting.
    let commented = format!(
        "# {}\n[{{\"eventType\": \"PRESSED_BACK\"}}]\n",
        "[".repeat(1_000)
    );
    assert_eq!(robo_steps(commented), Ok(2));
}

#[test]
fn a_robo_script_nested_to_the_limit_is_read_on_a_worker_stack() {
    // The list and the action are 2 levels; the context descriptor holds 62 more. It
    // goes through serde_path_to_error, whose wrappers cost the most stack per level.
    let json = format!(
        "[{{\"eventType\": \"PRESSED_BACK\", \"contextDescriptor\": {}1{}}}]",
        "[".repeat(MAX_NESTING_DEPTH - 2),
        "]".repeat(MAX_NESTING_DEPTH - 2)
    );
    assert_eq!(robo_steps(json), Ok(2));
}

fn refused_deep_session(result: Result<(), SessionError>, file: &str, line: usize) {
    let err = result.expect_err("deep input was accepted");
    assert_eq!(
        (err.file.as_str(), err.line, &err.problem),
        (
            file,
            Some(line),
            &SessionProblem::TooDeep {
                limit: MAX_NESTING_DEPTH
            }
        ),
        "{err}"
    );
}

fn steps_file(notes: &str) -> String {
    format!(
        "{{\"index\": 1, \"action\": \"launch\"}}\n{{\"index\": 2, \"action\": \"tap\", \"notes\": {notes}}}\n"
    )
}

fn crashes_file(extra: &str) -> String {
    format!(
        "{{\"crash_id\": \"c1\", \"kind\": \"java\", \"step_index\": 1, \"repro_path\": [1]}}\n\
         {{\"crash_id\": \"c2\", \"kind\": \"java\", \"step_index\": 1, \"repro_path\": [1], \"x\": {extra}}}\n"
    )
}

fn meta_file(extra: &str) -> String {
    format!("{{\n  \"session_id\": \"2026-05-14_100000_s\",\n  \"extra\": {{\"a\": {extra}}}\n}}\n")
}

fn parsed_steps(text: String) -> Result<(), SessionError> {
    on_worker_stack(move || parse_steps(text.as_bytes()).map(drop))
}

fn parsed_crashes(text: String) -> Result<(), SessionError> {
    on_worker_stack(move || parse_crashes(text.as_bytes(), None::<&BTreeSet<u32>>).map(drop))
}

fn parsed_meta(text: String) -> Result<(), SessionError> {
    on_worker_stack(move || parse_meta(text.as_bytes()).map(drop))
}

#[test]
fn session_files_nested_past_the_limit_are_refused_at_their_line() {
    for n in DEPTHS {
        for (open, close) in [("[", "]"), ("{\"a\": ", "}")] {
            let deep = format!("{}1{}", open.repeat(n), close.repeat(n));
            refused_deep_session(parsed_steps(steps_file(&deep)), "steps.jsonl", 2);
            refused_deep_session(parsed_crashes(crashes_file(&deep)), "crashes.jsonl", 2);
            refused_deep_session(parsed_meta(meta_file(&deep)), "meta.json", 3);
        }
    }
}

#[test]
fn session_files_nested_to_the_limit_are_read_on_a_worker_stack() {
    // Each record is an object (1 level): 63 more reach the limit; the meta's `extra`
    // is an object of its own.
    let nested = |n: usize| format!("{}1{}", "[".repeat(n), "]".repeat(n));
    assert_eq!(parsed_steps(steps_file(&nested(63))), Ok(()));
    assert_eq!(parsed_crashes(crashes_file(&nested(63))), Ok(()));
    assert_eq!(parsed_meta(meta_file(&nested(62))), Ok(()));
}

#[test]
fn notes_that_hold_json_text_nested_as_deep_as_serde_allows_are_planned_on_a_worker_stack() {
    // A step's notes may be a string holding JSON, which the plan parses again: the
    // file's own nesting check cannot see inside a string, so serde's limit (128) is what
    // bounds it; the plan must survive it on a worker's stack.
    for depth in [127, 10_000] {
        let notes = format!(
            "{{\"replay\": {{\"action_type\": \"tap\", \"element_key\": \"btn\", \"maestro\": {}1{}}}}}",
            "[".repeat(depth),
            "]".repeat(depth)
        );
        let steps = vec![
            Step {
                index: 1,
                ts: None,
                action: "launch".into(),
                result: StepResult::Ok,
                notes: String::new(),
                screenshot_src: None,
                screenshot_redacted: false,
            },
            Step {
                index: 2,
                ts: None,
                action: "tap".into(),
                result: StepResult::Ok,
                notes,
                screenshot_src: None,
                screenshot_redacted: false,
            },
        ];
        let planned = on_worker_stack(move || build_plan(&steps, &[1, 2]).map(|p| p.steps.len()));
        assert!(planned.is_ok(), "depth {depth}: {planned:?}");
    }
}
