//! What the first screen says about the app's setup: where its config is, whether this
//! start created it (first run), and where the logs go.

use serde::Serialize;
use whittle_service::api::PrivacyLevel;

use crate::state::AppState;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
pub struct SetupView {
    /// The `whittle.json` runs use; `None` when there is none (runs are refused).
    pub config_path: Option<String>,
    /// Set on an installed app's first run: where the demo workspace was copied.
    pub first_run_demo: Option<String>,
    /// Why the first-run setup failed, when it did.
    pub problem: Option<String>,
    pub log_dir: Option<String>,
    /// The config's device roles use the bundled simulator.
    pub simulator: bool,
    /// The screenshot privacy level runs use; `None` without a config that loads.
    pub privacy_level: Option<PrivacyLevel>,
}

pub fn view(state: &AppState) -> SetupView {
    let show = |p: &std::path::Path| p.display().to_string();
    let simulator = state
        .config_path
        .as_deref()
        .and_then(|p| whittle_service::api::Config::load(p).ok())
        .is_some_and(|c| whittle_service::api::uses_simulator(&c));
    SetupView {
        config_path: state.config_path.as_deref().map(show),
        first_run_demo: state.setup.first_run.as_ref().map(|f| show(&f.demo)),
        problem: state.setup.problem.clone(),
        log_dir: state.log_dir.as_deref().map(show),
        simulator,
        privacy_level: whittle_service::api::privacy_level(state.config_path.as_deref()),
    }
}
