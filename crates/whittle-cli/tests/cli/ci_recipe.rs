//! docs/ci.md's GitHub Actions workflows, run as GitHub would run their shell steps: each
//! ```yaml block is read as YAML, each job gets a fresh copy of the demo as its checkout
//! (the bundled simulator plays the devices, without waits; `WHITTLE_CONFIG` names the
//! demo's config),
//! every `run:` step goes through `bash --noprofile --norc -eo pipefail` (GitHub's shell
//! for `run`) with the job's `env`, `GITHUB_OUTPUT` and `GITHUB_STEP_SUMMARY`, and the
//! `${{ … }}` expressions are filled in from the contexts GitHub gives (`matrix`, `needs`,
//! `steps`, `secrets` empty). A matrix job runs once per entry its `fromJSON` yields. What
//! is not run is the table `LEFT_TO_GITHUB` (with why) and the `uses:` actions; after a
//! job, every path its `upload-artifact` step uploads must exist, and is kept as that
//! artifact. Each job is a runner of its own: another Whittle installation (its own data
//! folder, so its own journal key).
//!
//! Then the reviewer's ```sh block ("Review and approve a CI run") runs on a fresh checkout
//! of the reviewer's — this machine's installation — with `gh run download` serving the
//! artifact the first job uploaded: the CI run, refused as made elsewhere, is re-proven
//! and approved, and the sidecar names the re-proving run.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};

use saphyr::{LoadableYamlNode, Scalar, Yaml};
use serde_json::{json, Map, Value};

use crate::common::*;

/// Steps not run here, by name, and why.
const LEFT_TO_GITHUB: &[(&str, &str)] = &[(
    "Install Whittle",
    "the binaries under test are on PATH (the checkout's target/debug)",
)];

fn to_json(node: &Yaml) -> Value {
    match node {
        Yaml::Value(Scalar::Null) => Value::Null,
        Yaml::Value(Scalar::Boolean(b)) => json!(b),
        Yaml::Value(Scalar::Integer(n)) => json!(n),
        Yaml::Value(Scalar::FloatingPoint(f)) => json!(f.into_inner()),
        Yaml::Value(Scalar::String(s)) => json!(s),
        Yaml::Representation(s, _, _) => json!(s),
        Yaml::Sequence(items) => Value::Array(items.iter().map(to_json).collect()),
        Yaml::Mapping(map) => Value::Object(
            map.iter()
                .map(|(k, v)| match to_json(k) {
                    Value::String(key) => (key, to_json(v)),
                    other => (other.to_string(), to_json(v)),
                })
                .collect(),
        ),
        Yaml::Tagged(_, inner) => to_json(inner),
        Yaml::Alias(_) | Yaml::BadValue => panic!("docs/ci.md: unexpected YAML node {node:?}"),
    }
}

/// The ```yaml blocks of docs/ci.md, as JSON.
fn workflows() -> Vec<Value> {
    blocks("yaml")
        .iter()
        .map(|block| {
            let docs = Yaml::load_from_str(block).expect("docs/ci.md: a YAML block parses");
            to_json(&docs[0])
        })
        .collect()
}

/// The text of each ````fence` block of docs/ci.md.
fn blocks(fence: &str) -> Vec<String> {
    let text = std::fs::read_to_string(repo_root().join("docs/ci.md")).unwrap();
    let opening = format!("```{fence}");
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        match (&mut current, line.trim_end()) {
            (None, open) if open == opening => current = Some(String::new()),
            (Some(block), "```") => {
                blocks.push(std::mem::take(block));
                current = None;
            }
            (Some(block), _) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, _) => {}
        }
    }
    blocks
}

/// GitHub's contexts for one job: `matrix`, `needs`, `steps`, `secrets`, `strategy`.
type Contexts = Map<String, Value>;

/// One expression (the text inside `${{ }}`) over `contexts`: a dotted context path,
/// a quoted literal, `fromJSON(…)`, or `a != b` / `a == b`.
fn eval(expr: &str, contexts: &Contexts) -> Value {
    let expr = expr.trim();
    for (op, equal) in [("!=", false), ("==", true)] {
        if let Some((a, b)) = expr.split_once(op) {
            let (a, b) = (eval(a, contexts), eval(b, contexts));
            return json!((text_of(&a) == text_of(&b)) == equal);
        }
    }
    if let Some(inner) = expr
        .strip_prefix("fromJSON(")
        .and_then(|e| e.strip_suffix(')'))
    {
        let text = text_of(&eval(inner, contexts));
        return serde_json::from_str(&text).unwrap_or_else(|e| panic!("fromJSON({text}): {e}"));
    }
    if let Some(literal) = expr.strip_prefix('\'').and_then(|e| e.strip_suffix('\'')) {
        return json!(literal);
    }
    let mut value = Value::Object(contexts.clone());
    for part in expr.split('.') {
        value = value.get(part).cloned().unwrap_or(Value::Null);
    }
    value
}

/// A value as GitHub writes it into a string: text as is, null as nothing.
fn text_of(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// `text` with every `${{ … }}` replaced by its value.
fn expand(text: &str, contexts: &Contexts) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find("${{") {
        let close = open + rest[open..].find("}}").expect("an expression closes");
        out.push_str(&rest[..open]);
        out.push_str(&text_of(&eval(&rest[open + 3..close], contexts)));
        rest = &rest[close + 2..];
    }
    out + rest
}

/// A field that is one expression (`matrix.group: ${{ fromJSON(…) }}`), evaluated.
fn whole(value: &Value, contexts: &Contexts) -> Value {
    let text = value.as_str().unwrap_or_default().trim();
    match text.strip_prefix("${{").and_then(|t| t.strip_suffix("}}")) {
        Some(expr) => eval(expr, contexts),
        None => value.clone(),
    }
}

/// What a job left: its `outputs`, and the step summary it wrote.
struct JobRun {
    outputs: Map<String, Value>,
    summary: String,
    /// What each `upload-artifact` step uploaded, by artifact name: a folder holding the
    /// uploaded paths' contents (a folder's own contents, as the action uploads it).
    artifacts: BTreeMap<String, tempfile::TempDir>,
}

/// Runs `job` of `workflow` on a fresh checkout with `contexts`.
fn run_job(workflow: &Value, name: &str, contexts: &mut Contexts) -> JobRun {
    let job = &workflow["jobs"][name];
    let (root, cwd) = fast_checkout();
    let summary = root.path().join("step-summary.md");
    std::fs::write(&summary, "").unwrap();
    let mut env: BTreeMap<String, String> = BTreeMap::new();
    for scope in [&workflow["env"], &job["env"]] {
        for (key, value) in scope.as_object().into_iter().flatten() {
            env.insert(key.clone(), expand(&text_of(value), contexts));
        }
    }
    contexts.insert("steps".into(), json!({}));
    // The runner's own installation: its journal key is not the reviewer's.
    let runner_data = root.path().join("runner-data");
    let mut uploads: Vec<(String, String)> = Vec::new();
    for step in job["steps"].as_array().expect("a job has steps") {
        let step_name = text_of(&step["name"]);
        if let Some(action) = step["uses"].as_str() {
            if action.starts_with("actions/upload-artifact") {
                let artifact = expand(&text_of(&step["with"]["name"]), contexts);
                uploads.extend(
                    text_of(&step["with"]["path"])
                        .lines()
                        .map(|path| (artifact.clone(), path.to_owned())),
                );
            }
            continue;
        }
        if let Some((_, why)) = LEFT_TO_GITHUB.iter().find(|(n, _)| *n == step_name) {
            eprintln!("docs/ci.md job {name}: left to GitHub `{step_name}`: {why}");
            continue;
        }
        let script = expand(step["run"].as_str().expect("a step runs or uses"), contexts);
        let output_file = root.path().join("github-output");
        std::fs::write(&output_file, "").unwrap();
        eprintln!("docs/ci.md job {name}: running `{step_name}`");
        let out = bash(&script, &cwd, &checkout_path(root.path()))
            .envs(&env)
            .env("GITHUB_OUTPUT", &output_file)
            .env("GITHUB_STEP_SUMMARY", &summary)
            .env("XDG_DATA_HOME", &runner_data)
            .output()
            .expect("run bash");
        assert_ran(&out, &format!("job {name}, step `{step_name}`"));
        if let Some(id) = step["id"].as_str() {
            let written = std::fs::read_to_string(&output_file).unwrap();
            let outputs: Map<String, Value> = written
                .lines()
                .filter_map(|l| l.split_once('='))
                .map(|(k, v)| (k.to_owned(), json!(v)))
                .collect();
            contexts["steps"][id] = json!({ "outputs": outputs });
        }
    }
    let mut artifacts: BTreeMap<String, tempfile::TempDir> = BTreeMap::new();
    for (artifact, path) in uploads.iter().filter(|(_, p)| !p.trim().is_empty()) {
        let uploaded = Path::new(&cwd).join(path.trim());
        assert!(
            uploaded.exists(),
            "docs/ci.md job {name} uploads {path}, which it did not write"
        );
        let kept = artifacts
            .entry(artifact.clone())
            .or_insert_with(|| tempfile::tempdir().unwrap());
        if uploaded.is_dir() {
            copy_dir(&uploaded, kept.path());
        } else {
            std::fs::copy(&uploaded, kept.path().join(uploaded.file_name().unwrap())).unwrap();
        }
    }
    let outputs = job["outputs"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(k, v)| (k.clone(), json!(expand(&text_of(v), contexts))))
        .collect();
    JobRun {
        outputs,
        summary: std::fs::read_to_string(&summary).unwrap(),
        artifacts,
    }
}

/// docs/ci.md's reviewer block, run as written on a fresh checkout (this machine's
/// Whittle installation) with `EVIDENCE` and `RUN_ID` set, and `gh run download
/// <id> --name <artifact> --dir <dir>` serving `artifacts` (a stand-in for GitHub's
/// command: it copies the artifact's files into the folder). Returns the checkout.
fn review(
    block: &str,
    evidence: &str,
    artifacts: &BTreeMap<String, tempfile::TempDir>,
) -> tempfile::TempDir {
    let (root, cwd) = fast_checkout();
    let stand_in = root.path().join("gh-stand-in");
    std::fs::create_dir_all(&stand_in).unwrap();
    let mut gh =
        String::from("#!/usr/bin/env bash\nset -euo pipefail\n[ \"$1 $2\" = \"run download\" ]\n");
    gh.push_str("name=$5; dir=$7\nmkdir -p \"$dir\"\ncase \"$name\" in\n");
    for (name, folder) in artifacts {
        gh.push_str(&format!(
            "  {name}) cp -R '{}'/. \"$dir\" ;;\n",
            folder.path().display()
        ));
    }
    gh.push_str("  *) echo \"no artifact $name\" >&2; exit 1 ;;\nesac\n");
    let gh_path = stand_in.join("gh");
    std::fs::write(&gh_path, gh).unwrap();
    let mut permissions = std::fs::metadata(&gh_path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    std::fs::set_permissions(&gh_path, permissions).unwrap();
    let path = std::env::join_paths(
        std::iter::once(stand_in).chain(std::env::split_paths(&checkout_path(root.path()))),
    )
    .unwrap();
    let out = bash(block, &cwd, &path)
        .env("WHITTLE_CONFIG", "whittle.json")
        .env("EVIDENCE", evidence)
        .env("RUN_ID", "4242")
        .output()
        .expect("run bash");
    assert_ran(&out, "the review block");
    root
}

/// A fresh demo checkout whose phone is the simulator without waits (the config's settle
/// and drain times are the phone's, as the shop's delays are), and its `demo` folder.
fn fast_checkout() -> (tempfile::TempDir, std::path::PathBuf) {
    let root = demo_checkout();
    let cwd = root.path().join("demo");
    let config = cwd.join("whittle.json");
    let mut whittle_json: Value = serde_json::from_slice(&std::fs::read(&config).unwrap()).unwrap();
    whittle_json["timing"] = fast_timing();
    std::fs::write(&config, whittle_json.to_string()).unwrap();
    (root, cwd)
}

/// `script` as GitHub runs a `run:` step (`bash --noprofile --norc -eo pipefail`), in
/// `cwd` with `path`, in a UTF-8 locale that picks no language.
fn bash(script: &str, cwd: &Path, path: &std::ffi::OsStr) -> Command {
    let mut command = Command::new("bash");
    command
        .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", script])
        .current_dir(cwd)
        .env("PATH", path)
        .env("LANG", "C.UTF-8")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .stdin(Stdio::null());
    command
}

fn assert_ran(out: &std::process::Output, what: &str) {
    assert!(
        out.status.success(),
        "docs/ci.md {what} exited {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn contexts() -> Contexts {
    let mut contexts = Map::new();
    contexts.insert("secrets".into(), json!({}));
    contexts.insert("github".into(), json!({}));
    contexts
}

#[test]
fn the_ci_recipes_minimize_export_and_spread_the_demo_crash_groups() {
    let workflows = workflows();
    assert_eq!(
        workflows.len(),
        2,
        "docs/ci.md has the single job and the matrix"
    );

    // One job: every crash group, its bundles and the ticket text in the step summary.
    let single = &workflows[0];
    let run = run_job(single, "minimize", &mut contexts());
    assert!(
        run.summary.contains("NullPointerException"),
        "the step summary holds the tickets: {}",
        run.summary
    );

    // The reviewer: the checkout crash's CI run, made under the runner's key, is
    // refused here, re-proven on this machine's (simulated) device and approved.
    let lines = std::fs::read_to_string(
        run.artifacts["whittle-bundles"]
            .path()
            .join("minimized.jsonl"),
    )
    .unwrap();
    let checkout = lines
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|l| l["session"] == CHECKOUT)
        .expect("the checkout crash's line");
    let evidence = checkout["state"]["summary"]["evidence_session"]
        .as_str()
        .unwrap()
        .to_owned();
    let sh = blocks("sh");
    assert_eq!(sh.len(), 1, "docs/ci.md has one reviewer block");
    let reviewer = review(&sh[0], &evidence, &run.artifacts);
    let sessions = reviewer.path().join("demo/workspace/sessions");
    let sidecar = read_json(&sessions.join(CHECKOUT).join("crashes.minimized.json"));
    let entry = &sidecar["crashes"]["c1"];
    let reproving = entry["evidence_session"].as_str().unwrap();
    assert_ne!(
        reproving, evidence,
        "the CI run itself is never approved here"
    );
    let result = read_json(&sessions.join(reproving).join("result.json"));
    assert_eq!(result["reproves"], evidence.as_str(), "{result}");
    assert_eq!(result["status"], "minimized");
    assert_eq!(
        entry["minimized_repro_path"],
        checkout["state"]["summary"]["minimal_path"]
    );

    // The matrix: the list job's groups, then one minimize job per group.
    let matrix = &workflows[1];
    let listed = run_job(matrix, "list", &mut contexts());
    let count = text_of(&listed.outputs["count"]);
    let mut ctx = contexts();
    ctx.insert(
        "needs".into(),
        json!({ "list": { "outputs": listed.outputs } }),
    );
    let job = &matrix["jobs"]["minimize"];
    assert_eq!(
        eval(job["if"].as_str().unwrap(), &ctx),
        json!(true),
        "the demo has crash groups to minimize ({count})"
    );
    let groups = whole(&job["strategy"]["matrix"]["group"], &ctx);
    let groups = groups.as_array().expect("the matrix is a list of groups");
    assert_eq!(groups.len().to_string(), count);
    assert!(groups.len() >= 3, "{groups:?}");
    let mut minimized = 0;
    for (index, group) in groups.iter().enumerate() {
        let mut ctx = ctx.clone();
        ctx.insert("matrix".into(), json!({ "group": group }));
        ctx.insert("strategy".into(), json!({ "job-index": index }));
        let run = run_job(matrix, "minimize", &mut ctx);
        minimized += usize::from(run.summary.contains("## "));
    }
    assert!(minimized >= 1, "at least one group's ticket was written");
}
