use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use whittle_contract::Role;

use super::export_folders::RawExport;
use super::headers::resolve_headers;
use super::roles::check_roles;
use super::server::resolve_command;
use super::timing_file::RawTiming;
use super::{
    Config, ConfigError, HttpServer, MaskingConfig, RoleServers, ServerSpec, WaitMode,
    DEFAULT_CALL_TIMEOUT_MS, DEFAULT_CONNECT_TIMEOUT_MS,
};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    workspace: String,
    #[serde(rename = "mcpServers")]
    mcp_servers: BTreeMap<String, RawServer>,
    #[serde(default)]
    roles: BTreeMap<Role, RoleServers>,
    #[serde(default)]
    timing: RawTiming,
    #[serde(default = "default_call_timeout")]
    call_timeout_ms: u32,
    #[serde(default)]
    masking: MaskingConfig,
    #[serde(default)]
    export: RawExport,
}

/// Unknown keys are ignored here on purpose: entries pasted from other MCP clients
/// carry extras (`type`, `disabled`, `autoApprove`, ...) that do not concern us.
#[derive(Deserialize)]
struct RawServer {
    command: Option<String>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    url: Option<String>,
    /// `url` servers only: sent with every request; `${VAR}` comes from the environment.
    #[serde(default)]
    headers: BTreeMap<String, String>,
    /// `url` servers only.
    connect_timeout_ms: Option<u32>,
    /// `url` servers only; unset means chosen from the server's initialize answer.
    keep_alive: Option<bool>,
}

/// `fixed` when the ui role is Whittle's adb backend and the file does not say: there
/// every `get_hierarchy` is a `uiautomator dump` of 1–3 s, longer than the pauses a
/// stable-screen wait could save. Every other ui server answers fast enough to wait on.
fn default_wait(
    roles: &BTreeMap<Role, RoleServers>,
    servers: &BTreeMap<String, RawServer>,
) -> WaitMode {
    let adb = roles
        .get(&Role::Ui)
        .and_then(|names| servers.get(names.primary()))
        .is_some_and(|s| {
            let bundled = s.command.as_deref().is_some_and(|c| {
                Path::new(c)
                    .file_stem()
                    .is_some_and(|stem| stem == super::BUNDLED_SERVERS)
            });
            bundled && s.args.first().is_some_and(|a| a == "adb")
        });
    if adb {
        WaitMode::Fixed
    } else {
        WaitMode::Evidence
    }
}

fn default_call_timeout() -> u32 {
    DEFAULT_CALL_TIMEOUT_MS
}

impl Config {
    /// Reads and validates `whittle.json`. Relative `workspace` and path-like `command`
    /// values are resolved against the file's folder.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let file = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let text = std::fs::read_to_string(&file).map_err(|source| ConfigError::Read {
            file: file.clone(),
            source,
        })?;
        Config::parse(&text, &file)
    }

    /// Parses config text as if it had been read from `file` (absolute); `${VAR}` in
    /// headers comes from this process's environment.
    pub fn parse(text: &str, file: &Path) -> Result<Config, ConfigError> {
        Config::parse_with_env(text, file, &|name| std::env::var(name).ok())
    }

    /// Like `parse`, with `${VAR}` looked up by `env` (tests, the app's own lookups).
    pub fn parse_with_env(
        text: &str,
        file: &Path,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Config, ConfigError> {
        let raw: RawConfig = deserialize(text, file)?;
        let base = file
            .parent()
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("."));
        let field = |field: String, message: &str| ConfigError::Field {
            file: file.to_path_buf(),
            field,
            message: message.to_string(),
        };

        if raw.workspace.trim().is_empty() {
            return Err(field("workspace".into(), "must not be empty"));
        }
        if raw.call_timeout_ms == 0 {
            return Err(field("call_timeout_ms".into(), "must be at least 1"));
        }
        check_roles(&raw.roles).map_err(|(at, message)| field(at, &message))?;
        let default_wait = default_wait(&raw.roles, &raw.mcp_servers);
        let timing = raw
            .timing
            .resolve(default_wait)
            .map_err(|(at, message)| field(at, message))?;
        let export = raw
            .export
            .resolve(&base)
            .map_err(|(at, message)| field(at, message))?;
        for (i, pattern) in raw.masking.id_patterns.iter().enumerate() {
            if let Err(e) = regex::Regex::new(pattern) {
                return Err(field(
                    format!("masking.id_patterns[{i}]"),
                    &format!("not a valid regex: {e}"),
                ));
            }
        }

        let mut servers = BTreeMap::new();
        for (name, server) in raw.mcp_servers {
            let at = format!("mcpServers.{name}");
            let spec = match (server.command, server.url) {
                (Some(_), Some(_)) => {
                    return Err(field(at, "has both `command` and `url`; keep one"))
                }
                (None, None) => return Err(field(at, "needs a `command` or a `url`")),
                (Some(command), None) => {
                    if command.trim().is_empty() {
                        return Err(field(format!("{at}.command"), "must not be empty"));
                    }
                    if !server.headers.is_empty() {
                        return Err(field(
                            format!("{at}.headers"),
                            "applies to `url` servers only (a stdio server takes `env`)",
                        ));
                    }
                    for (key, given) in [
                        ("connect_timeout_ms", server.connect_timeout_ms.is_some()),
                        ("keep_alive", server.keep_alive.is_some()),
                    ] {
                        if given {
                            return Err(field(
                                format!("{at}.{key}"),
                                "applies to `url` servers only",
                            ));
                        }
                    }
                    ServerSpec::Stdio {
                        command: resolve_command(&command, &base),
                        args: server.args,
                        env: server.env,
                    }
                }
                (None, Some(url)) => {
                    if !(url.starts_with("http://") || url.starts_with("https://")) {
                        return Err(field(
                            format!("{at}.url"),
                            "must start with http:// or https://",
                        ));
                    }
                    let connect_timeout_ms = server
                        .connect_timeout_ms
                        .unwrap_or(DEFAULT_CONNECT_TIMEOUT_MS);
                    if connect_timeout_ms == 0 {
                        return Err(field(
                            format!("{at}.connect_timeout_ms"),
                            "must be at least 1",
                        ));
                    }
                    let headers = resolve_headers(&at, server.headers, env)
                        .map_err(|(at, message)| field(at, &message))?;
                    ServerSpec::Http(HttpServer {
                        url,
                        headers,
                        connect_timeout_ms,
                        keep_alive: server.keep_alive,
                    })
                }
            };
            servers.insert(name, spec);
        }

        Ok(Config {
            path: file.to_path_buf(),
            workspace: base.join(&raw.workspace),
            servers,
            roles: raw.roles,
            timing: timing.base,
            device_timing: timing.devices,
            call_timeout_ms: raw.call_timeout_ms,
            masking: raw.masking,
            export,
        })
    }
}

fn deserialize(text: &str, file: &Path) -> Result<RawConfig, ConfigError> {
    let syntax = |inner: &serde_json::Error| ConfigError::Syntax {
        file: file.to_path_buf(),
        line: inner.line(),
        column: inner.column(),
        message: inner.to_string(),
    };
    let mut de = serde_json::Deserializer::from_str(text);
    let raw: RawConfig = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if inner.is_syntax() || inner.is_eof() {
            syntax(&inner)
        } else {
            ConfigError::Field {
                file: file.to_path_buf(),
                // serde reports a missing top-level key at the root; its message names it.
                field: if path == "." {
                    "(top level)".into()
                } else {
                    path
                },
                message: inner.to_string(),
            }
        }
    })?;
    de.end().map_err(|e| syntax(&e))?;
    Ok(raw)
}
