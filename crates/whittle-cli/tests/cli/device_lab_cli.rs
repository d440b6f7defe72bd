//! A device lab: two `whittle-servers sim --listen` processes on loopback stand for two
//! lab hosts with two devices each. `whittle minimize --devices 4` spans both and proves
//! what one local device proves; evidence names server and device; ids both hosts use
//! are qualified; tokens never show; a wrong token is refused with no side effect; a
//! host lost mid-run ends the run as an infrastructure failure; a run killed mid-way
//! frees its lab device within seconds and resumes.

use crate::common;
use crate::lab_support;

use std::collections::BTreeSet;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::*;
use lab_support::*;
use serde_json::{json, Value};

const SESSION: &str = CHECKOUT;

fn result_json(evidence: &std::path::Path) -> Value {
    read_json(&evidence.join("result.json"))
}

#[test]
fn four_devices_on_two_hosts_prove_the_one_device_result() {
    let local = Env::fast(&[]);
    checkout_session(&local);
    let one_json = local.minimize_json(SESSION, "120", &[]);
    let one_proof = result_json(&local.evidence_dirs()[0])["proof"].clone();

    let env = Env::fast(&[]);
    checkout_session(&env);
    let model = env.dir.path().join("model.json");
    let a = Host::sim("labA", &model, 2, &[]);
    let b = Host::sim("labB", &model, 2, &[]);
    use_lab(&env, &[&a, &b]);
    let out = whittle(
        &env,
        &[
            "minimize",
            SESSION,
            "--max-replays",
            "120",
            "--devices",
            "4",
            "--json",
        ],
        &tokens(&[&a, &b]),
    );
    assert_eq!(out.status.code(), Some(0), "stderr: {}", stderr(&out));
    let lab = json_out(&out);
    assert_eq!(lab["status"], "minimized");
    assert_eq!(lab["minimal_path"], one_json["minimal_path"]);
    assert_eq!(lab["minimal_path"], json!([1, 9, 10, 11, 12]));
    assert_eq!(lab["final_confirmed"], true);
    // Both hosts list sim-1 and sim-2: every id is qualified by its server; the
    // session's device (sim-1) is taken from the first host.
    assert_eq!(
        lab["devices"],
        json!(["labA/sim-1", "labA/sim-2", "labB/sim-1", "labB/sim-2"])
    );
    assert_eq!(lab["device_servers"]["labB/sim-2"], "labB");
    // The budget counts what the search used, as on one device; the unneeded guesses
    // ran besides, counted apart.
    assert_eq!(lab["attempts"], one_json["attempts"]);
    let wasted = lab["wasted_replays"].as_u64().unwrap();
    let on_devices: u64 = lab["replays_on_devices"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(on_devices, lab["attempts"].as_u64().unwrap() + wasted);

    let evidence = env.evidence_dirs();
    assert_eq!(
        evidence.len(),
        1,
        "one evidence session, in the local workspace"
    );
    let ev = &evidence[0];
    assert_eq!(result_json(ev)["proof"], one_proof, "the same proof");
    let notes: Vec<Value> = session_steps(ev)
        .iter()
        .map(|s| serde_json::from_str(s["notes"].as_str().unwrap()).unwrap())
        .collect();
    let mut used = BTreeSet::new();
    for n in &notes {
        let device = n["device"].as_str().unwrap();
        let server = n["server"]
            .as_str()
            .unwrap_or_else(|| panic!("no server: {n}"));
        assert!(device.starts_with(&format!("{server}/")), "{n}");
        used.insert(server.to_string());
    }
    assert_eq!(used.len(), 2, "replays ran on both hosts: {used:?}");
    let meta: Value =
        serde_json::from_str(&std::fs::read_to_string(ev.join("meta.json")).unwrap()).unwrap();
    assert_eq!(meta["extra"]["device_servers"]["labA/sim-1"], "labA");
    for device in ["labA_sim-2", "labB_sim-1", "labB_sim-2"] {
        assert!(
            ev.join("devices").join(device).join("logcat.txt").is_file(),
            "{device}: its capture ran on its host and was saved"
        );
    }
    assert_eq!(meta_status(ev), "passed");

    // The tokens reached neither the output, the logs nor the evidence.
    let everything = format!(
        "{}{}{}",
        stdout(&out),
        stderr(&out),
        all_text_under(&env.workspace)
    );
    for host in [&a, &b] {
        assert!(!everything.contains(&host.token), "{} leaked", host.name);
    }
}

#[test]
fn a_wrong_or_missing_token_is_refused_with_no_side_effect() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    let model = env.dir.path().join("model.json");
    let a = Host::sim("labA", &model, 1, &[]);
    let b = Host::sim("labB", &model, 1, &[]);
    use_lab(&env, &[&a, &b]);
    let wrong = "labB-token-wrong-0000000000";
    let envs = vec![
        (a.env_var(), a.token.clone()),
        (b.env_var(), wrong.to_string()),
    ];
    let out = whittle(&env, &["minimize", SESSION, "--devices", "2"], &envs);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("\"labB\" refused the credentials"), "{err}");
    assert!(
        err.contains("mcpServers.labB.headers"),
        "the fix names the field: {err}"
    );
    assert!(!err.contains(wrong) && !err.contains(&a.token), "{err}");
    assert!(env.evidence_dirs().is_empty(), "nothing was started");

    let missing = whittle(&env, &["minimize", SESSION], &envs[..1]);
    assert_eq!(missing.status.code(), Some(3));
    let err = stderr(&missing);
    assert!(err.contains("LAB_LABB_TOKEN is not set"), "{err}");
    assert!(env.evidence_dirs().is_empty());
}

#[test]
fn doctor_checks_every_server_of_the_pool() {
    let env = Env::fast(&[]);
    let model = env.dir.path().join("model.json");
    let a = Host::sim("labA", &model, 1, &[]);
    let b = Host::sim("labB", &model, 2, &[]);
    use_lab(&env, &[&a, &b]);
    let out = whittle(&env, &["doctor"], &tokens(&[&a, &b]));
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}\n{}", stderr(&out));
    for role in ["mobile", "ui", "log"] {
        for host in ["labA", "labB"] {
            assert!(
                text.contains(&format!("ok       {role:<8} ({host})")),
                "{text}"
            );
        }
    }
    // sim-1 is on both hosts, so qualified; sim-2 only on labB, so left as it is.
    assert!(text.contains("device   labA/sim-1  android"), "{text}");
    assert!(text.contains("device   labB/sim-1  android"), "{text}");
    assert!(
        text.contains("device   sim-2  android  emulator  online  (labB)"),
        "{text}"
    );
    assert!(text.contains("logs are captured from labA/sim-1"), "{text}");
    assert!(text.contains("logs are captured from labB/sim-1"), "{text}");
}

/// labB dies while replays run on it: the run ends as an infrastructure failure (exit
/// 3), the evidence is finalized failed, nothing is written back.
#[test]
fn a_host_lost_mid_run_ends_the_run_as_an_infrastructure_failure() {
    let mut m = model();
    m["timing"] = json!({"launch_ms": 300, "action_ms": 0});
    let env = Env::with_model(m);
    checkout_session(&env);
    let model = env.dir.path().join("model.json");
    let a = Host::sim("labA", &model, 1, &[]);
    let mut b = Host::sim("labB", &model, 1, &[]);
    use_lab(&env, &[&a, &b]);
    let mut child = env
        .command(&["minimize", SESSION, "--devices", "2", "--approve", "--json"])
        .envs(tokens(&[&a, &b]))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // After the baseline (a round on the first device only), labB joins the rounds.
    let ev = env.wait_for_first_attempt(&mut child);
    b.kill();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(4), "{}", stderr(&out));
    let j = json_out(&out);
    assert!(
        j["status"] == "capture_failed" || j["status"] == "runtime_failed",
        "{j}"
    );
    assert!(j["sidecar"].is_null(), "{j}");
    assert_eq!(meta_status(&ev), "failed");
    assert_eq!(result_json(&ev)["write_back_allowed"], false);
    assert!(!env
        .session_dir(SESSION)
        .join("crashes.minimized.json")
        .exists());
}

/// Issue: `whittle minimize` killed with SIGKILL kept its lab device busy for
/// `--session-idle-secs` (300 s), and its log capture kept running, so the first
/// `--resume` failed `capture_failed` (its capture collided with the dead one). The host
/// ends the dead run's session once its connection is gone (`--disconnect-grace-secs`,
/// 5 s): the resume, waiting for the device, gets it within seconds, its capture is the
/// only one recording, and it reaches the same minimal path.
#[test]
fn a_run_killed_on_a_lab_host_frees_its_device_and_its_resume_succeeds() {
    let mut m = model();
    m["timing"] = json!({"launch_ms": 150, "action_ms": 0});
    let env = Env::with_model(m);
    checkout_session(&env);
    let model = env.dir.path().join("model.json");
    let a = Host::sim("labA", &model, 1, &[]);
    use_lab(&env, &[&a]);
    let mut child = env
        .command(&["minimize", SESSION, "--json"])
        .envs(tokens(&[&a]))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    let evidence = loop {
        if let Some(ev) = env.evidence_dirs().first() {
            if journal_attempts(ev).len() >= 3 {
                break ev.clone();
            }
        }
        assert!(child.try_wait().unwrap().is_none(), "whittle ended first");
        assert!(Instant::now() < deadline, "no 3 attempts within 60 s");
        std::thread::sleep(Duration::from_millis(10));
    };
    child.kill().expect("SIGKILL");
    child.wait().unwrap();
    let killed = Instant::now();
    let id = evidence.file_name().unwrap().to_string_lossy().into_owned();
    let journaled = journal_attempts(&evidence).len();
    let kept = journal_attempts(&evidence)
        .iter()
        .filter(|a| a["outcome"]["kind"] == "replayed")
        .count() as u64;

    let resume = env
        .command(&[
            "minimize",
            "--resume",
            &id,
            "--json",
            "--wait-device",
            "60s",
        ])
        .envs(tokens(&[&a]))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The resume's first attempt: the device was free by then.
    let first_attempt = loop {
        if journal_attempts(&evidence).len() > journaled {
            break killed.elapsed();
        }
        assert!(
            killed.elapsed() < Duration::from_secs(30),
            "the resume ran no attempt within 30 s of the kill"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    let out = resume.wait_with_output().unwrap();
    let resumed = killed.elapsed();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let j = json_out(&out);
    assert_eq!(j["status"], "minimized", "{j}");
    assert_eq!(j["minimal_path"], json!([1, 9, 10, 11, 12]));
    assert_eq!(j["evidence_session"], json!(id));
    eprintln!(
        "# killed on a lab host: the resume's first attempt {first_attempt:?} after SIGKILL, \
         its end {resumed:?} after"
    );
    assert!(
        first_attempt < Duration::from_secs(10),
        "the device was busy {first_attempt:?} after the kill"
    );
    // The dead run's capture ended with its session: the resumed capture alone saw the
    // rest of the run.
    let launches = launches_per_capture(&evidence);
    assert_eq!(launches.len(), 2, "{launches:?}");
    assert_eq!(
        launches[1],
        j["attempts"].as_u64().unwrap() - kept,
        "{launches:?}"
    );
    assert_eq!(meta_status(&evidence), "passed");
}

/// HTTPS to a lab host: trusted through `SSL_CERT_FILE` (a private CA), refused without.
#[test]
fn https_lab_hosts_are_verified_against_the_trust_store() {
    let env = Env::fast(&[]);
    let model = env.dir.path().join("model.json");
    let cert =
        rcgen::generate_simple_self_signed(vec!["localhost".into(), "127.0.0.1".into()]).unwrap();
    let cert_file = env.dir.path().join("lab-cert.pem");
    let key_file = env.dir.path().join("lab-key.pem");
    std::fs::write(&cert_file, cert.cert.pem()).unwrap();
    std::fs::write(&key_file, cert.signing_key.serialize_pem()).unwrap();
    let a = Host::sim_with(
        "labA",
        &model,
        1,
        &[],
        &[("--tls-cert", &cert_file), ("--tls-key", &key_file)],
    );
    assert!(a.url.starts_with("https://127.0.0.1:"), "{}", a.url);
    use_lab(&env, &[&a]);
    let mut envs = tokens(&[&a]);
    let untrusted = whittle(&env, &["doctor"], &envs);
    assert_ne!(untrusted.status.code(), Some(0));
    assert!(
        stdout(&untrusted).contains("labA") && stdout(&untrusted).contains("PROBLEM"),
        "{}",
        stdout(&untrusted)
    );
    envs.push(("SSL_CERT_FILE".into(), cert_file.display().to_string()));
    let trusted = whittle(&env, &["doctor"], &envs);
    assert_eq!(trusted.status.code(), Some(0), "{}", stdout(&trusted));
    assert!(stdout(&trusted).contains("logs are captured from sim-1"));
}

/// A lab host serving a CA certificate (what `openssl req -x509 … -subj /CN=lab` makes
/// by default) is refused, even when trusted, in words that say so and give the command
/// for an end-entity certificate; that kind of certificate is then accepted.
#[test]
fn a_ca_certificate_on_a_lab_host_is_named_with_the_command_for_a_proper_one() {
    use rcgen::{BasicConstraints, CertificateParams, IsCa, KeyPair};
    let env = Env::fast(&[]);
    let model = env.dir.path().join("model.json");
    let serve = |name: &str, ca: IsCa| {
        let mut params =
            CertificateParams::new(vec!["localhost".to_string(), "127.0.0.1".to_string()]).unwrap();
        params.is_ca = ca;
        let key = KeyPair::generate().unwrap();
        let cert = params.self_signed(&key).unwrap();
        let cert_file = env.dir.path().join(format!("{name}-cert.pem"));
        let key_file = env.dir.path().join(format!("{name}-key.pem"));
        std::fs::write(&cert_file, cert.pem()).unwrap();
        std::fs::write(&key_file, key.serialize_pem()).unwrap();
        let host = Host::sim_with(
            "labA",
            &model,
            1,
            &[],
            &[("--tls-cert", &cert_file), ("--tls-key", &key_file)],
        );
        (host, cert_file)
    };

    let (ca_host, ca_cert) = serve("ca", IsCa::Ca(BasicConstraints::Unconstrained));
    use_lab(&env, &[&ca_host]);
    let mut envs = tokens(&[&ca_host]);
    envs.push(("SSL_CERT_FILE".into(), ca_cert.display().to_string()));
    let refused = whittle(&env, &["doctor"], &envs);
    let text = stdout(&refused);
    assert_ne!(refused.status.code(), Some(0), "{text}");
    assert!(
        text.contains(
            "presented a CA certificate (basicConstraints CA:TRUE) as its own server certificate"
        ) && text.contains("-addext \"basicConstraints=critical,CA:FALSE\"")
            && text.contains("-addext \"subjectAltName=DNS:lab-host,IP:192.0.2.10\""),
        "{text}"
    );
    assert!(!text.contains("CaUsedAsEndEntity"), "{text}");
    drop(ca_host);

    let (host, cert) = serve("end-entity", IsCa::ExplicitNoCa);
    use_lab(&env, &[&host]);
    let mut envs = tokens(&[&host]);
    envs.push(("SSL_CERT_FILE".into(), cert.display().to_string()));
    let accepted = whittle(&env, &["doctor"], &envs);
    assert_eq!(accepted.status.code(), Some(0), "{}", stdout(&accepted));
}

/// `whittle doctor` and remote adb serials: connected, offline and not connected.
#[test]
fn doctor_checks_that_remote_adb_serials_are_connected() {
    use std::os::unix::fs::PermissionsExt;
    let env = Env::fast(&[]);
    // A stand-in for adb that knows two `adb connect`ed devices.
    let adb = env.dir.path().join("adb");
    std::fs::write(
        &adb,
        "#!/bin/sh\ncase \"$1\" in\n  version) echo 'Android Debug Bridge version 1.0.41';;\n  \
         devices) printf 'List of devices attached\\nstf.lab.example:7401\\tdevice\\n10.0.0.9:5555\\toffline\\n\\n';;\nesac\n",
    )
    .unwrap();
    std::fs::set_permissions(&adb, std::fs::Permissions::from_mode(0o755)).unwrap();
    env.edit_config(|config| {
        let servers = config["mcpServers"].as_object_mut().unwrap();
        let command = servers["sim"]["command"].clone();
        for (name, serial) in [
            ("farm", "stf.lab.example:7401"),
            ("wifi", "10.0.0.9:5555"),
            ("gone", "10.0.0.10:5555"),
        ] {
            servers.insert(
                name.into(),
                json!({"command": command, "args": ["adb", "--adb", adb, "--serial", serial]}),
            );
        }
    });
    let out = env.whittle(&["doctor"]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(4), "{text}");
    assert!(
        text.contains("ok       adb      (farm) remote device stf.lab.example:7401 is connected"),
        "{text}"
    );
    assert!(
        text.contains("(wifi) remote device 10.0.0.9:5555 is offline"),
        "{text}"
    );
    assert!(
        text.contains("(gone) remote device 10.0.0.10:5555 is not connected")
            && text.contains("run `adb connect 10.0.0.10:5555`"),
        "{text}"
    );
}
