//! One run per device, everywhere (docs/device-lab.md, "One run per device"): two
//! `whittle minimize` processes on one lab device, and two `minimize` calls of one
//! `whittle mcp`, never drive it together. The second is refused with `device_busy`
//! naming the holder — the process on this machine (its lease), or, from a machine that
//! cannot see that lease, the lab host's session — or waits with `--wait-device`.

use crate::common;
use crate::lab_support;

use std::process::{Child, Output};
use std::time::{Duration, Instant};

use common::*;
use lab_support::*;
use serde_json::{json, Value};

/// One lab host whose every call takes 15 ms more (a run lasts long enough to be met).
fn lab_env() -> (Env, Host) {
    let env = Env::fast(&[]);
    checkout_session(&env);
    let model = env.dir.path().join("model.json");
    let host = Host::sim("lab", &model, 1, &["--delay-ms", "15"]);
    use_lab(&env, &[&host]);
    (env, host)
}

fn minimize_args(extra: &[&'static str]) -> Vec<&'static str> {
    let mut args = vec!["minimize", CHECKOUT, "--max-replays", "120", "--json"];
    args.extend_from_slice(extra);
    args
}

/// `whittle minimize` started in the background; returns once it holds the device
/// (the lease is taken before its evidence session exists).
fn start_holder(env: &Env, host: &Host) -> Child {
    let child = env
        .command(&minimize_args(&[]))
        .envs(tokens(&[host]))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn whittle");
    let deadline = Instant::now() + Duration::from_secs(60);
    while env.evidence_dirs().is_empty() {
        assert!(Instant::now() < deadline, "the first run never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    child
}

fn run(
    env: &Env,
    host: &Host,
    extra: &[&'static str],
    lease_dir: Option<&std::path::Path>,
) -> Output {
    let mut command = env.command(&minimize_args(extra));
    command.envs(tokens(&[host]));
    if let Some(dir) = lease_dir {
        command.env(whittle_service::device_lease::LEASE_DIR_ENV, dir);
    }
    command.output().expect("run whittle")
}

#[test]
fn a_second_process_is_refused_the_device_naming_the_holder_or_waits_for_it() {
    let (env, host) = lab_env();
    let holder = start_holder(&env, &host);
    let holder_pid = holder.id();

    // On this machine: the holder's lease names its process.
    let out = run(&env, &host, &[], None);
    assert_exit(&out, 4);
    let j = json_out(&out);
    assert_eq!(j["status"], "failed", "{j:#}");
    assert_eq!(j["cause"]["kind"], "device_busy", "{j:#}");
    assert_eq!(j["cause"]["device"], "sim-1");
    assert_eq!(j["cause"]["holder"]["kind"], "process");
    assert_eq!(j["cause"]["holder"]["pid"], holder_pid);
    assert_eq!(
        j["cause"]["holder"]["purpose"],
        format!("minimize {CHECKOUT}")
    );
    let error = j["error"].as_str().unwrap();
    assert!(
        error.contains("device sim-1 is in use by Whittle process")
            && error.contains("--wait-device"),
        "{error}"
    );

    // From another machine (its own leases): the lab host names the session holding it.
    let elsewhere = tempfile::tempdir().unwrap();
    let out = run(&env, &host, &[], Some(elsewhere.path()));
    assert_exit(&out, 4);
    let j = json_out(&out);
    assert_eq!(j["cause"]["kind"], "device_busy", "{j:#}");
    assert_eq!(j["cause"]["holder"]["kind"], "lab_session", "{j:#}");
    assert_eq!(j["cause"]["holder"]["server"], "lab");
    assert!(
        j["cause"]["holder"]["holder"]
            .as_str()
            .unwrap()
            .starts_with("MCP session "),
        "{j:#}"
    );
    assert_eq!(
        env.evidence_dirs().len(),
        1,
        "neither refused run started one"
    );

    // Waiting: the third run takes the device once the first let it go, and finds
    // what the first found.
    let waited = run(&env, &host, &["--wait-device", "5m"], None);
    let first = holder.wait_with_output().unwrap();
    assert_exit(&first, 0);
    assert_exit(&waited, 0);
    let (first, waited) = (json_out(&first), json_out(&waited));
    assert_eq!(first["status"], "minimized", "{first:#}");
    assert_eq!(waited["status"], "minimized", "{waited:#}");
    assert_eq!(waited["minimal_path"], first["minimal_path"]);
    assert_eq!(waited["minimal_path"], json!([1, 9, 10, 11, 12]));
}

/// A bad duration is refused by the argument parser, before anything starts.
#[test]
fn wait_device_takes_a_duration_people_type() {
    let env = Env::fast(&[]);
    let out = env.whittle(&["minimize", CHECKOUT, "--wait-device", "soon"]);
    assert_exit(&out, 3);
    assert!(stderr(&out).contains("--wait-device"), "{}", stderr(&out));
}

/// Whittle's own simulator over stdio lives inside its server process: runs of two
/// processes each drive their own, and never refuse each other.
#[test]
fn simulators_of_two_processes_are_two_devices() {
    let env = Env::fast(&[]);
    checkout_session(&env);
    let children: Vec<Child> = (0..2)
        .map(|_| {
            env.command(&minimize_args(&[]))
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert_exit(&out, 0);
        let j: Value = json_out(&out);
        assert_eq!(j["status"], "minimized", "{j:#}");
    }
}
