//! What each tool of `whittle mcp` is called with. Every field is the caller's data: it
//! is checked by the application layer (ids are validated before any path is built), and
//! the published input schema is generated from these types, with the bounds the server
//! holds them to (a count the server refuses at 0 says `minimum: 1`).

use schemars::JsonSchema;
use serde::Deserialize;
use whittle_core::strategy::SearchStrategy;

/// One session of the workspace.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SessionArgs {
    /// The session's id: its folder name under the workspace's `sessions/` (as the
    /// `sessions` tool lists it). Never a path.
    pub session: String,
}

/// One evidence session: the folder a minimize run recorded its replays in.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvidenceArgs {
    /// The evidence session's id (as `past_runs` and `minimize` name it). Never a path.
    pub evidence_session: String,
}

/// `whittle minimize`'s options; every one may be left out.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MinimizeArgs {
    /// The session's id (as the `sessions` tool lists it). Never a path.
    pub session: String,
    /// Which crash (its `crash_id`), when the session has several distinct ones.
    #[serde(default)]
    pub crash: Option<String>,
    /// Replay budget, at least 1 (default 30).
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub max_replays: Option<u32>,
    /// The device to replay on (default: the session's device when it is connected, else
    /// the only online Android device).
    #[serde(default)]
    pub device: Option<String>,
    /// Replay on up to this many devices at once, at least 1 (default 1).
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub devices: Option<u32>,
    /// The app's package, when the session does not name it.
    #[serde(default)]
    pub package: Option<String>,
    /// The search: `seed` (default), `binary` (fewer replays, the same proof) or `flaky`
    /// (for crashes that show only sometimes; never rated high).
    #[serde(default)]
    pub strategy: Option<SearchStrategy>,
    /// Replay the full path up to this many times until it reproduces, at least 1
    /// (default 1).
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub baseline_tries: Option<u32>,
    /// While another run holds the device, wait up to this many seconds for it (default:
    /// refuse at once with `device_busy`, naming the holder).
    #[serde(default)]
    pub wait_device_seconds: Option<u32>,
}

/// Where to write a bug-ticket bundle.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExportArgs {
    /// The evidence session's id (as `past_runs` and `minimize` name it). Never a path.
    pub evidence_session: String,
    /// The absolute folder the bundle's folder is created in (`whittle export --out`):
    /// the workspace's `exports` folder, a folder under it, or under a folder of the
    /// config's `export.allowed_folders`; anything else is refused, naming those.
    pub out: String,
    /// The bundle folder's name, one plain name (default: the evidence session's id).
    #[serde(default)]
    pub name: Option<String>,
}
