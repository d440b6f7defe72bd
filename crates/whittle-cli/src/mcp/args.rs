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
    /// The session's id (as the `sessions` tool lists it). Never a path. Required unless
    /// `reprove` is given (then it is that run's, and must be left out).
    #[serde(default)]
    pub session: Option<String>,
    /// Which crash (its `crash_id`), when the session has several distinct ones.
    #[serde(default)]
    pub crash: Option<String>,
    /// Re-prove the run of this evidence session (one made elsewhere — a CI runner's, a
    /// colleague's — which nothing here proves, so `result` answers `next` with action
    /// `reprove`): a new run of its session and crash starts from its minimal path and
    /// proves it on a device here. Never a path.
    #[serde(default)]
    pub reprove: Option<String>,
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

/// `whittle minimize --resume`'s options: the run goes on from its journal with what it
/// recorded; anything given must fit what it recorded.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResumeArgs {
    /// The evidence session of the run to go on with (a run `past_runs` lists with
    /// `resumable: true`). Never a path.
    pub evidence_session: String,
    /// Another device, when the recorded one is gone.
    #[serde(default)]
    pub device: Option<String>,
    /// Replay on up to this many devices at once, at least 1.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub devices: Option<u32>,
    /// Must be the recorded strategy when given.
    #[serde(default)]
    pub strategy: Option<SearchStrategy>,
    /// Must be the recorded budget when given; at least 1.
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub max_replays: Option<u32>,
    /// While another run holds the device, wait up to this many seconds for it.
    #[serde(default)]
    pub wait_device_seconds: Option<u32>,
}

/// `whittle minimize --all`'s options: every crash group not yet minimized, of the
/// workspace or of one session, each run as `minimize` runs it.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MinimizeAllArgs {
    /// Only this session's crash groups (its id, as `sessions` lists it); default: every
    /// recorded session of the workspace.
    #[serde(default)]
    pub session: Option<String>,
    /// Also run crash groups whose approved result still holds (default: skipped).
    #[serde(default)]
    pub include_minimized: bool,
    /// Every item's replay budget, at least 1 (default 30).
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub max_replays: Option<u32>,
    /// Run every item on this device (default: side by side, one item on each online
    /// device that has its app).
    #[serde(default)]
    pub device: Option<String>,
    /// Each item replays on up to this many devices at once, at least 1 (default 1).
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub devices: Option<u32>,
    /// The search of every item: `seed` (default), `binary` or `flaky`.
    #[serde(default)]
    pub strategy: Option<SearchStrategy>,
    /// Replay each item's full path up to this many times until it reproduces, at least
    /// 1 (default 1).
    #[serde(default)]
    #[schemars(range(min = 1))]
    pub baseline_tries: Option<u32>,
    /// While another run holds a device, wait up to this many seconds for it.
    #[serde(default)]
    pub wait_device_seconds: Option<u32>,
}

/// The kind of flow file `import` reads.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FlowKind {
    /// A Maestro flow (YAML).
    Maestro,
    /// A Firebase Robo script (JSON).
    Robo,
}

/// `whittle import maestro|robo FILE [--record]`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportArgs {
    pub format: FlowKind,
    /// The flow file, by its absolute path.
    pub file: String,
    /// The session's name (one plain name; default: from the file).
    #[serde(default)]
    pub name: Option<String>,
    /// The app's package (a Robo script never names it).
    #[serde(default)]
    pub package: Option<String>,
    /// A Maestro flow's variables (`-e NAME=value`), at most 100.
    #[serde(default)]
    #[schemars(length(max = 100))]
    pub variables: std::collections::BTreeMap<String, String>,
    /// Values to treat as private: never stored, whatever their field; at most 100.
    #[serde(default)]
    #[schemars(length(max = 100))]
    pub private_values: Vec<String>,
    /// Replay the flow once on a device and record the crashes it causes (default:
    /// import only). The flow, the servers, the device and the app are checked first: a
    /// refusal among them imports nothing.
    #[serde(default)]
    pub record: bool,
    /// The device to record on (default: the only online Android device).
    #[serde(default)]
    pub device: Option<String>,
}

/// The most replays one `verify` call makes.
pub const MAX_VERIFY_RUNS: u32 = 50;

/// `whittle verify BUNDLE [--runs N] [--device D]`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VerifyArgs {
    /// The bundle's folder, as `export` answered it (`bundle_dir`): under the workspace's
    /// `exports` folder or a folder of the config's `export.allowed_folders`.
    pub bundle: String,
    /// How many times to replay the minimal path, 1 to 50 (default 3).
    #[serde(default)]
    #[schemars(range(min = 1, max = 50))]
    pub runs: Option<u32>,
    /// The device to replay on (default: the only online Android device).
    #[serde(default)]
    pub device: Option<String>,
}

/// `whittle doctor [--package PKG]`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DoctorArgs {
    /// Also check that this app is installed (non-system) on every Android device.
    #[serde(default)]
    pub package: Option<String>,
}

/// One archived picture of an evidence session.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScreenshotArgs {
    /// The evidence session's id (as `past_runs` and `minimize` name it). Never a path.
    pub evidence_session: String,
    /// The attempt whose screenshot to show (`pictures[].attempt` of `result`).
    #[schemars(range(max = 999_999))]
    pub attempt: u32,
    /// A frame of the filmstrip that attempt took (1 = after the launch) instead of its
    /// screenshot.
    #[serde(default)]
    #[schemars(range(min = 1, max = 999_999))]
    pub frame: Option<u32>,
}
