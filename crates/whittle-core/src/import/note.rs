//! What a flow held that is not imported as a step, typed so that each front end words
//! it in its own language (whittle-text's catalogues for the terminal and agents, the
//! window's for the window).

use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ImportNote {
    /// Maestro's `onFlowStart` or `onFlowComplete` (`hook` is that key, as written).
    Hook { hook: String, line: u32 },
    /// A Robo script's execution options header (`"roboscript"`).
    ExecutionOptions { line: u32 },
    /// The flow's first `launchApp` asks for something a replay's launch does not do.
    LaunchOption {
        option: LaunchOption,
        line: Option<u32>,
    },
    /// The flow's first `launchApp` keeps a running app (`stopApp: false`).
    KeepsRunningApp { line: Option<u32> },
}

/// A `launchApp` option Whittle's launch does not honour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum LaunchOption {
    ClearState,
    ClearKeychain,
    Permissions,
    Arguments,
}

impl LaunchOption {
    /// The option as Maestro spells it.
    pub const ALL: [(&'static str, LaunchOption); 4] = [
        ("clearState", LaunchOption::ClearState),
        ("clearKeychain", LaunchOption::ClearKeychain),
        ("permissions", LaunchOption::Permissions),
        ("arguments", LaunchOption::Arguments),
    ];

    /// What the option does, as a kept step's action names it ("relaunch that clears
    /// the app's data"): data of the plan's skip reason, like every action name.
    pub(crate) fn action_words(self) -> &'static str {
        match self {
            LaunchOption::ClearState => "clears the app's data",
            LaunchOption::ClearKeychain => "clears the keychain",
            LaunchOption::Permissions => "sets permissions",
            LaunchOption::Arguments => "passes launch arguments",
        }
    }
}

/// A file's line number as a note carries it (no flow is 4 billion lines long: it is
/// refused far earlier by `MAX_FLOW_BYTES`).
pub(crate) fn line_number(line: usize) -> u32 {
    u32::try_from(line).unwrap_or(u32::MAX)
}
