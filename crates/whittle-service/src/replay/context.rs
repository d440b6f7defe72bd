use whittle_contract::ui::Strategy;

use super::TargetIdentity;
use crate::config::Timing;

/// What every replay of one minimize run shares: where, which app, what to wait for
/// after launch, what counts as "the same crash", and the pacing.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayContext {
    pub device: String,
    pub package: String,
    pub launch_anchor: Option<Strategy>,
    pub target: TargetIdentity,
    pub timing: Timing,
}
