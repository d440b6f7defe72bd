use std::time::Duration;

use whittle_core::plan::{ReplayAction, ReplayStep};

use super::observe::{NoObserver, ReplayObserver};
use super::wait::settle;
use super::{
    drain_crashes, stack_excerpt, DrainLimits, MissReason, ObservedCrash, ReplayContext,
    ReplayError, ReplayVerdict,
};
use crate::client::{Hub, McpError, McpErrorKind};

/// How long to wait for the launch anchor (seed: `timeout_ms=5000`).
pub const LAUNCH_ANCHOR_TIMEOUT_MS: u32 = 5000;

/// Where the actions stopped early, and why.
struct ActionFailure {
    reason: MissReason,
    step: u32,
}

/// Phase 4 (docs/design.md §13): terminate → clear_logs → launch → (anchor) → actions → settle →
/// bounded drain → compare every crash. `steps` are the candidate's plan steps in order.
pub async fn replay(
    hub: &Hub,
    ctx: &ReplayContext,
    steps: &[&ReplayStep],
) -> Result<ReplayVerdict, ReplayError> {
    replay_observed(hub, ctx, steps, &mut NoObserver).await
}

/// [`replay`], with `observer` looking at the device after the launch and after each
/// action (see `observe`).
pub async fn replay_observed<O: ReplayObserver + Send>(
    hub: &Hub,
    ctx: &ReplayContext,
    steps: &[&ReplayStep],
    observer: &mut O,
) -> Result<ReplayVerdict, ReplayError> {
    let device = ctx.device.as_str();
    let package = ctx.package.as_str();
    hub.mobile()
        .terminate_app(device, package)
        .await
        .map_err(ReplayError::mcp(None))?;
    hub.log()
        .clear_logs(device)
        .await
        .map_err(ReplayError::mcp(None))?;
    launch(hub, ctx).await.map_err(ReplayError::mcp(None))?;

    observer.after_launch().await;
    let failure = run_actions(hub, ctx, steps, observer).await?;

    // Actions that succeeded before a failure may still trigger a delayed crash, so the
    // drain always runs. The settle may end early on a stable screen: a crash that lands
    // later is still in the drain's window (its first round now, the second at least
    // one drain interval later), which is what catches delayed crashes in both modes.
    pace(hub, ctx, ctx.timing.settle_ms).await;
    let log = hub.log();
    let crashes = drain_crashes(
        || log.get_recent_crashes(device, Some(package)),
        DrainLimits::seed(ctx.timing.drain_interval_ms),
    )
    .await?;

    if crashes.is_empty() {
        return Ok(match failure {
            Some(f) => ReplayVerdict::missed(f.reason, Some(f.step), Vec::new()),
            None => ReplayVerdict::missed(MissReason::NoCrash, None, Vec::new()),
        });
    }
    // Every crash is compared: the target need not be the first one drained.
    let mut observed = Vec::with_capacity(crashes.len());
    for crash in &crashes {
        let signature = hub
            .analyzer()
            .compute_signature(&crash.stack, Some(crash.kind))
            .await
            .map_err(ReplayError::mcp(None))?;
        let is_target = ctx.target.matches(crash.kind, &crash.process, &signature);
        observed.push(ObservedCrash {
            fingerprint: signature.fingerprint.clone(),
            label: signature.label.clone(),
            kind: crash.kind,
            process: crash.process.clone(),
            is_target,
            stack: stack_excerpt(&crash.stack),
        });
        if is_target {
            return Ok(ReplayVerdict::reproduced(
                signature.fingerprint.filter(|_| ctx.target.is_reliable()),
                Some(signature.label),
                observed,
            ));
        }
    }
    Ok(match failure {
        Some(f) => ReplayVerdict::missed(f.reason, Some(f.step), observed),
        None => ReplayVerdict::missed(MissReason::DifferentCrash, None, observed),
    })
}

async fn run_actions<O: ReplayObserver + Send>(
    hub: &Hub,
    ctx: &ReplayContext,
    steps: &[&ReplayStep],
    observer: &mut O,
) -> Result<Option<ActionFailure>, ReplayError> {
    let device = ctx.device.as_str();
    for (i, step) in steps.iter().enumerate() {
        if i > 0 {
            pace(hub, ctx, ctx.timing.action_pause_ms).await;
        }
        observer.before_action(step.index).await;
        let at = Some(step.index);
        let ok = match &step.action {
            ReplayAction::PressButton { button } => {
                expected_refusal(hub.mobile().press_button(device, button).await)
                    .map_err(ReplayError::mcp(at))?
            }
            ReplayAction::Tap { strategy } | ReplayAction::LongPress { strategy } => {
                let strategies = std::slice::from_ref(strategy);
                let settle = ctx.timing.tap_settle_ms();
                let ui = hub.ui();
                let tapped = match &step.action {
                    ReplayAction::LongPress { .. } => {
                        ui.long_press_element(device, strategies, settle).await
                    }
                    _ => ui.tap_element(device, strategies, settle).await,
                }
                .map_err(ReplayError::mcp(at))?;
                if !tapped.tapped {
                    return Ok(Some(ActionFailure {
                        reason: MissReason::ElementNotFound,
                        step: step.index,
                    }));
                }
                true
            }
            ReplayAction::Relaunch { stop_app } => {
                relaunch(hub, ctx, *stop_app)
                    .await
                    .map_err(ReplayError::mcp(at))?;
                true
            }
            ReplayAction::InputText { strategy, value } => {
                hub.ui()
                    .input_text(device, std::slice::from_ref(strategy), value.expose())
                    .await
                    .map_err(ReplayError::mcp(at))?
                    .ok
            }
        };
        if !ok {
            return Ok(Some(ActionFailure {
                reason: MissReason::ActionFailed,
                step: step.index,
            }));
        }
        observer.after_action(step.index).await;
    }
    Ok(None)
}

/// Launches the app and waits for the launch anchor when one is known. A missing anchor
/// is not fatal: the actions will then fail as "element not found", which is an
/// ordinary negative, and a launch crash still drains.
async fn launch(hub: &Hub, ctx: &ReplayContext) -> Result<(), McpError> {
    let device = ctx.device.as_str();
    hub.mobile().launch_app(device, &ctx.package).await?;
    if let Some(anchor) = &ctx.launch_anchor {
        hub.ui()
            .wait_for_element(
                device,
                std::slice::from_ref(anchor),
                LAUNCH_ANCHOR_TIMEOUT_MS,
            )
            .await?;
    }
    Ok(())
}

/// A relaunch mid-path: the app stopped (unless `stop_app` is false), then launched as
/// the replay's own launch is.
async fn relaunch(hub: &Hub, ctx: &ReplayContext, stop_app: bool) -> Result<(), McpError> {
    if stop_app {
        hub.mobile()
            .terminate_app(&ctx.device, &ctx.package)
            .await?;
    }
    launch(hub, ctx).await
}

/// A tool that answered `isError` for an action is an action that failed (the device
/// refused it); a timeout or a vanished server is not something a replay can judge.
fn expected_refusal(result: Result<(), McpError>) -> Result<bool, McpError> {
    match result {
        Ok(()) => Ok(true),
        Err(McpError {
            kind: McpErrorKind::ToolError(_),
            ..
        }) => Ok(false),
        Err(e) => Err(e),
    }
}

/// Waits up to `bound_ms` as `ctx.timing.wait` says (evidence or the seed's sleep).
async fn pace(hub: &Hub, ctx: &ReplayContext, bound_ms: u32) {
    let ms = |v: u32| Duration::from_millis(u64::from(v));
    let started = std::time::Instant::now();
    let settled = settle(
        ctx.timing.wait,
        ms(bound_ms),
        ms(ctx.timing.poll_ms),
        || hub.ui().get_hierarchy(&ctx.device),
    )
    .await;
    tracing::debug!(
        ?settled,
        bound_ms,
        took_ms = started.elapsed().as_millis() as u64,
        "settled"
    );
}
