//! Pointing a config at another workspace, as the app does when the user opens one.

use std::path::Path;

use super::{Config, ServerSpec, BUNDLED_SERVERS};

impl Config {
    /// This config with `workspace` as its workspace. The bundled servers take their
    /// workspace as `--workspace <dir>`, so that argument follows too; other servers
    /// are left exactly as configured (their arguments are the user's to set).
    pub fn for_workspace(&self, workspace: &Path) -> Config {
        let mut config = self.clone();
        config.workspace = workspace.to_path_buf();
        for spec in config.servers.values_mut() {
            let ServerSpec::Stdio { command, args, .. } = spec else {
                continue;
            };
            let bundled = Path::new(command.as_str())
                .file_stem()
                .is_some_and(|stem| stem == BUNDLED_SERVERS);
            if !bundled {
                continue;
            }
            if let Some(at) = args.iter().position(|a| a == "--workspace") {
                if let Some(value) = args.get_mut(at + 1) {
                    *value = workspace.to_string_lossy().into_owned();
                }
            }
        }
        config
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    const FILE: &str = r#"{
      "workspace": "workspace",
      "mcpServers": {
        "whittle": { "command": "whittle-servers", "args": ["all", "--workspace", "workspace"] },
        "other": { "command": "/opt/reporter", "args": ["--workspace", "theirs"] },
        "sim": { "command": "whittle-servers", "args": ["sim", "--model", "shop.json"] }
      },
      "roles": { "report": "whittle", "analyzer": "whittle", "mobile": "sim", "ui": "sim", "log": "other" }
    }"#;

    fn args(config: &Config, server: &str) -> Vec<String> {
        match &config.servers[server] {
            ServerSpec::Stdio { args, .. } => args.clone(),
            ServerSpec::Http { .. } => panic!("stdio expected"),
        }
    }

    #[test]
    fn bundled_servers_follow_the_new_workspace_and_others_are_untouched() {
        let config = Config::parse(FILE, Path::new("/home/t/whittle.json")).unwrap();
        let moved = config.for_workspace(Path::new("/data/my-ws"));
        assert_eq!(moved.workspace, PathBuf::from("/data/my-ws"));
        assert_eq!(
            args(&moved, "whittle"),
            ["all", "--workspace", "/data/my-ws"]
        );
        assert_eq!(args(&moved, "other"), args(&config, "other"));
        assert_eq!(args(&moved, "sim"), args(&config, "sim"));
        assert_eq!(moved.roles, config.roles);
    }
}
