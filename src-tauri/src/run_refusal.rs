//! Why a run was refused before its evidence existed, as data the window can act on:
//! one tagged case per [`RunError`], carrying what the user can choose from (the online
//! devices, the session's crashes) so the window offers that choice instead of a
//! sentence to act on by hand.

use serde::Serialize;
use whittle_contract::analyzer::CrashGroup;
use whittle_contract::mobile::Device;
use whittle_service::run::RunError;

/// One refusal; the UI switches on `kind`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RunRefusal {
    /// A value of the request is out of range (budget, pool size, baseline tries).
    InvalidArgument { detail: String },
    /// The session cannot be found or read, or its plan cannot be built.
    SessionUnusable { detail: String },
    /// The session recorded no crash.
    NoCrash,
    /// The session has several distinct crashes and the run needs one of them.
    NeedsCrash { crashes: Vec<CrashChoice> },
    /// The crash asked for is not among the session's crashes.
    CrashNotFound {
        crash_id: String,
        crashes: Vec<CrashChoice>,
    },
    /// No online Android device.
    NoDevice,
    /// Several online Android devices and none was named.
    NeedsDevice { devices: Vec<DeviceChoice> },
    /// The device asked for is not online (or is ambiguous across lab hosts).
    DeviceNotFound {
        device: String,
        devices: Vec<DeviceChoice>,
    },
    /// The app to replay is not the crashing process, or is not installed.
    NeedsPackage {
        package: Option<String>,
        process: String,
        detail: String,
    },
    /// A device server failed to answer.
    ServerFailed { detail: String },
    /// The user cancelled before the run began.
    Cancelled,
    /// The interrupted run cannot go on (changed, finished, held, unreadable).
    ResumeRefused { detail: String },
}

/// A device the user can pick to run on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
pub struct DeviceChoice {
    pub id: String,
    /// The model as the server names it; may be empty.
    pub name: String,
}

/// One distinct crash (a group of crash ids with one signature) the user can pick.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
pub struct CrashChoice {
    /// The session's crash ids in this group; the first is the one to run.
    pub crash_ids: Vec<String>,
    pub label: String,
}

impl RunRefusal {
    pub fn of(error: &RunError) -> RunRefusal {
        let detail = || error.to_string();
        match error {
            RunError::InvalidArgument(_) => RunRefusal::InvalidArgument { detail: detail() },
            RunError::Resolve(_) | RunError::Session(_) | RunError::Plan(_) => {
                RunRefusal::SessionUnusable { detail: detail() }
            }
            RunError::NoCrash { .. } => RunRefusal::NoCrash,
            RunError::NeedCrashChoice { groups, .. } => RunRefusal::NeedsCrash {
                crashes: crash_choices(groups),
            },
            RunError::UnknownCrash {
                crash_id, groups, ..
            } => RunRefusal::CrashNotFound {
                crash_id: crash_id.clone(),
                crashes: crash_choices(groups),
            },
            RunError::NoDevice => RunRefusal::NoDevice,
            RunError::NeedDeviceChoice { devices } => RunRefusal::NeedsDevice {
                devices: device_choices(devices),
            },
            RunError::DeviceNotFound { device, devices } => RunRefusal::DeviceNotFound {
                device: device.clone(),
                devices: device_choices(devices),
            },
            RunError::NeedPackageConfirmation {
                package,
                process,
                reason,
            } => RunRefusal::NeedsPackage {
                package: package.clone(),
                process: process.clone(),
                detail: reason.clone(),
            },
            RunError::Mcp(_) => RunRefusal::ServerFailed { detail: detail() },
            RunError::Cancelled => RunRefusal::Cancelled,
            RunError::Resume(_) => RunRefusal::ResumeRefused { detail: detail() },
        }
    }
}

fn device_choices(devices: &[Device]) -> Vec<DeviceChoice> {
    devices
        .iter()
        .map(|d| DeviceChoice {
            id: d.id.clone(),
            name: d.name.clone(),
        })
        .collect()
}

fn crash_choices(groups: &[CrashGroup]) -> Vec<CrashChoice> {
    groups
        .iter()
        .filter(|g| !g.crash_ids.is_empty())
        .map(|g| CrashChoice {
            crash_ids: g.crash_ids.clone(),
            label: g.label.clone(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(ids: &[&str], label: &str) -> CrashGroup {
        serde_json::from_value(serde_json::json!({
            "fingerprint": null, "label": label, "kind": "java", "process": "com.example.shop",
            "crash_ids": ids, "step_index": 3, "repro_path": [1, 2, 3]
        }))
        .unwrap()
    }

    fn device(id: &str) -> Device {
        serde_json::from_value(
            serde_json::json!({ "id": id, "name": "Pixel", "platform": "android" }),
        )
        .unwrap()
    }

    #[test]
    fn a_crash_choice_lists_the_session_crashes() {
        let groups = vec![
            group(&["c1", "c3"], "NullPointerException in Checkout"),
            group(&[], "no ids: nothing to run"),
            group(&["c2"], "ANR in Cart"),
        ];
        let refusal = RunRefusal::of(&RunError::UnknownCrash {
            session: "s".into(),
            crash_id: "c9".into(),
            groups: groups.clone(),
        });
        let crashes = vec![
            CrashChoice {
                crash_ids: vec!["c1".into(), "c3".into()],
                label: "NullPointerException in Checkout".into(),
            },
            CrashChoice {
                crash_ids: vec!["c2".into()],
                label: "ANR in Cart".into(),
            },
        ];
        assert_eq!(
            refusal,
            RunRefusal::CrashNotFound {
                crash_id: "c9".into(),
                crashes: crashes.clone(),
            }
        );
        let needs = RunRefusal::of(&RunError::NeedCrashChoice {
            session: "s".into(),
            groups,
        });
        assert_eq!(needs, RunRefusal::NeedsCrash { crashes });
    }

    #[test]
    fn a_missing_device_lists_the_online_ones() {
        let refusal = RunRefusal::of(&RunError::DeviceNotFound {
            device: "sim-1".into(),
            devices: vec![device("labA/sim-1"), device("labB/sim-1")],
        });
        let json = serde_json::to_value(&refusal).unwrap();
        assert_eq!(json["kind"], "device_not_found");
        assert_eq!(json["device"], "sim-1");
        assert_eq!(json["devices"][1]["id"], "labB/sim-1");
    }

    #[test]
    fn refusals_without_a_choice_keep_their_detail() {
        let bad = RunRefusal::of(&RunError::InvalidArgument(
            "max replays 0 must be >= 1".into(),
        ));
        assert_eq!(
            bad,
            RunRefusal::InvalidArgument {
                detail: "invalid argument: max replays 0 must be >= 1".into()
            }
        );
        let package = RunRefusal::of(&RunError::NeedPackageConfirmation {
            package: Some("com.example.shop".into()),
            process: "com.example.shop:remote".into(),
            reason: "not the crashing process".into(),
        });
        assert_eq!(
            serde_json::to_value(package).unwrap(),
            serde_json::json!({
                "kind": "needs_package",
                "package": "com.example.shop",
                "process": "com.example.shop:remote",
                "detail": "not the crashing process",
            })
        );
        assert_eq!(RunRefusal::of(&RunError::Cancelled), RunRefusal::Cancelled);
    }
}
