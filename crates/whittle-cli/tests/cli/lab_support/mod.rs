//! A device lab on loopback: `whittle-servers sim --listen 127.0.0.1:0` processes stand
//! for lab hosts (each with its own token), and a whittle.json whose device roles name
//! them all as `url` servers with `"Authorization": "Bearer ${LAB_x_TOKEN}"`.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};

use serde_json::{json, Value};

use crate::common::{servers_binary, Env};

/// The URL a server process announces on its first stdout line, after `prefix`.
pub fn announced_url(child: &mut Child, prefix: &str) -> String {
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout piped"))
        .read_line(&mut line)
        .unwrap();
    line.trim()
        .strip_prefix(prefix)
        .unwrap_or_else(|| panic!("no URL line after {prefix:?}, got {line:?}"))
        .to_string()
}

/// One lab host; killed on drop.
pub struct Host {
    pub name: String,
    pub token: String,
    pub url: String,
    pub child: Child,
}

impl Host {
    /// `sim --model MODEL --devices N --listen 127.0.0.1:0`, plus `extra` arguments.
    pub fn sim(name: &str, model: &Path, devices: u32, extra: &[&str]) -> Host {
        Host::sim_with(name, model, devices, extra, &[])
    }

    /// As `sim`, with its `extra` arguments given as paths (TLS files).
    pub fn sim_with(
        name: &str,
        model: &Path,
        devices: u32,
        extra: &[&str],
        files: &[(&str, &Path)],
    ) -> Host {
        let token = format!("{name}-token-5e8f1a2c9d7b3064");
        let mut child = Command::new(servers_binary())
            .args(["sim", "--model"])
            .arg(model)
            .args(["--devices", &devices.to_string(), "--listen", "127.0.0.1:0"])
            .args(extra)
            .args(
                files
                    .iter()
                    .flat_map(|(flag, path)| [std::ffi::OsStr::new(flag), path.as_os_str()]),
            )
            .env("WHITTLE_SERVER_TOKEN", &token)
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn a lab host");
        let url = announced_url(&mut child, "whittle-servers: listening on ");
        Host {
            name: name.to_string(),
            token,
            url,
            child,
        }
    }

    /// The environment variable its token is read from in the config.
    pub fn env_var(&self) -> String {
        format!("LAB_{}_TOKEN", self.name.to_uppercase())
    }

    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Points `env`'s device roles at `hosts` (in order); report and analyzer stay local.
pub fn use_lab(env: &Env, hosts: &[&Host]) {
    let mut config: Value =
        serde_json::from_str(&std::fs::read_to_string(&env.config).unwrap()).unwrap();
    let names: Vec<&str> = hosts.iter().map(|h| h.name.as_str()).collect();
    for host in hosts {
        config["mcpServers"][&host.name] = json!({
            "url": host.url,
            "headers": {"Authorization": format!("Bearer ${{{}}}", host.env_var())},
            "connect_timeout_ms": 2000
        });
    }
    for role in ["mobile", "ui", "log"] {
        config["roles"][role] = json!(names);
    }
    std::fs::write(&env.config, serde_json::to_vec_pretty(&config).unwrap()).unwrap();
}

/// `whittle ARGS` with the config and `envs` (the tokens), debug logging on so a leak
/// check sees everything Whittle logs.
pub fn whittle(env: &Env, args: &[&str], envs: &[(String, String)]) -> Output {
    env.command(args)
        .env("RUST_LOG", "debug")
        .envs(envs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .output()
        .expect("run whittle")
}

/// Each host's token variable, as `whittle` needs them.
pub fn tokens(hosts: &[&Host]) -> Vec<(String, String)> {
    hosts
        .iter()
        .map(|h| (h.env_var(), h.token.clone()))
        .collect()
}
