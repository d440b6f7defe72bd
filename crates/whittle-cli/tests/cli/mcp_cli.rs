//! `whittle mcp` spoken to as a coding agent speaks to it: the built binary is spawned
//! and driven over stdio with rmcp's client. The tools are listed with their schemas; an
//! agent lists and analyzes a session, minimizes its crash with progress per attempt,
//! reads the evidence back and exports it; a cancelled request and a closed connection
//! both end the run as cancelled with its evidence finished; refusals are typed; and no
//! private value of a session nor a token of the configuration reaches any answer.
//! Issue 41: an agent takes a crash from the listing to a resumed, exported and verified
//! bundle without the terminal (reading its masked pictures as images and `whittle://`
//! resources, told how the user approves), and runs every crash group with
//! `minimize_all`, its progress tagged by crash group.
//!
//! The same server is driven by a client on the official Python MCP SDK
//! (`tests/peers/python/mcp_agent_client.py`) on a copy of the demo workspace. It needs
//! the venv `scripts/setup` builds at `.venv-peers/` (or a Python with `mcp` named by
//! WHITTLE_PEER_PYTHON); without one that test is skipped with the reason printed,
//! except in CI (`CI=true`), where that is a failure.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use crate::common::*;
use crate::lab_support::{use_lab, Host};
use base64::Engine;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientRequest, ProgressNotificationParam,
    ReadResourceRequestParams, Request, ResourceContents,
};
use rmcp::service::{NotificationContext, PeerRequestOptions, RunningService};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{json, Value};
use tokio::process::{Child, Command};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

/// The client side: every progress notification goes to the test.
#[derive(Clone)]
struct Agent {
    progress: UnboundedSender<ProgressNotificationParam>,
}

impl ClientHandler for Agent {
    async fn on_progress(
        &self,
        mut params: ProgressNotificationParam,
        context: NotificationContext<RoleClient>,
    ) {
        // rmcp's client keeps a notification's `_meta` in the context's extensions (its
        // `meta` is read after they were moved), not in the params.
        if params.meta.is_none() {
            params.meta = context
                .extensions
                .get::<rmcp::model::NotificationMetaObject>()
                .cloned()
                .or_else(|| (!context.meta.is_empty()).then_some(context.meta));
        }
        let _ = self.progress.send(params);
    }
}

/// `whittle --config <env's> mcp` and an rmcp client connected to it; every answer and
/// progress message is kept, for the leak checks.
struct Session {
    client: RunningService<RoleClient, Agent>,
    child: Child,
    progress: UnboundedReceiver<ProgressNotificationParam>,
    stderr: tempfile::NamedTempFile,
    seen: String,
}

impl Session {
    async fn start(env: &Env, envs: &[(String, String)]) -> Session {
        let stderr = tempfile::NamedTempFile::new().unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_whittle"))
            .arg("--config")
            .arg(&env.config)
            .arg("mcp")
            .env(
                whittle_service::device_lease::LEASE_DIR_ENV,
                env.lease_dir(),
            )
            .envs(envs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .env("RUST_LOG", "debug")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr.reopen().unwrap())
            .kill_on_drop(true)
            .spawn()
            .expect("spawn whittle mcp");
        let io = (child.stdout.take().unwrap(), child.stdin.take().unwrap());
        let (sender, progress) = unbounded_channel();
        let client = Agent { progress: sender }
            .serve(io)
            .await
            .expect("initialize");
        Session {
            client,
            child,
            progress,
            stderr,
            seen: String::new(),
        }
    }

    fn stderr(&self) -> String {
        std::fs::read_to_string(self.stderr.path()).unwrap_or_default()
    }

    /// Calls `tool` and keeps what it answered.
    async fn call(&mut self, tool: &str, args: Value) -> CallToolResult {
        let params = CallToolRequestParams::new(tool.to_string())
            .with_arguments(args.as_object().cloned().unwrap_or_default());
        let result = self
            .client
            .call_tool(params)
            .await
            .unwrap_or_else(|e| panic!("{tool}: {e}\nstderr: {}", self.stderr()));
        self.keep(&result);
        result
    }

    fn keep(&mut self, result: &CallToolResult) {
        self.seen.push_str(&serde_json::to_string(result).unwrap());
    }

    /// The structured answer of a call that must succeed; its text block says the same.
    async fn answer(&mut self, tool: &str, args: Value) -> Value {
        let result = self.call(tool, args).await;
        assert_ne!(result.is_error, Some(true), "{tool}: {result:?}");
        let structured = result
            .structured_content
            .clone()
            .expect("structuredContent");
        let text = result.content[0]
            .as_text()
            .expect("a text block")
            .text
            .clone();
        assert_eq!(
            serde_json::from_str::<Value>(&text).unwrap(),
            structured,
            "{tool}: the text block is the same JSON"
        );
        structured
    }

    /// The failure of a call that must fail: `{error, exit}`.
    async fn failure(&mut self, tool: &str, args: Value) -> Value {
        let result = self.call(tool, args).await;
        assert_eq!(result.is_error, Some(true), "{tool}: {result:?}");
        result.structured_content.expect("a typed failure")
    }

    /// Every progress notification received so far, its message kept.
    fn drain_progress(&mut self) -> Vec<ProgressNotificationParam> {
        let mut all = Vec::new();
        while let Ok(p) = self.progress.try_recv() {
            self.seen.push_str(p.message.as_deref().unwrap_or_default());
            all.push(p);
        }
        all
    }

    /// The runs `past_runs` lists for the session's crash `c1`.
    async fn runs_of_c1(&mut self, session: &str) -> Vec<Value> {
        let answer = self.answer("past_runs", json!({"session": session})).await;
        let crash = &answer["crashes"][0];
        assert_eq!(crash["crash_id"], "c1");
        crash["runs"].as_array().unwrap().clone()
    }

    /// Waits until the run of `evidence` is no longer running, and returns it.
    async fn ended_run(&mut self, session: &str, evidence: &str) -> Value {
        for _ in 0..300 {
            let runs = self.runs_of_c1(session).await;
            if let Some(run) = runs.iter().find(|r| r["evidence_session"] == evidence) {
                if run["outcome"] != "running" {
                    return run.clone();
                }
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("the run of {evidence} did not end");
    }

    /// Sends `tool` without waiting for its answer, waits for its first progress
    /// notification, then cancels the request (`notifications/cancelled`).
    async fn start_then_cancel(&mut self, tool: &str, args: Value) {
        let params = CallToolRequestParams::new(tool.to_string())
            .with_arguments(args.as_object().cloned().unwrap());
        let request = self
            .client
            .send_request_with_option(
                ClientRequest::CallToolRequest(Request::new(params)),
                PeerRequestOptions::no_options(),
            )
            .await
            .unwrap();
        let first = tokio::time::timeout(Duration::from_secs(60), self.progress.recv())
            .await
            .expect("a first attempt")
            .unwrap();
        assert_eq!(first.progress, 1.0);
        request
            .cancel(Some("the agent changed its mind".into()))
            .await
            .unwrap();
    }

    /// `resources/read` of `uri`: its one content, kept for the leak checks.
    async fn read(&mut self, uri: &str) -> ResourceContents {
        let read = self
            .client
            .read_resource(ReadResourceRequestParams::new(uri))
            .await
            .unwrap_or_else(|e| panic!("{uri}: {e}\nstderr: {}", self.stderr()));
        self.seen.push_str(&serde_json::to_string(&read).unwrap());
        assert_eq!(read.contents.len(), 1, "{uri}");
        read.contents.into_iter().next().unwrap()
    }

    /// The error `resources/read` answers for `uri`.
    async fn unreadable(&mut self, uri: &str) -> String {
        let error = self
            .client
            .read_resource(ReadResourceRequestParams::new(uri))
            .await
            .expect_err(uri);
        let text = error.to_string();
        self.seen.push_str(&text);
        text
    }

    fn assert_no_leak(&mut self, secrets: &[&str]) {
        self.drain_progress();
        for secret in secrets {
            assert!(
                !self.seen.contains(secret),
                "{secret:?} reached an answer or a progress message"
            );
        }
    }
}

/// The one evidence session of `env`, by id.
fn only_evidence(env: &Env) -> String {
    let dirs = env.evidence_dirs();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    dirs[0].file_name().unwrap().to_string_lossy().into_owned()
}

#[tokio::test]
async fn the_tools_are_listed_with_their_schemas_and_say_strings_are_untrusted() {
    let env = Env::fast(&[]);
    let session = Session::start(&env, &[]).await;
    let info = session.client.peer_info().expect("server info");
    assert_eq!(info.server_info.as_ref().unwrap().name, "whittle");
    let mut tools = session.client.list_all_tools().await.unwrap();
    tools.sort_by(|a, b| a.name.cmp(&b.name));
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        names,
        [
            "analyze",
            "devices",
            "doctor",
            "export",
            "import",
            "minimize",
            "minimize_all",
            "past_runs",
            "result",
            "resume",
            "screenshot",
            "sessions",
            "ticket_markdown",
            "verify"
        ]
    );
    for tool in &tools {
        let description = tool.description.as_deref().unwrap_or_default();
        assert!(
            description.contains("untrusted data"),
            "{}: {description}",
            tool.name
        );
        let output = tool.output_schema.as_ref().expect("an output schema");
        assert_eq!(output["type"], "object", "{}", tool.name);
    }
    let minimize = tools.iter().find(|t| t.name == "minimize").unwrap();
    // `session`, or `reprove` (a run made elsewhere) alone: neither is required alone.
    assert!(minimize
        .input_schema
        .get("required")
        .is_none_or(|r| r == &json!([])));
    assert!(minimize.input_schema["properties"]["reprove"].is_object());
    let strategy = serde_json::to_string(&minimize.input_schema["properties"]["strategy"]).unwrap();
    assert!(
        ["seed", "binary", "flaky"]
            .iter()
            .all(|s| strategy.contains(s)),
        "the strategies are listed: {strategy}"
    );
}

#[tokio::test]
async fn an_agent_minimizes_a_crash_with_progress_reads_its_evidence_and_exports_it() {
    let env = Env::fast(&[]);
    let session_dir = checkout_session(&env);
    let mut mcp = Session::start(&env, &[]).await;

    let sessions = mcp.answer("sessions", json!({})).await;
    assert_eq!(sessions["workspace"], json!(env.workspace));
    let listed = &sessions["sessions"][0];
    assert_eq!(listed["session_id"], CHECKOUT);
    assert_eq!(listed["status"], "failed");
    assert_eq!(listed["run_state"], Value::Null);
    assert_eq!(listed["crashes"][0]["crash_id"], "c1");
    assert_eq!(listed["crashes"][0]["kind"], "java");

    let analysis = mcp.answer("analyze", json!({"session": CHECKOUT})).await;
    assert_eq!(analysis["crash_groups"].as_array().unwrap().len(), 1);
    let plan = &analysis["crashes"][0]["plan"];
    let step = |i: usize| plan["steps"][i - 1].clone();
    assert_eq!(step(1)["disposition"], json!({"kind": "setup"}));
    assert_eq!(step(2)["disposition"], json!({"kind": "replayable"}));
    assert_eq!(step(3)["disposition"]["reason"]["code"], "sensitive");
    assert_eq!(step(4)["disposition"]["reason"]["code"], "input_redacted");
    assert_eq!(plan["live_run_allowed"], true);
    assert_eq!(analysis["minimized"], json!([]));

    let summary = mcp.answer("minimize", json!({"session": CHECKOUT})).await;
    assert_eq!(summary["status"], "minimized");
    assert_eq!(summary["minimal_path"], json!([1, 9, 10, 11, 12]));
    assert_eq!(
        summary["original_path"],
        json!((1..=12).collect::<Vec<_>>())
    );
    let evidence = only_evidence(&env);
    assert_eq!(summary["evidence_session"], evidence.as_str());
    // One notification per finished attempt, counting up, out of the budget; all of
    // them arrived before the answer.
    let progress = mcp.drain_progress();
    let attempts = summary["attempts"].as_u64().unwrap();
    assert_eq!(progress.len() as u64, attempts);
    for (i, p) in progress.iter().enumerate() {
        assert_eq!(p.progress, (i + 1) as f64);
        assert_eq!(p.total, Some(30.0));
        assert!(p.message.as_deref().unwrap().contains("/30"), "{p:?}");
    }
    assert!(
        !session_dir.join("crashes.minimized.json").exists(),
        "nothing is written back without the user's approval"
    );

    let runs = mcp.runs_of_c1(CHECKOUT).await;
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0]["evidence_session"], evidence.as_str());
    assert_eq!(runs[0]["outcome"], "minimized");
    assert_eq!(runs[0]["approved"], false);
    let result = mcp
        .answer("result", json!({"evidence_session": evidence}))
        .await;
    assert_eq!(result["minimal_path"], summary["minimal_path"]);
    assert_eq!(result["original_session"], CHECKOUT);

    let out = env.workspace.join("exports");
    let exported = mcp
        .answer(
            "export",
            json!({"evidence_session": evidence, "out": out, "name": "ticket"}),
        )
        .await;
    let bundle = PathBuf::from(exported["bundle_dir"].as_str().unwrap());
    assert_eq!(bundle, out.join("ticket"));
    assert!(bundle.join("repro.md").is_file());
    assert!(bundle.join("manifest.json").is_file());

    mcp.assert_no_leak(&[SECRET_EMAIL, SECRET_PASSWORD]);
}

/// Issue 41: an agent takes a crash from the listing to an exported, resumed and
/// verified bundle without the terminal: sessions → minimize → cancel → resume → result
/// (its pictures and files as `whittle://` resource links, and `next`: how the user
/// approves it) → screenshot (the masked PNG as an image, unreviewed and saying so) and
/// `resources/read` (only the evidence's archived pictures and the bundle's files:
/// anything else, a recorded session's pictures and a symlink out included, is refused
/// without a path) → export → verify → ticket_markdown. Nothing is written back.
#[tokio::test]
async fn an_agent_takes_a_crash_from_the_listing_to_a_verified_bundle_without_the_terminal() {
    let env = Env::fast(&[]);
    let session_dir = checkout_session(&env);
    let mut mcp = Session::start(&env, &[]).await;
    let sessions = mcp.answer("sessions", json!({})).await;
    assert_eq!(sessions["sessions"][0]["crashes"][0]["crash_id"], "c1");

    mcp.start_then_cancel("minimize", json!({"session": CHECKOUT}))
        .await;
    let evidence = only_evidence(&env);
    let run = mcp.ended_run(CHECKOUT, &evidence).await;
    assert_eq!(run["outcome"], "cancelled", "{run}");
    assert_eq!(run["resumable"], true, "{run}");
    mcp.drain_progress();

    let resumed = mcp
        .answer("resume", json!({"evidence_session": evidence}))
        .await;
    assert_eq!(resumed["status"], "minimized", "{resumed}");
    assert_eq!(resumed["evidence_session"], evidence.as_str());
    assert_eq!(resumed["minimal_path"], json!([1, 9, 10, 11, 12]));
    let next = json!({
        "action": "approve",
        "approve_in_window": true,
        "command": format!("whittle approve {evidence}"),
    });
    assert_eq!(resumed["next"], next, "{resumed}");
    let progress = mcp.drain_progress();
    assert!(!progress.is_empty(), "progress per resumed attempt");
    assert_eq!(
        env.evidence_dirs().len(),
        1,
        "it went on in its own evidence"
    );
    let runs = mcp.runs_of_c1(CHECKOUT).await;
    assert_eq!(runs[0]["outcome"], "minimized", "{runs:?}");
    assert_eq!(runs[0]["resumable"], false, "{runs:?}");
    let again = mcp
        .failure("resume", json!({"evidence_session": evidence}))
        .await;
    assert_eq!(again["cause"]["kind"], "resume_refused", "{again}");
    assert!(
        again["error"].as_str().unwrap().contains("`past_runs`"),
        "{again}"
    );

    // The result, its pictures and files, each a link to read.
    let called = mcp
        .call("result", json!({"evidence_session": evidence}))
        .await;
    assert_ne!(called.is_error, Some(true), "{called:?}");
    let result = called.structured_content.clone().unwrap();
    assert_eq!(result["next"], next);
    assert_eq!(result["approved"], false);
    let prefix = format!("whittle://evidence/{evidence}/");
    let pictures = result["pictures"].as_array().unwrap().clone();
    assert!(!pictures.is_empty(), "{result}");
    for picture in &pictures {
        let uri = picture["uri"].as_str().unwrap();
        assert_eq!(
            uri,
            format!("{prefix}{}", picture["name"].as_str().unwrap())
        );
        assert_eq!(picture["reviewed"], false, "{picture}");
    }
    assert!(
        pictures.iter().any(|p| p["frame"].is_u64()),
        "the filmstrip's frames too: {pictures:?}"
    );
    let files: Vec<&str> = result["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["repro.md", "repro.maestro.yaml", "repro.robo.json"]);
    let links: Vec<String> = called
        .content
        .iter()
        .filter_map(|block| match block {
            rmcp::model::ContentBlock::ResourceLink(link) => Some(link.uri.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(links.len(), pictures.len() + files.len(), "{links:?}");
    assert!(links.iter().all(|l| l.starts_with(&prefix)), "{links:?}");
    assert_eq!(result["review"]["total"], pictures.len());

    // One screenshot as an image: the archived, masked file itself.
    let shown = pictures.iter().find(|p| p["frame"].is_null()).unwrap();
    let archived =
        std::fs::read(env.evidence_dirs()[0].join(shown["name"].as_str().unwrap())).unwrap();
    let shot = mcp
        .call(
            "screenshot",
            json!({"evidence_session": evidence, "attempt": shown["attempt"]}),
        )
        .await;
    assert_ne!(shot.is_error, Some(true), "{shot:?}");
    let answer = shot.structured_content.clone().unwrap();
    assert_eq!(answer["review"], "not_reviewed", "{answer}");
    assert_eq!(answer["reviewed"], false);
    assert_eq!(answer["uri"], shown["uri"]);
    let image = shot
        .content
        .iter()
        .find_map(|b| b.as_image())
        .expect("an image block");
    assert_eq!(image.mime_type, "image/png");
    let png = base64::engine::general_purpose::STANDARD
        .decode(&image.data)
        .unwrap();
    assert_eq!(png, archived, "the archived (masked) PNG, nothing else");
    let no_shot = mcp
        .failure(
            "screenshot",
            json!({"evidence_session": evidence, "attempt": 999}),
        )
        .await;
    assert!(
        no_shot["error"].as_str().unwrap().contains("`result`"),
        "{no_shot}"
    );

    // The same picture and the bundle's files as resources.
    let templates = mcp.client.list_all_resource_templates().await.unwrap();
    assert_eq!(templates.len(), 4, "{templates:?}");
    assert!(templates.iter().all(|t| t
        .uri_template
        .starts_with("whittle://evidence/{evidence_session}/")));
    match mcp.read(shown["uri"].as_str().unwrap()).await {
        ResourceContents::BlobResourceContents {
            blob,
            mime_type,
            meta,
            ..
        } => {
            assert_eq!(mime_type.as_deref(), Some("image/png"));
            let png = base64::engine::general_purpose::STANDARD
                .decode(blob)
                .unwrap();
            assert_eq!(png, archived);
            assert_eq!(meta.unwrap()["whittle/reviewed"], false);
        }
        other => panic!("not a PNG: {other:?}"),
    }
    let text = |contents: ResourceContents| match contents {
        ResourceContents::TextResourceContents { text, .. } => text,
        other => panic!("not text: {other:?}"),
    };
    let repro = text(mcp.read(&format!("{prefix}repro.md")).await);
    let maestro = text(mcp.read(&format!("{prefix}flows/repro.maestro.yaml")).await);
    // A recorded session's pictures (the recorder's, unmasked), anything that is not a
    // picture or a bundle file, a `..`, and a symlink out of the evidence: refused, and
    // no path of the workspace named.
    let outside = env.dir.path().join("private.png");
    std::fs::copy(
        env.evidence_dirs()[0].join(shown["name"].as_str().unwrap()),
        &outside,
    )
    .unwrap();
    std::os::unix::fs::symlink(
        &outside,
        env.evidence_dirs()[0].join("screenshots/attempt-900.png"),
    )
    .unwrap();
    std::fs::create_dir_all(session_dir.join("screenshots")).unwrap();
    std::fs::copy(&outside, session_dir.join("screenshots/attempt-001.png")).unwrap();
    for uri in [
        format!("{prefix}screenshots/attempt-900.png"),
        format!("whittle://evidence/{CHECKOUT}/screenshots/attempt-001.png"),
        format!("{prefix}result.json"),
        format!("{prefix}screenshots/../result.json"),
        "whittle://evidence/../screenshots/attempt-001.png".to_owned(),
        format!("file://{}", outside.display()),
    ] {
        let error = mcp.unreadable(&uri).await;
        assert!(
            !error.contains(&env.workspace.display().to_string()),
            "{uri}: {error}"
        );
    }
    let symlinked = mcp
        .failure(
            "screenshot",
            json!({"evidence_session": evidence, "attempt": 900}),
        )
        .await;
    assert_eq!(symlinked["status"], "refused", "{symlinked}");
    let recorded = mcp
        .failure(
            "screenshot",
            json!({"evidence_session": CHECKOUT, "attempt": 1}),
        )
        .await;
    assert!(
        recorded["error"].as_str().unwrap().contains("`past_runs`"),
        "{recorded}"
    );

    // Export, verify the bundle, and the ticket text.
    let out = env.workspace.join("exports");
    let exported = mcp
        .answer(
            "export",
            json!({"evidence_session": evidence, "out": out, "name": "ticket"}),
        )
        .await;
    let bundle = PathBuf::from(exported["bundle_dir"].as_str().unwrap());
    assert_eq!(
        std::fs::read_to_string(bundle.join("repro.maestro.yaml")).unwrap(),
        maestro,
        "the flow resource is the flow the bundle holds"
    );
    let verified = mcp
        .answer("verify", json!({"bundle": bundle, "runs": 2}))
        .await;
    assert_eq!(verified["verdict"], "proven", "{verified}");
    assert_eq!(verified["reproduced"], 2);
    assert_eq!(verified["replays"].as_array().unwrap().len(), 2);
    let elsewhere = mcp
        .failure("verify", json!({"bundle": env.dir.path()}))
        .await;
    assert_eq!(
        elsewhere["folder_refused"]["problem"], "not_allowed",
        "{elsewhere}"
    );
    let no_runs = mcp
        .failure("verify", json!({"bundle": bundle, "runs": 0}))
        .await;
    assert_eq!(no_runs["status"], "refused", "{no_runs}");
    let ticket = mcp
        .answer("ticket_markdown", json!({"evidence_session": evidence}))
        .await;
    assert_eq!(ticket["markdown"], repro.as_str());
    assert!(repro.starts_with("### Crash"), "{repro}");
    assert_eq!(ticket["next"], next);

    assert!(
        !session_dir.join("crashes.minimized.json").exists(),
        "nothing is written back: approving stays the user's"
    );
    mcp.assert_no_leak(&[SECRET_EMAIL, SECRET_PASSWORD]);
}

/// A crash that did not show on the baseline's only try (the simulator's seed 4 misses
/// the promo crash on a run's first launch): the answer hints at more baseline tries,
/// as `whittle minimize --json` does, and has nothing to approve.
#[tokio::test]
async fn a_baseline_miss_on_its_only_try_answers_a_hint_for_more_tries() {
    let env = Env::fast(&["--seed", "4"]);
    promo_session(&env);
    let mut mcp = Session::start(&env, &[]).await;
    let summary = mcp.answer("minimize", json!({"session": PROMO})).await;
    assert_eq!(summary["status"], "not_reproduced", "{summary}");
    assert_eq!(summary["hint"], json!({"kind": "more_baseline_tries"}));
    assert_eq!(summary["next"], Value::Null);
}

/// Issue 41: `minimize_all` runs every crash group, one progress stream per group on
/// the request's token (each notification tagged with its crash group, the count only
/// growing), is cancelled with its request (the running group ends cancelled, the
/// others are not run), and a second call resumes the cancelled group in its own
/// evidence; every finished group says how the user approves it.
#[tokio::test]
async fn minimize_all_tags_its_progress_by_crash_group_and_resumes_what_a_cancel_left() {
    let env = Env::fast(&[]);
    let session_dir = checkout_session(&env);
    promo_session(&env);
    let mut mcp = Session::start(&env, &[]).await;

    // A queue of one session's groups, cancelled with its request.
    mcp.start_then_cancel("minimize_all", json!({"session": CHECKOUT}))
        .await;
    let evidence = only_evidence(&env);
    let run = mcp.ended_run(CHECKOUT, &evidence).await;
    assert_eq!(run["outcome"], "cancelled", "{run}");
    mcp.drain_progress();

    // The workspace's queue: the cancelled group goes on in its own evidence.
    let all = mcp.answer("minimize_all", json!({})).await;
    assert_eq!(all["cancelled"], false);
    let entries = all["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 2, "{all}");
    let entry = |session: &str| entries.iter().find(|e| e["session"] == session).unwrap();
    let checkout = entry(CHECKOUT);
    assert_eq!(checkout["state"]["state"], "finished", "{all}");
    assert_eq!(
        checkout["state"]["summary"]["evidence_session"],
        evidence.as_str(),
        "the cancelled group was resumed, not started over"
    );
    assert_eq!(checkout["state"]["summary"]["status"], "minimized", "{all}");
    assert_eq!(checkout["exit"], 0);
    assert_eq!(
        checkout["next"],
        json!({"action": "approve", "approve_in_window": true, "command": format!("whittle approve {evidence}")})
    );
    let promo = entry(PROMO);
    assert_eq!(promo["state"]["state"], "finished", "{all}");
    assert!(promo["exit"].is_u64(), "{all}");
    let progress = mcp.drain_progress();
    let mut last = 0.0;
    let mut per_group = std::collections::HashMap::<String, u64>::new();
    for p in &progress {
        assert!(p.progress > last, "progress only grows: {p:?}");
        last = p.progress;
        let tag = &p
            .meta
            .as_ref()
            .unwrap_or_else(|| panic!("not tagged: {p:?}"))["whittle/crash_group"];
        let session = tag["session"].as_str().unwrap().to_owned();
        assert!(p.message.as_deref().unwrap().starts_with(&session), "{p:?}");
        let count = per_group.entry(session).or_default();
        *count += 1;
        assert_eq!(tag["attempts"], *count, "{p:?}");
    }
    assert_eq!(
        per_group.len(),
        2,
        "one stream per crash group: {per_group:?}"
    );
    // The group that ran afresh reported every attempt (the resumed one only those it
    // had not journaled).
    assert_eq!(
        per_group[PROMO],
        promo["state"]["summary"]["attempts"].as_u64().unwrap(),
        "{all}"
    );
    assert!(!session_dir.join("crashes.minimized.json").exists());

    let unknown = mcp
        .failure("minimize_all", json!({"session": "2026-01-01_000000_nope"}))
        .await;
    assert!(
        unknown["error"].as_str().unwrap().contains("`sessions`"),
        "{unknown}"
    );
}

#[tokio::test]
async fn refusals_are_typed_failures_with_the_cli_json_fields_and_touch_nothing() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    // A device server that will not start: the tools that need none still answer.
    env.edit_config(|c| {
        c["mcpServers"]["sim"]["command"] = json!("/nonexistent/whittle-servers");
    });
    let mut mcp = Session::start(&env, &[]).await;
    let outside = mcp
        .failure("analyze", json!({"session": "../outside"}))
        .await;
    assert_eq!(outside["status"], "refused");
    assert_eq!(outside["exit"], 3);
    assert!(outside.get("cause").is_none(), "{outside}");
    // As `whittle minimize --json` prints a run that never searched.
    let no_budget = mcp
        .failure("minimize", json!({"session": CHECKOUT, "max_replays": 0}))
        .await;
    assert_eq!(no_budget["status"], "refused");
    assert_eq!(
        no_budget["cause"],
        json!({"kind": "invalid_count", "field": "max_replays", "given": "0"})
    );
    assert_eq!(no_budget["exit"], 3);
    let servers = mcp.failure("minimize", json!({"session": CHECKOUT})).await;
    assert_eq!(servers["status"], "failed", "{servers}");
    assert_eq!(servers["cause"]["kind"], "servers_unavailable", "{servers}");
    assert!(!servers["cause"]["problems"].as_array().unwrap().is_empty());
    assert_eq!(servers["exit"], 4);
    let relative = mcp
        .failure(
            "export",
            json!({"evidence_session": CHECKOUT, "out": "exports"}),
        )
        .await;
    assert_eq!(relative["exit"], 3);
    assert_eq!(
        relative["folder_refused"]["problem"], "not_absolute",
        "{relative}"
    );
    // The recorded session has no result.json: nothing to read.
    let no_result = mcp
        .failure("result", json!({"evidence_session": CHECKOUT}))
        .await;
    assert_eq!(no_result["exit"], 3);
    assert!(env.evidence_dirs().is_empty(), "no run started");
}

/// Issue 40: the `export` tool writes only under the workspace's exports folder or a
/// folder of `export.allowed_folders`; the sessions folder, the workspace itself and any
/// other folder are refused, typed and naming the allowed folders, with nothing written.
#[tokio::test]
async fn the_export_tool_writes_only_under_the_allowed_folders() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    let tickets = env.dir.path().join("tickets");
    env.edit_config(|c| c["export"] = json!({"allowed_folders": [tickets]}));
    let mut mcp = Session::start(&env, &[]).await;
    let summary = mcp.answer("minimize", json!({"session": CHECKOUT})).await;
    let evidence = summary["evidence_session"].as_str().unwrap().to_owned();
    let sessions = env.workspace.join("sessions");
    let exports = env.workspace.join("exports");
    let before = env.session_names();
    // Refused as any bad argument is, with the same exit code.
    let bad_argument = mcp
        .failure("analyze", json!({"session": "../outside"}))
        .await["exit"]
        .clone();
    for (out, problem) in [
        (sessions.clone(), "inside_sessions"),
        (sessions.join(&evidence), "inside_sessions"),
        (env.workspace.clone(), "not_allowed"),
        (env.dir.path().join("elsewhere"), "not_allowed"),
        (exports.join("..").join("sessions"), "relative_step"),
    ] {
        let refused = mcp
            .failure(
                "export",
                json!({"evidence_session": evidence, "out": out, "name": "ticket"}),
            )
            .await;
        assert_eq!(refused["status"], "refused", "{refused}");
        assert_eq!(refused["exit"], bad_argument, "{refused}");
        let folder = &refused["folder_refused"];
        assert_eq!(folder["problem"], problem, "{out:?}: {refused}");
        assert_eq!(
            folder["allowed"],
            json!([exports.display().to_string(), tickets.display().to_string()]),
            "{refused}"
        );
        assert!(
            refused["error"]
                .as_str()
                .unwrap()
                .contains(&exports.display().to_string()),
            "the error names the exports folder: {refused}"
        );
        assert!(!out.join("ticket").exists(), "nothing written: {out:?}");
    }
    assert_eq!(env.session_names(), before, "nothing new under sessions/");
    for (out, name) in [(&exports, "ticket"), (&tickets, "ticket-2")] {
        let exported = mcp
            .answer(
                "export",
                json!({"evidence_session": evidence, "out": out, "name": name}),
            )
            .await;
        assert_eq!(exported["bundle_dir"], json!(out.join(name)), "{exported}");
        assert!(out.join(name).join("repro.md").is_file());
    }
}

#[tokio::test]
async fn a_run_refused_before_its_search_says_why_typed() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    let mut mcp = Session::start(&env, &[]).await;
    let no_crash = mcp
        .failure("minimize", json!({"session": CHECKOUT, "crash": "c9"}))
        .await;
    assert_eq!(no_crash["status"], "refused");
    assert_eq!(no_crash["cause"]["kind"], "crash_not_found", "{no_crash}");
    assert_eq!(no_crash["cause"]["crash_id"], "c9");
    assert_eq!(no_crash["exit"], 3, "{no_crash}");
    assert!(env.evidence_dirs().is_empty(), "no run started");
}

/// Two `minimize` calls at once on the one device of a lab host: one runs, the other is
/// refused `device_busy`, naming this very process as the holder — never both on it.
#[tokio::test]
async fn two_minimize_calls_on_one_device_never_drive_it_together() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    let model = env.dir.path().join("model.json");
    let host = Host::sim("lab", &model, 1, &["--delay-ms", "15"]);
    use_lab(&env, &[&host]);
    let mcp = Session::start(&env, &[(host.env_var(), host.token.clone())]).await;
    let call = || {
        let args = json!({"session": CHECKOUT, "max_replays": 120});
        mcp.client.call_tool(
            CallToolRequestParams::new("minimize")
                .with_arguments(args.as_object().cloned().unwrap()),
        )
    };
    let (a, b) = tokio::join!(call(), call());
    let (a, b) = (a.unwrap(), b.unwrap());
    let (ran, refused) = if a.is_error == Some(true) {
        (b, a)
    } else {
        (a, b)
    };
    assert_ne!(
        ran.is_error,
        Some(true),
        "one runs: {ran:?}\n{}",
        mcp.stderr()
    );
    assert_eq!(ran.structured_content.unwrap()["status"], "minimized");
    assert_eq!(
        refused.is_error,
        Some(true),
        "the other is refused: {refused:?}"
    );
    let refusal = refused.structured_content.unwrap();
    assert_eq!(refusal["cause"]["kind"], "device_busy", "{refusal:#}");
    assert_eq!(refusal["cause"]["holder"]["kind"], "process", "{refusal:#}");
    assert_eq!(refusal["cause"]["holder"]["pid"], mcp.child.id().unwrap());
    assert_eq!(refusal["exit"], 4, "{refusal:#}");
    assert_eq!(env.evidence_dirs().len(), 1, "only one run started");
}

#[tokio::test]
async fn a_cancelled_request_ends_its_run_cancelled_with_the_evidence_finished() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    let mut mcp = Session::start(&env, &[]).await;
    let params = CallToolRequestParams::new("minimize")
        .with_arguments(json!({"session": CHECKOUT}).as_object().cloned().unwrap());
    let request = mcp
        .client
        .send_request_with_option(
            ClientRequest::CallToolRequest(Request::new(params)),
            PeerRequestOptions::no_options(),
        )
        .await
        .unwrap();
    let first = tokio::time::timeout(Duration::from_secs(60), mcp.progress.recv())
        .await
        .expect("a first attempt")
        .unwrap();
    assert_eq!(first.progress, 1.0);
    request
        .cancel(Some("the agent changed its mind".into()))
        .await
        .unwrap();

    let evidence = only_evidence(&env);
    let run = mcp.ended_run(CHECKOUT, &evidence).await;
    assert_eq!(run["outcome"], "cancelled", "{run}");
    assert_eq!(meta_status(&env.evidence_dirs()[0]), "failed");
    let result = mcp
        .answer("result", json!({"evidence_session": evidence}))
        .await;
    assert_eq!(result["status"], "cancelled");
    assert!(result["attempts"].as_u64().unwrap() < 17, "{result}");
    // The server goes on serving.
    mcp.answer("sessions", json!({})).await;
}

#[tokio::test]
async fn a_closed_connection_cancels_the_run_and_the_server_exits_once_its_evidence_is_finished() {
    // A device slow enough that the run outlasts the 5 s rmcp gives a running call to
    // answer after the client's stdin closed; then the call's token is cancelled.
    let mut slow = model();
    slow["timing"] = json!({"launch_ms": 400, "action_ms": 200});
    let env = Env::with_model(slow);
    checkout_session(&env);
    let mut mcp = Session::start(&env, &[]).await;
    let params = CallToolRequestParams::new("minimize")
        .with_arguments(json!({"session": CHECKOUT}).as_object().cloned().unwrap());
    let _request = mcp
        .client
        .send_request_with_option(
            ClientRequest::CallToolRequest(Request::new(params)),
            PeerRequestOptions::no_options(),
        )
        .await
        .unwrap();
    tokio::time::timeout(Duration::from_secs(60), mcp.progress.recv())
        .await
        .expect("a first attempt")
        .unwrap();
    let Session {
        client, mut child, ..
    } = mcp;
    client.cancel().await.unwrap();
    let status = tokio::time::timeout(Duration::from_secs(60), child.wait())
        .await
        .expect("whittle mcp exits after the client closed stdin")
        .unwrap();
    assert!(status.success(), "{status:?}");
    let evidence = &env.evidence_dirs()[0];
    assert_eq!(meta_status(evidence), "failed", "finished, not interrupted");
    let result = read_json(&evidence.join("result.json"));
    assert_eq!(result["status"], "cancelled");
    assert!(result["attempts"].as_u64().unwrap() < 17, "{result}");
}

#[tokio::test]
async fn no_token_of_the_configuration_reaches_an_answer() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    let model = env.dir.path().join("model.json");
    let host = Host::sim("labA", &model, 1, &[]);
    use_lab(&env, &[&host]);
    let token = (host.env_var(), host.token.clone());
    let mut mcp = Session::start(&env, &[token]).await;
    let summary = mcp.answer("minimize", json!({"session": CHECKOUT})).await;
    assert_eq!(summary["status"], "minimized", "{}", mcp.stderr());
    let evidence = only_evidence(&env);
    mcp.answer("sessions", json!({})).await;
    mcp.answer("past_runs", json!({"session": CHECKOUT})).await;
    mcp.answer("result", json!({"evidence_session": evidence}))
        .await;
    assert!(
        mcp.stderr().contains("labA"),
        "the debug log saw the lab host"
    );
    mcp.assert_no_leak(&[&host.token, SECRET_EMAIL, SECRET_PASSWORD]);
    assert!(!mcp.stderr().contains(&host.token), "nor the log");
}

/// A copy of `demo/` (config, simulator model, workspace) with the waits and the
/// simulated device's own timing at zero, and one more session: a recorder that kept
/// the value of a redacted step.
pub(crate) fn demo_copy(root: &Path) -> PathBuf {
    let demo = root.join("demo");
    copy_tree(&repo_root().join("demo"), &demo);
    let edit = |file: &str, change: &dyn Fn(&mut Value)| {
        let path = demo.join(file);
        let mut value = read_json(&path);
        change(&mut value);
        std::fs::write(&path, serde_json::to_vec_pretty(&value).unwrap()).unwrap();
    };
    edit("whittle.json", &|c| c["timing"] = fast_timing());
    edit("shop.json", &|m| {
        m["timing"] = json!({"launch_ms": 0, "action_ms": 0});
    });
    let leaky = demo.join("workspace/sessions/2026-05-17_080000_leaky-login");
    copy_tree(
        &demo.join("workspace/sessions/2026-05-14_160354_checkout-npe"),
        &leaky,
    );
    let steps = std::fs::read_to_string(leaky.join("steps.jsonl")).unwrap();
    let steps = steps.replace(
        r#"\"input_redacted\": true"#,
        &format!(r#"\"input_redacted\": true, \"input_value\": \"{SECRET_PASSWORD}\""#),
    );
    assert!(steps.contains(SECRET_PASSWORD));
    std::fs::write(leaky.join("steps.jsonl"), steps).unwrap();
    let meta = std::fs::read_to_string(leaky.join("meta.json")).unwrap();
    std::fs::write(
        leaky.join("meta.json"),
        meta.replace(
            "2026-05-14_160354_checkout-npe",
            "2026-05-17_080000_leaky-login",
        ),
    )
    .unwrap();
    demo
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn the_python_sdk_agent_minimizes_the_demo_crash_and_cancels_a_run() {
    let Some(python) = peer_python() else {
        return;
    };
    servers_binary();
    let root = tempfile::tempdir().unwrap();
    let demo = demo_copy(root.path());
    // The workspace's exports folder: the one an agent may write to by default.
    let out = demo.join("workspace/exports");
    std::fs::create_dir_all(&out).unwrap();
    let script = repo_root().join("tests/peers/python/mcp_agent_client.py");
    let output = std::process::Command::new(python)
        .arg(script)
        .arg("--whittle")
        .arg(env!("CARGO_BIN_EXE_whittle"))
        .arg("--config")
        .arg(demo.join("whittle.json"))
        .args(["--session", "2026-05-14_160354_checkout-npe"])
        .args(["--minimal", "1,10,11,12"])
        .args(["--leaky-session", "2026-05-17_080000_leaky-login"])
        .args(["--secret", SECRET_EMAIL, "--secret", SECRET_PASSWORD])
        .arg("--out")
        .arg(&out)
        .output()
        .expect("run the Python SDK client");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "python client failed\nstdout: {stdout}\nstderr: {stderr}"
    );
    assert!(stdout.contains("mcp agent client ok"), "{stdout}");
}

/// Issue 42: the window, the terminal and an agent list the same sessions and the same
/// runs — all three render `api::listed_sessions` (the window's browser calls
/// `api::sessions`, which it is built on) — and a run's evidence is listed under its
/// session, not as a session of its own, in all three.
#[tokio::test]
async fn the_window_the_terminal_and_an_agent_list_the_same_sessions_and_runs() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    promo_session(&env);
    // A short run (unproven, exit 1) is a past run like any.
    // Two runs, so the three must also agree on their order (newest first).
    json_out(&env.minimize(CHECKOUT, "4", &["--json"]));
    let ran = json_out(&env.minimize(CHECKOUT, "6", &["--json"]));
    let evidence = ran["evidence_session"].as_str().unwrap().to_owned();

    let window: Vec<String> = whittle_service::api::sessions(&env.workspace)
        .unwrap()
        .into_iter()
        .map(|s| s.session_id)
        .collect();
    assert!(!window.contains(&evidence), "{window:?}");

    let mut terminal = env.whittle_json(&["sessions", "--json"]);
    assert_eq!(terminal["exit"], 0);
    terminal.as_object_mut().unwrap().remove("exit");
    let ids = |listing: &Value| -> Vec<String> {
        listing["sessions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["session_id"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        ids(&terminal),
        window,
        "the terminal lists what the window lists"
    );
    let text = stdout(&env.whittle(&["sessions"]));
    let text_ids: Vec<String> = text
        .lines()
        .filter(|l| !l.starts_with(' '))
        .map(|l| l.split_whitespace().next().unwrap().to_owned())
        .collect();
    assert_eq!(text_ids, window, "{text}");
    let run_line = text
        .lines()
        .find(|l| l.trim_start().starts_with(&evidence))
        .unwrap_or_else(|| panic!("the run is listed under its session: {text}"));
    assert!(run_line.starts_with("  "), "{run_line}");

    let mut mcp = Session::start(&env, &[]).await;
    let agent = mcp.answer("sessions", json!({})).await;
    assert_eq!(
        agent, terminal,
        "an agent gets the terminal's --json record"
    );
    let checkout = agent["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["session_id"] == CHECKOUT)
        .unwrap();
    assert_eq!(checkout["runs"][0]["evidence_session"], json!(evidence));
    assert_eq!(checkout["runs"].as_array().unwrap().len(), 2);

    // The past runs of the session: the same in `whittle runs`, the agent's `past_runs`
    // and the window's `api::past_runs`.
    let runs = env.whittle_json(&["runs", CHECKOUT, "--json"]);
    let past = mcp.answer("past_runs", json!({"session": CHECKOUT})).await;
    assert_eq!(runs["crashes"], past["crashes"], "{runs}\n{past}");
    let session = whittle_core::session::load_session(&env.session_dir(CHECKOUT)).unwrap();
    let window_runs = whittle_service::api::past_runs(&env.workspace, CHECKOUT, &session.crashes);
    assert_eq!(
        json!(window_runs["c1"]),
        runs["crashes"][0]["runs"],
        "the window's past runs"
    );
    assert_eq!(checkout["runs"], runs["crashes"][0]["runs"]);
}
