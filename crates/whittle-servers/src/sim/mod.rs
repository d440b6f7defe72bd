//! The simulated Android device (docs/design.md §6): a deterministic app model served as the
//! mobile, ui and log roles by one stdio MCP server, `whittle-servers sim --model FILE
//! [--devices N] [--seed S] [--fault KIND]...`. Devices `sim-1`..`sim-N` each run their
//! own instance of the app.
//!
//! Flaky crash rules (`probability` < 1) draw from a seed. Without `--seed` it comes from
//! the operating system's entropy, so every fresh simulator is a fresh run of a flaky
//! app, as a real device is; a fixed seed would replay the same outcomes in every run and
//! a baseline could miss a 60 % crash every time. The seed in use is logged at start and
//! written at the top of every log capture, so `--seed` can repeat a run's draws.
//!
//! Faults, for testing clients against a misbehaving backend (`--fault`, repeatable;
//! applied by `crate::device::FaultyBackend` around the simulator):
//! - `capture-dies-after=N`: a capture turns `failed` with reason "logcat process
//!   exited" once its device has seen N launches since the capture started.
//! - `hang=TOOL`: that tool never answers (the client must time out / cancel).
//! - `garbage=TOOL`: that tool answers with a text block that is not its contract shape.
//! - `oversize=TOOL`: that tool answers with a 17 MiB crash stack, more than one MCP
//!   message may carry (16 MiB in rmcp's transports).
//! - `exit-after-launches=N`: the server process exits (code 3) on the (N+1)th launch,
//!   counted over all devices.
//! - `device-gone-after-launches=N`: on the (N+1)th launch every device disappears (a
//!   pulled cable): none is listed, each call naming one fails, running captures fail.

mod backend;
mod condition;
mod device;
mod error;
#[cfg(test)]
mod first_replay_rate;
mod flaky;
mod logcat;
mod model;
mod render;
mod stack;
mod view;
mod world;

use std::path::PathBuf;
use std::sync::Arc;

pub use backend::SimBackend;
pub use error::{ActionError, ModelError, SimError};
pub use model::AppModel;

pub use crate::device::Fault;
use crate::device::{DeviceServer, Faults, FaultyBackend};

/// The simulator's MCP server: the device router over the simulator, faults around it.
pub type SimServer = DeviceServer<FaultyBackend<SimBackend>>;

impl SimServer {
    /// The seed of the flaky-crash draws.
    pub fn seed(&self) -> u64 {
        self.backend().inner().seed()
    }
}

/// More devices than this is a typo, not a test farm.
pub const MAX_DEVICES: u32 = 64;

#[derive(Debug, Clone, clap::Args)]
pub struct SimArgs {
    /// The app model (JSON, docs/design.md §6).
    #[arg(long)]
    pub model: PathBuf,
    /// How many devices (sim-1..sim-N).
    #[arg(long, default_value_t = 1)]
    pub devices: u32,
    /// Seed of the flaky-crash draws; the same seed gives the same sequence. Default: a
    /// fresh seed from the operating system's entropy.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Inject a fault (see the module docs); repeatable.
    #[arg(long = "fault", value_name = "KIND")]
    pub faults: Vec<Fault>,
}

/// Builds the server for `args` without serving it (also used by in-process callers).
pub fn build(args: &SimArgs) -> Result<SimServer, SimError> {
    if args.devices == 0 || args.devices > MAX_DEVICES {
        return Err(SimError::DeviceCount {
            got: args.devices,
            max: MAX_DEVICES,
        });
    }
    let model = Arc::new(AppModel::load(&args.model)?);
    let seed = args.seed.unwrap_or_else(flaky::entropy_seed);
    let captures = Arc::default();
    let world = world::World::new(model, args.devices, seed, Arc::clone(&captures));
    let faults = Faults::new(args.faults.clone());
    Ok(DeviceServer::new(FaultyBackend::new(
        SimBackend::new(world, captures),
        faults,
    )))
}

/// Serves the simulator on stdin/stdout until the client goes away.
pub async fn serve_stdio(args: SimArgs) -> Result<(), SimError> {
    let server = build(&args)?;
    let seed = server.seed();
    tracing::info!(
        model = %args.model.display(),
        devices = args.devices,
        seed,
        from = if args.seed.is_some() { "--seed" } else { "entropy" },
        "simulator ready; `--seed {seed}` repeats its flaky-crash draws"
    );
    server.serve_stdio().await.map_err(SimError::Serve)
}
