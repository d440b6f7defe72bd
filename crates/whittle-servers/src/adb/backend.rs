//! The device operations behind the mobile and log tools, each a fixed adb argument
//! vector (the ui role's are in `ui_actions`). Only validated package names, integers
//! and `input_escape` words ever reach a device shell.

use whittle_contract::log::LogCrash;
use whittle_contract::mobile::{App, Device};

use super::buttons::key_code;
use super::capture::LogcatChild;
use super::crash_log::{belongs_to, crash_records};
use super::devices::parse_devices;
use super::error::AdbError;
use super::packages::{parse_package_list, parse_version};
use super::png::png_size;
use super::runner::Adb;
use super::validate;
use crate::device::capture::SharedCaptures;
use crate::device::Screenshot;

#[derive(Debug)]
pub struct Backend {
    pub(super) adb: Adb,
    /// `--serial`: the one device this server drives.
    pub(super) serial: Option<String>,
    /// uiautomator writes one dump file per device; two dumps at once would mix.
    pub(super) ui: tokio::sync::Mutex<()>,
    pub(super) captures: SharedCaptures<LogcatChild>,
}

impl Backend {
    pub fn new(adb: Adb, serial: Option<String>) -> Backend {
        Backend {
            adb,
            serial,
            ui: tokio::sync::Mutex::new(()),
            captures: SharedCaptures::default(),
        }
    }

    /// The serial to pass to `adb -s`, once proven inert and allowed.
    pub(super) fn device<'a>(&self, id: &'a str) -> Result<&'a str, AdbError> {
        let id = validate::serial(id)?;
        match &self.serial {
            Some(s) if s != id => Err(AdbError::OtherDevice {
                got: id.to_string(),
                serial: s.clone(),
            }),
            _ => Ok(id),
        }
    }

    pub(super) async fn list_devices(&self) -> Result<Vec<Device>, AdbError> {
        let out = self
            .adb
            .text(None, &["devices", "-l"], "listing devices")
            .await?;
        let mut devices = parse_devices(&out);
        if let Some(s) = &self.serial {
            devices.retain(|d| &d.id == s);
        }
        for device in devices.iter_mut().filter(|d| d.state == "online") {
            device.version = self.android_version(&device.id).await;
        }
        Ok(devices)
    }

    /// `ro.build.version.release` ("14"), for bug tickets. Optional: a device that does
    /// not answer is listed without it.
    async fn android_version(&self, id: &str) -> Option<String> {
        let serial = self.device(id).ok()?;
        let out = self
            .adb
            .text(
                Some(serial),
                &["shell", "getprop", "ro.build.version.release"],
                "reading the Android version",
            )
            .await
            .ok()?;
        let version = out.trim();
        // A release is short and printable ("14", "8.1.0"); anything else is not one.
        let plausible = !version.is_empty()
            && version.len() <= 16
            && version
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '.');
        plausible.then(|| version.to_string())
    }

    /// Versions are read for non-system apps only: one `dumpsys` per app, and system apps
    /// are never the app under test.
    pub(super) async fn list_apps(&self, dev: &str) -> Result<Vec<App>, AdbError> {
        let s = Some(self.device(dev)?);
        let all = self
            .adb
            .text(
                s,
                &["shell", "pm", "list", "packages", "-f"],
                "listing packages",
            )
            .await?;
        let system = self
            .adb
            .text(
                s,
                &["shell", "pm", "list", "packages", "-s"],
                "listing system packages",
            )
            .await?;
        let system = parse_package_list(&system);
        let mut apps = Vec::new();
        for package in parse_package_list(&all) {
            let is_system = system.contains(&package);
            let (version_name, version_code) = if is_system {
                (None, None)
            } else {
                let out = self
                    .adb
                    .text(
                        s,
                        &["shell", "dumpsys", "package", &package],
                        "reading an app version",
                    )
                    .await?;
                parse_version(&out)
            };
            apps.push(App {
                package,
                system: is_system,
                version_name,
                version_code,
            });
        }
        Ok(apps)
    }

    pub(super) async fn launch_app(&self, dev: &str, package: &str) -> Result<(), AdbError> {
        let s = Some(self.device(dev)?);
        let pkg = validate::package(package)?;
        let args = [
            "shell",
            "monkey",
            "-p",
            pkg,
            "-c",
            "android.intent.category.LAUNCHER",
            "1",
        ];
        let out = self.adb.text(s, &args, "launching the app").await?;
        // monkey exits 0 on some releases even when it found nothing to start.
        if out.contains("monkey aborted") || out.contains("No activities found") {
            return Err(AdbError::Launch {
                package: pkg.to_string(),
                detail: "no launcher activity (is the app installed?)".into(),
            });
        }
        Ok(())
    }

    pub(super) async fn force_stop(&self, dev: &str, package: &str) -> Result<(), AdbError> {
        let s = Some(self.device(dev)?);
        let pkg = validate::package(package)?;
        self.adb
            .run(s, &["shell", "am", "force-stop", pkg], "stopping the app")
            .await
            .map(drop)
    }

    pub(super) async fn key_event(&self, dev: &str, button: &str) -> Result<(), AdbError> {
        let s = Some(self.device(dev)?);
        let code = key_code(button).ok_or_else(|| AdbError::UnknownButton(button.into()))?;
        let code = code.to_string();
        self.adb
            .run(
                s,
                &["shell", "input", "keyevent", &code],
                "pressing a button",
            )
            .await
            .map(drop)
    }

    /// The screen as a PNG, checked and measured (the server writes it).
    pub(super) async fn screencap(&self, dev: &str) -> Result<Screenshot, AdbError> {
        let s = Some(self.device(dev)?);
        // exec-out, not shell: a pty would rewrite \n bytes inside the PNG.
        let png = self
            .adb
            .run(s, &["exec-out", "screencap", "-p"], "taking a screenshot")
            .await?;
        let (width, height) = png_size(&png).map_err(AdbError::NotPng)?;
        Ok(Screenshot { png, width, height })
    }

    /// Clears the crash buffer and the main and system buffers: ANR records
    /// (`ActivityManager`) live in `system`, so clearing only `crash` would report an old
    /// ANR again after every clear. A running capture keeps streaming; it has already read
    /// what is cleared.
    pub(super) async fn clear_buffers(&self, dev: &str) -> Result<(), AdbError> {
        let s = Some(self.device(dev)?);
        let args = ["logcat", "-c", "-b", "crash", "-b", "main", "-b", "system"];
        self.adb.run(s, &args, "clearing the logs").await.map(drop)
    }

    /// Java and native crashes from the crash buffer, then ANRs from ActivityManager,
    /// ordered by time; `package` keeps its own processes only.
    pub(super) async fn read_crashes(
        &self,
        dev: &str,
        package: Option<&str>,
    ) -> Result<Vec<LogCrash>, AdbError> {
        let s = Some(self.device(dev)?);
        let crash_args = ["logcat", "-b", "crash", "-d", "-v", "threadtime"];
        let crash_buffer = self
            .adb
            .text(s, &crash_args, "reading the crash log")
            .await?;
        let anr_args = ["logcat", "-d", "-v", "threadtime", "-s", "ActivityManager"];
        let anr_log = self.adb.text(s, &anr_args, "reading the ANR log").await?;
        let mut records = crash_records(&crash_buffer);
        for anr in crash_records(&anr_log) {
            if records.iter().all(|r| r.record_id != anr.record_id) {
                records.push(anr);
            }
        }
        if let Some(p) = package {
            records.retain(|r| belongs_to(r, p));
        }
        // threadtime stamps (MM-DD HH:MM:SS.mmm) sort as text within a year; stable sort
        // keeps log order for equal stamps.
        records.sort_by(|a, b| a.ts.cmp(&b.ts));
        Ok(records)
    }
}
