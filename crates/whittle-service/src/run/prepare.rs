//! Phases 0 and 1 (docs/design.md §13): everything is resolved and checked before any side effect.
//! Session meta is untrusted: the device and package it names are re-checked against
//! what the device reports.

use std::collections::BTreeMap;

use whittle_contract::analyzer::{CrashGroup, StaticSuggestion};
use whittle_contract::mobile::Device;
use whittle_core::assessment::IdentityQuality;
use whittle_core::model::{app_of_process, runs_in_app, Crash};
use whittle_core::plan::{build_plan, ReplayPlan};
use whittle_core::session::{load_session, resolve_session_dir, Session};
use whittle_core::strategy::{SearchOptions, SearchStrategy};

use super::device_claim::{
    check_tools, claim_device, claim_pool_device, lab_holder, needed_tools, NeededTool,
};
use super::{RunError, RunNotice, RunSpec};
use crate::client::Hub;
use crate::config::Config;
use crate::device_lease::{DeviceLease, DeviceLeases};
use crate::replay::{DegradedIdentity, ReplayContext, TargetIdentity};

/// A run that may replay live.
#[derive(Debug, Clone)]
pub struct LiveRun {
    pub session: Session,
    pub session_id: String,
    pub crash: Crash,
    pub plan: ReplayPlan,
    pub ctx: ReplayContext,
    pub identity: IdentityQuality,
    pub target_label: String,
    pub app_version: Option<String>,
    /// The device's model and Android version as the mobile role lists them.
    pub device_name: Option<String>,
    pub os_version: Option<String>,
    pub max_replays: u32,
    pub strategy: SearchStrategy,
    /// Baseline tries (the seed's single try unless the user opts in to more).
    pub search_options: SearchOptions,
    /// The devices replays run on at once: `ctx.device` first, then extra online
    /// Android devices with the app installed (only `ctx.device` when `--devices 1`).
    pub pool: Vec<String>,
    /// Why the pool is smaller than asked, if it is.
    pub pool_warnings: Vec<RunNotice>,
    /// Each pool device's lab host, when the device roles span several servers
    /// (empty otherwise): evidence names server and device.
    pub pool_servers: BTreeMap<String, String>,
    /// The pool's devices, held for this run until its last copy is dropped.
    pub leases: DeviceLeases,
    /// The run this one re-proves, whose minimal path the plan's candidates are.
    pub reproves: Option<String>,
    /// When the run started (RFC 3339): now for a new run, its journal's for a resumed
    /// one. An approval made after it is newer than this run's result (`is_newer`).
    pub started_at: String,
}

impl LiveRun {
    /// A fresh engine for this run: its strategy over its replayable steps, with its
    /// budget and baseline tries (the same for a new run and a resumed one).
    pub(crate) fn engine(
        &self,
    ) -> Result<Box<dyn whittle_core::strategy::Reducer + Send>, RunError> {
        self.strategy
            .reducer_with(
                self.plan.candidate_ids(),
                self.max_replays,
                self.search_options,
            )
            .map_err(|e| RunError::InvalidArgument(e.to_string()))
    }
}

/// A run that may not replay live: the analyzer's static guess, and why.
#[derive(Debug, Clone)]
pub struct StaticRun {
    pub session_id: String,
    pub crash: Crash,
    pub reason: String,
    pub suggestion: StaticSuggestion,
}

#[derive(Debug, Clone)]
pub enum Prepared {
    Live(Box<LiveRun>),
    Static(Box<StaticRun>),
}

pub async fn prepare(hub: &Hub, config: &Config, opts: &RunSpec) -> Result<Prepared, RunError> {
    let max_replays = opts.max_replays.get();
    check_package_argument(opts.package.as_deref())?;
    let pool_size = opts.pool_size();
    let dir = resolve_session_dir(&config.workspace, &opts.session)?;
    let session = load_session(&dir)?;
    let session_id = dir
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(&session.meta.session_id)
        .to_string();
    let dir_text = dir.to_string_lossy().to_string();

    let analysis = hub.analyzer().analyze_session(&dir_text).await?;
    let group = choose_group(&session_id, &analysis.groups, opts.crash.as_deref())?;
    let crash_id = opts
        .crash
        .clone()
        .or_else(|| group.crash_ids.first().cloned());
    let crash = crash_id
        .as_deref()
        .and_then(|id| session.crash(id))
        .cloned()
        .ok_or_else(|| RunError::UnknownCrash {
            session: session_id.clone(),
            crash_id: crash_id.clone().unwrap_or_default(),
            groups: analysis.groups.clone(),
        })?;

    let signature = hub
        .analyzer()
        .compute_signature(&crash.stack, Some(crash.kind))
        .await?;
    let target_label = signature.label.clone();
    let reliable = signature.stable && signature.fingerprint.is_some();
    let target = match (&signature.fingerprint, reliable) {
        (Some(fp), true) => Some(TargetIdentity::Fingerprint {
            fingerprint: fp.clone(),
        }),
        _ => DegradedIdentity::build(crash.kind, &crash.process, &signature)
            .map(|identity| TargetIdentity::Degraded { identity }),
    };
    let static_run = |reason: String| async {
        let suggestion = hub
            .analyzer()
            .suggest_minimal_path(&dir_text, &crash.crash_id)
            .await?;
        Ok::<_, RunError>(Prepared::Static(Box::new(StaticRun {
            session_id: session_id.clone(),
            crash: crash.clone(),
            reason,
            suggestion,
        })))
    };
    let Some(target) = target else {
        return static_run(
            "the analyzer could build neither a stable fingerprint nor an exact identity for this crash".into(),
        )
        .await;
    };
    if !session.meta.platform.eq_ignore_ascii_case("android") {
        return static_run(format!(
            "the session's platform is {:?}, and live replay supports Android only",
            session.meta.platform
        ))
        .await;
    }
    let plan = build_plan(&session.steps, &crash.repro_path)?;
    // The API checked the path against the crash's before (`api/reproof.rs`); the
    // session may have changed since.
    let plan = match &opts.reprove {
        Some(reproof) => plan
            .starting_from(&reproof.path)
            .map_err(|e| RunError::InvalidArgument(e.to_string()))?,
        None => plan,
    };
    if !plan.coverage.allows_live_run() {
        return static_run(format!(
            "only {} of {} actions have enough replay data (at least half are needed)",
            plan.coverage.replayable, plan.coverage.non_launch
        ))
        .await;
    }

    let chosen = choose_device_listed(
        hub,
        session.meta.device_id.as_deref(),
        opts.device.as_deref(),
        opts.package.as_deref().or(session.meta.package.as_deref()),
    )
    .await?;
    let device = chosen.id.clone();
    let device_name = Some(chosen.name).filter(|n| !n.trim().is_empty() && *n != device);
    let os_version = chosen.version.filter(|v| !v.trim().is_empty());
    let needed = needed_tools(&plan.replayable);
    check_tools(hub, &device, &needed)?;
    let purpose = format!("minimize {session_id}");
    let lease = claim_device(hub, &device, &purpose, opts.wait_device).await?;
    let (package, app_version) =
        confirm_package(hub, &device, &session, &crash, opts.package.as_deref()).await?;
    let extra = PoolClaim {
        primary: &device,
        package: &package,
        size: pool_size,
        needed: &needed,
        purpose: &purpose,
    };
    let (pool, pool_warnings, leases) = choose_pool(hub, lease, &extra).await?;
    let pool_servers = pool
        .iter()
        .filter_map(|d| hub.device_route(d).map(|r| (d.clone(), r.server)))
        .collect();
    let identity = IdentityQuality {
        fingerprint_reliable: target.is_reliable(),
        signature_degraded: !target.is_reliable(),
    };
    let ctx = ReplayContext {
        timing: config.timing_for(&device),
        device,
        package,
        launch_anchor: plan.launch_anchor.clone(),
        target,
    };
    Ok(Prepared::Live(Box::new(LiveRun {
        session,
        session_id,
        crash,
        plan,
        ctx,
        identity,
        target_label,
        app_version,
        device_name,
        os_version,
        max_replays,
        strategy: opts.strategy,
        search_options: opts.search_options(),
        pool,
        pool_warnings,
        pool_servers,
        leases: DeviceLeases::new(leases),
        reproves: opts.reprove.as_ref().map(|r| r.evidence_session.clone()),
        started_at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
    })))
}

/// What the extra devices of a pool must offer, and what their leases say.
struct PoolClaim<'a> {
    primary: &'a str,
    package: &'a str,
    size: usize,
    needed: &'a [NeededTool],
    purpose: &'a str,
}

/// The primary device plus up to `size - 1` other online Android devices on which
/// `package` is installed as a user app and that no other run holds, in the order the
/// mobile role lists them, with their leases. Fewer than asked is a warning, not a
/// refusal: one device is a valid pool.
async fn choose_pool(
    hub: &Hub,
    primary: DeviceLease,
    claim: &PoolClaim<'_>,
) -> Result<(Vec<String>, Vec<RunNotice>, Vec<DeviceLease>), RunError> {
    let PoolClaim {
        package,
        size,
        needed,
        purpose,
        ..
    } = *claim;
    let mut pool = vec![claim.primary.to_owned()];
    let mut leases = vec![primary];
    let mut warnings = Vec::new();
    if size <= 1 {
        return Ok((pool, warnings, leases));
    }
    let devices = hub.mobile().list_devices().await?.devices;
    for device in devices.iter().filter(|d| is_online_android(d)) {
        if pool.len() >= size {
            break;
        }
        if pool.contains(&device.id) {
            continue;
        }
        // A device that cannot list its apps is left out, not fatal: the pool is optional.
        let installed = match hub.mobile().list_apps(&device.id).await {
            Ok(list) => list.apps.iter().any(|a| a.package == package && !a.system),
            // Held by another session of its lab host: said, like a device held here.
            Err(e) => {
                match lab_holder(&e) {
                    Some(holder) => warnings.push(RunNotice::PoolDeviceBusy {
                        device: device.id.clone(),
                        holder,
                    }),
                    None => {
                        tracing::warn!(device = %device.id, error = %e, "device left out of the pool")
                    }
                }
                false
            }
        };
        if !installed {
            continue;
        }
        match claim_pool_device(hub, &device.id, purpose, needed) {
            Ok(lease) => {
                pool.push(device.id.clone());
                leases.push(lease);
            }
            Err(notice) => warnings.push(notice),
        }
    }
    if pool.len() < size {
        warnings.push(RunNotice::PoolSmaller {
            asked: u32::try_from(size).unwrap_or(u32::MAX),
            package: package.to_string(),
            devices: pool.clone(),
        });
    }
    Ok((pool, warnings, leases))
}

fn choose_group<'a>(
    session: &str,
    groups: &'a [CrashGroup],
    crash: Option<&str>,
) -> Result<&'a CrashGroup, RunError> {
    match (groups, crash) {
        ([], _) => Err(RunError::NoCrash {
            session: session.into(),
        }),
        (_, Some(id)) => groups
            .iter()
            .find(|g| g.crash_ids.iter().any(|c| c == id))
            .ok_or_else(|| RunError::UnknownCrash {
                session: session.into(),
                crash_id: id.into(),
                groups: groups.to_vec(),
            }),
        ([only], None) => Ok(only),
        (_, None) => Err(RunError::NeedCrashChoice {
            session: session.into(),
            groups: groups.to_vec(),
        }),
    }
}

pub(crate) fn is_online_android(d: &Device) -> bool {
    d.platform.eq_ignore_ascii_case("android")
        && matches!(
            d.state.to_ascii_lowercase().as_str(),
            "online" | "device" | "booted" | ""
        )
}

/// The one rule for the device a replay runs on (minimize, `import --record`, verify;
/// docs/design.md §13 step 5): the user's explicit `--device` wins; else the session's
/// device if it is connected; else the only online Android device; else, of several,
/// the first the mobile role lists with `package` installed as a user app (as the pool
/// adds devices, `choose_pool`). In a pool across lab hosts a device may be named by
/// its pool id (`labA/sim-1`) or by the id its host knows, when that is unique.
pub(crate) async fn choose_device(
    hub: &Hub,
    meta_device: Option<&str>,
    chosen: Option<&str>,
    package: Option<&str>,
) -> Result<String, RunError> {
    Ok(choose_device_listed(hub, meta_device, chosen, package)
        .await?
        .id)
}

/// [`choose_device`], with the device as the mobile role lists it (model, version).
async fn choose_device_listed(
    hub: &Hub,
    meta_device: Option<&str>,
    chosen: Option<&str>,
    package: Option<&str>,
) -> Result<Device, RunError> {
    let devices: Vec<Device> = hub
        .mobile()
        .list_devices()
        .await?
        .devices
        .into_iter()
        .filter(is_online_android)
        .collect();
    let find = |id: &str| devices.iter().find(|d| d.id == id).cloned();
    // In a pool across lab hosts an id two hosts share is listed qualified
    // (`labA/sim-1`); the id as the session or the user wrote it still finds it.
    let qualified = |raw: &str| -> Vec<Device> {
        hub.pool_ids_for(raw)
            .iter()
            .filter_map(|id| find(id))
            .collect()
    };
    if let Some(id) = chosen {
        if let Some(device) = find(id) {
            return Ok(device);
        }
        // An id several hosts list is ambiguous: the refusal lists the qualified ids.
        let mut matches = qualified(id);
        return match matches.len() {
            1 => Ok(matches.remove(0)),
            _ => Err(RunError::DeviceNotFound {
                device: id.into(),
                devices,
            }),
        };
    }
    if let Some(id) = meta_device {
        if let Some(device) = find(id) {
            return Ok(device);
        }
        // The recorded device on the first host (in the roles' order) that lists it.
        if let Some(first) = qualified(id).into_iter().next() {
            return Ok(first);
        }
    }
    match devices.as_slice() {
        [] => Err(RunError::NoDevice),
        [only] => Ok(only.clone()),
        _ => match first_with_app(hub, &devices, package).await {
            Some(device) => Ok(device),
            None => Err(RunError::NeedDeviceChoice { devices }),
        },
    }
}

/// The first of `devices` with `package` installed as a user app; `None` without a
/// package, or when no device has it (the user then chooses, and hears why).
async fn first_with_app(hub: &Hub, devices: &[Device], package: Option<&str>) -> Option<Device> {
    let package = package.filter(|p| !p.trim().is_empty())?;
    for device in devices {
        // A device that cannot list its apps is passed over, as the pool does.
        match hub.mobile().list_apps(&device.id).await {
            Ok(list) if list.apps.iter().any(|a| a.package == package && !a.system) => {
                return Some(device.clone());
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(device = %device.id, error = %e, "device passed over"),
        }
    }
    None
}

/// `--package` names the app; one of its processes (`com.acme.notes:sync`, as a crash
/// names it) is refused before anything runs, with the package to pass instead.
fn check_package_argument(chosen: Option<&str>) -> Result<(), RunError> {
    match chosen {
        Some(process) if app_of_process(process) != process => Err(RunError::ProcessNotPackage {
            process: process.to_owned(),
            package: app_of_process(process).to_owned(),
        }),
        _ => Ok(()),
    }
}

/// The package must be the crash's process and an installed, non-system app; returns
/// it with the installed version.
async fn confirm_package(
    hub: &Hub,
    device: &str,
    session: &Session,
    crash: &Crash,
    chosen: Option<&str>,
) -> Result<(String, Option<String>), RunError> {
    let package = chosen
        .map(str::to_string)
        .or_else(|| session.meta.package.clone());
    let refuse = |reason: String| RunError::NeedPackageConfirmation {
        package: package.clone(),
        process: crash.process.clone(),
        reason,
    };
    let Some(pkg) = package.clone().filter(|p| !p.is_empty()) else {
        return Err(refuse(
            "the session names no package; give the app's package".into(),
        ));
    };
    // A crash in one of the app's `:suffix` processes is the app's crash; the package
    // names the app to launch and replay.
    if !runs_in_app(&crash.process, &pkg) {
        return Err(refuse(format!(
            "the crashing process {:?} is not one of {pkg:?}'s processes",
            crash.process
        )));
    }
    let apps = hub.mobile().list_apps(device).await?.apps;
    match apps.iter().find(|a| a.package == pkg) {
        None => Err(refuse(format!("{pkg} is not installed on {device}"))),
        Some(app) if app.system => Err(refuse(format!(
            "{pkg} is a system app; Whittle replays only user apps"
        ))),
        Some(app) => Ok((
            pkg,
            version_text(app.version_name.as_deref(), app.version_code),
        )),
    }
}

/// An installed app's version as a result records it: `2.3.0 (230)`.
pub(crate) fn version_text(name: Option<&str>, code: Option<u32>) -> Option<String> {
    match (name, code) {
        (Some(n), Some(c)) => Some(format!("{n} ({c})")),
        (Some(n), None) => Some(n.to_owned()),
        (None, Some(c)) => Some(c.to_string()),
        (None, None) => None,
    }
}
