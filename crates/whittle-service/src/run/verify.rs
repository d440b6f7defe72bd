//! `whittle verify`: replay an exported bundle's minimal path N times on a device whose
//! app identity matches the bundle, and count how often the target crash reproduces.

use std::path::Path;

use serde::Serialize;
use tokio_util::sync::CancellationToken;
use whittle_core::plan::{ActionKind, ReplayAction, ReplayStep};
use whittle_core::redact::Redacted;

use super::device_claim::{check_tools, claim_device, needed_tools};
use super::prepare::choose_device;
use super::{PlanEntry, RunError};
use crate::client::Hub;
use crate::config::Config;
use crate::export::{read_bundle, ExportError};
use crate::replay::{replay, ReplayContext, ReplayError, ReplayVerdict, TargetIdentity};

#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    #[error(transparent)]
    Bundle(#[from] ExportError),
    #[error("runs must be at least 1")]
    NoRuns,
    #[error("{0}")]
    Refused(String),
    #[error(transparent)]
    Run(#[from] RunError),
    #[error("replay {run}: {source}")]
    Replay {
        run: u32,
        #[source]
        source: ReplayError,
    },
    /// Cancelled (a signal to `whittle verify`): the replays that ended before it.
    #[error("cancelled after {replayed} replays ({reproduced} reproduced)")]
    Cancelled { replayed: u32, reproduced: u32 },
}

#[derive(Debug, Clone, Serialize)]
pub struct VerifyReport {
    pub package: String,
    pub app_version: Option<String>,
    pub device: String,
    pub target_fingerprint: String,
    pub reproduced: u32,
    pub runs: u32,
    pub verdicts: Vec<ReplayVerdict>,
}

pub async fn verify_bundle(
    hub: &Hub,
    config: &Config,
    bundle_dir: &Path,
    runs: u32,
    device: Option<&str>,
    cancel: &CancellationToken,
) -> Result<VerifyReport, VerifyError> {
    if runs == 0 {
        return Err(VerifyError::NoRuns);
    }
    let bundle = read_bundle(bundle_dir)?;
    let replay_file = bundle.replay;
    let Some(fingerprint) = replay_file.target_fingerprint.clone() else {
        return Err(VerifyError::Refused(
            "the bundle has no stable fingerprint, so a replay cannot be matched exactly".into(),
        ));
    };
    let mut steps = Vec::new();
    for step in &replay_file.steps {
        let entry: PlanEntry = serde_json::from_value(step.action.clone()).map_err(|e| {
            VerifyError::Refused(format!("step {} of replay.json: {e}", step.index))
        })?;
        if let Some(action) = to_action(&entry)? {
            steps.push(ReplayStep {
                index: entry.index,
                action,
            });
        }
    }

    let device = choose_device(hub, None, device, Some(&replay_file.package)).await?;
    check_tools(hub, &device, &needed_tools(&steps))?;
    let _lease = claim_device(hub, &device, "verify a bundle", None).await?;
    let apps = hub
        .mobile()
        .list_apps(&device)
        .await
        .map_err(RunError::from)?
        .apps;
    let installed = apps
        .iter()
        .find(|a| a.package == replay_file.package && !a.system);
    let Some(app) = installed else {
        return Err(VerifyError::Refused(format!(
            "{} is not installed on {device}",
            replay_file.package
        )));
    };
    let installed_version = match (&app.version_name, app.version_code) {
        (Some(n), Some(c)) => Some(format!("{n} ({c})")),
        (Some(n), None) => Some(n.clone()),
        (None, Some(c)) => Some(c.to_string()),
        (None, None) => None,
    };
    if replay_file.app_version.is_some() && installed_version != replay_file.app_version {
        return Err(VerifyError::Refused(format!(
            "app identity differs: bundle is {} {}, device has {}",
            replay_file.package,
            replay_file.app_version.as_deref().unwrap_or("?"),
            installed_version.as_deref().unwrap_or("an unknown version")
        )));
    }

    let ctx = ReplayContext {
        device: device.clone(),
        package: replay_file.package.clone(),
        launch_anchor: None,
        target: TargetIdentity::Fingerprint {
            fingerprint: fingerprint.clone(),
        },
        timing: config.timing_for(&device),
    };
    let refs: Vec<&ReplayStep> = steps.iter().collect();
    let mut verdicts: Vec<ReplayVerdict> = Vec::new();
    let reproduced =
        |verdicts: &[ReplayVerdict]| verdicts.iter().filter(|v| v.reproduced).count() as u32;
    for run in 1..=runs {
        // A cancel drops the replay in flight, as a recording's does; the lease and the
        // servers are still released by the caller.
        let verdict = tokio::select! {
            biased;
            () = cancel.cancelled() => None,
            verdict = replay(hub, &ctx, &refs) => Some(verdict),
        };
        let Some(verdict) = verdict else {
            return Err(VerifyError::Cancelled {
                replayed: run - 1,
                reproduced: reproduced(&verdicts),
            });
        };
        verdicts.push(verdict.map_err(|source| VerifyError::Replay { run, source })?);
    }
    Ok(VerifyReport {
        package: replay_file.package,
        app_version: replay_file.app_version,
        device,
        target_fingerprint: fingerprint,
        reproduced: reproduced(&verdicts),
        runs,
        verdicts,
    })
}

/// `None` for the launch setup (every replay launches).
fn to_action(entry: &PlanEntry) -> Result<Option<ReplayAction>, VerifyError> {
    let missing = |what: &str| VerifyError::Refused(format!("step {} has no {what}", entry.index));
    Ok(Some(match entry.action_type {
        ActionKind::Launch => return Ok(None),
        ActionKind::PressButton => ReplayAction::PressButton {
            button: entry.button.clone().ok_or_else(|| missing("button"))?,
        },
        ActionKind::Tap => ReplayAction::Tap {
            strategy: entry.strategy.clone().ok_or_else(|| missing("element"))?,
        },
        ActionKind::LongPress => ReplayAction::LongPress {
            strategy: entry.strategy.clone().ok_or_else(|| missing("element"))?,
        },
        ActionKind::Relaunch => ReplayAction::Relaunch {
            stop_app: entry.stop_app.unwrap_or(true),
        },
        ActionKind::InputText => {
            let value = entry
                .input_value
                .clone()
                .filter(|_| !entry.input_redacted)
                .ok_or_else(|| {
                    VerifyError::Refused(format!(
                        "step {} types a redacted value; it cannot be replayed from a bundle",
                        entry.index
                    ))
                })?;
            ReplayAction::InputText {
                strategy: entry.strategy.clone().ok_or_else(|| missing("element"))?,
                value: Redacted::new(value),
            }
        }
    }))
}
