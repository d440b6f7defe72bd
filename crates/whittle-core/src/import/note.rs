//! What a flow held that is not imported as a step, typed so that each front end words
//! it in its own language (the terminal prints the English `Display`).

use std::fmt;

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

    pub(crate) fn what(self) -> &'static str {
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

fn at_line(line: Option<u32>) -> String {
    line.map(|l| format!(" (line {l})")).unwrap_or_default()
}

impl fmt::Display for ImportNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportNote::Hook { hook, line } => write!(
                f,
                "The flow's {hook} hook (line {line}) is not imported: a replay starts from a \
                 fresh launch."
            ),
            ImportNote::ExecutionOptions { line } => write!(
                f,
                "The execution options on line {line} (\"roboscript\") are not imported: \
                 Whittle replays every step strictly, in order."
            ),
            ImportNote::LaunchOption { option, line } => write!(
                f,
                "The flow's launchApp{} {}; Whittle's replays start the app force-stopped and \
                 keep its data, so a crash that needs it may not reproduce.",
                at_line(*line),
                option.what()
            ),
            ImportNote::KeepsRunningApp { line } => write!(
                f,
                "The flow's launchApp{} keeps a running app (stopApp: false); Whittle's \
                 replays always start it force-stopped.",
                at_line(*line)
            ),
        }
    }
}
