//! The device operations behind the mobile, ui and log tools, each a fixed adb argument
//! vector. Only validated package names, integers and `input_escape` words ever reach a
//! device shell.
use std::path::Path;
use std::time::Duration;

use whittle_core::contract::log::LogCrash;
use whittle_core::contract::mobile::{App, Device};
use whittle_core::contract::ui::{Strategy, UiElement};

use super::adb_keyboard;
use super::buttons::key_code;
use super::crash_log::{belongs_to, crash_records};
use super::devices::parse_devices;
use super::error::AdbError;
use super::hierarchy::{parse_dump_tree, DumpNode};
use super::input_escape::{input_text_words, Untypeable};
use super::packages::{parse_package_list, parse_version};
use super::png::png_size;
use super::runner::Adb;
use super::tap_target::find_tap_point;
use super::validate;

/// Where `uiautomator dump` writes; read back with `exec-out cat`.
const DUMP_PATH: &str = "/sdcard/window_dump.xml";
/// Dumps fail while the screen animates ("could not get idle state"); a short pause and a
/// retry usually lands after the animation.
const DUMP_ATTEMPTS: u32 = 3;
const DUMP_RETRY_PAUSE: Duration = Duration::from_millis(400);

/// Same reason strings as the simulator, so a client reads both alike.
pub const ELEMENT_NOT_FOUND: &str = "element_not_found";

#[derive(Debug, Clone)]
pub struct Backend {
    pub adb: Adb,
    /// `--serial`: the one device this server drives.
    pub serial: Option<String>,
}

/// What an element action did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ActionOutcome {
    Done,
    /// An expected negative (element absent, text not typeable), with a reason code.
    Refused(String),
}

impl Backend {
    /// The serial to pass to `adb -s`, once proven inert and allowed.
    pub fn device<'a>(&self, id: &'a str) -> Result<&'a str, AdbError> {
        let id = validate::serial(id)?;
        match &self.serial {
            Some(s) if s != id => Err(AdbError::OtherDevice {
                got: id.to_string(),
                serial: s.clone(),
            }),
            _ => Ok(id),
        }
    }

    pub async fn devices(&self) -> Result<Vec<Device>, AdbError> {
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
    pub async fn apps(&self, dev: &str) -> Result<Vec<App>, AdbError> {
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

    pub async fn launch(&self, dev: &str, package: &str) -> Result<(), AdbError> {
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

    pub async fn terminate(&self, dev: &str, package: &str) -> Result<(), AdbError> {
        let s = Some(self.device(dev)?);
        let pkg = validate::package(package)?;
        self.adb
            .run(s, &["shell", "am", "force-stop", pkg], "stopping the app")
            .await
            .map(drop)
    }

    pub async fn press_button(&self, dev: &str, button: &str) -> Result<(), AdbError> {
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

    pub async fn screenshot(&self, dev: &str, save_to: &str) -> Result<(u32, u32), AdbError> {
        let s = Some(self.device(dev)?);
        let path = Path::new(save_to);
        if !path.is_absolute() || !path.parent().is_some_and(Path::is_dir) {
            return Err(AdbError::BadSavePath(save_to.to_string()));
        }
        // exec-out, not shell: a pty would rewrite \n bytes inside the PNG.
        let png = self
            .adb
            .run(s, &["exec-out", "screencap", "-p"], "taking a screenshot")
            .await?;
        let size = png_size(&png).map_err(AdbError::NotPng)?;
        std::fs::write(path, &png).map_err(|source| AdbError::Write {
            path: path.to_path_buf(),
            source,
        })?;
        Ok(size)
    }

    /// The current screen's elements; retried while uiautomator cannot get an idle screen.
    pub async fn hierarchy(&self, dev: &str) -> Result<Vec<UiElement>, AdbError> {
        Ok(self
            .dump(dev)
            .await?
            .into_iter()
            .map(|n| n.element)
            .collect())
    }

    /// As [`Backend::hierarchy`], with the view tree a tap needs.
    async fn dump(&self, dev: &str) -> Result<Vec<DumpNode>, AdbError> {
        let s = Some(self.device(dev)?);
        let mut last = String::new();
        for attempt in 1..=DUMP_ATTEMPTS {
            if attempt > 1 {
                tokio::time::sleep(DUMP_RETRY_PAUSE).await;
            }
            match self.dump_once(s).await {
                Ok(elements) => return Ok(elements),
                Err(e) => {
                    tracing::debug!(attempt, error = %e, "uiautomator dump failed");
                    last = e;
                }
            }
        }
        Err(AdbError::Dump {
            attempts: DUMP_ATTEMPTS,
            last,
        })
    }

    async fn dump_once(&self, s: Option<&str>) -> Result<Vec<DumpNode>, String> {
        let said = self
            .adb
            .text(
                s,
                &["shell", "uiautomator", "dump", DUMP_PATH],
                "dumping the screen",
            )
            .await
            .map_err(|e| e.to_string())?;
        // Success prints "UI hierchary dumped to: …" (sic); failures print ERROR: … and
        // may still exit 0.
        if !said.contains("dumped to") {
            return Err(format!("uiautomator said {:?}", said.trim()));
        }
        let xml = self
            .adb
            .text(
                s,
                &["exec-out", "cat", DUMP_PATH],
                "reading the screen dump",
            )
            .await
            .map_err(|e| e.to_string())?;
        parse_dump_tree(&xml).map_err(|e| e.to_string())
    }

    pub async fn tap_at(&self, s: &str, (x, y): (i32, i32)) -> Result<(), AdbError> {
        let (x, y) = (x.to_string(), y.to_string());
        self.adb
            .run(Some(s), &["shell", "input", "tap", &x, &y], "tapping")
            .await
            .map(drop)
    }

    pub async fn tap(&self, dev: &str, strategies: &[Strategy]) -> Result<ActionOutcome, AdbError> {
        let s = self.device(dev)?;
        let nodes = self.dump(s).await?;
        let Some(point) = find_tap_point(&nodes, strategies) else {
            return Ok(ActionOutcome::Refused(ELEMENT_NOT_FOUND.into()));
        };
        self.tap_at(s, point).await?;
        Ok(ActionOutcome::Done)
    }

    /// Taps the field to focus it, then types. Text that `input text` cannot type goes
    /// through ADBKeyBoard when the device has it, and is otherwise refused before the
    /// field is touched; the text itself never appears in a reason or a log.
    pub async fn input_text(
        &self,
        dev: &str,
        strategies: &[Strategy],
        text: &str,
    ) -> Result<ActionOutcome, AdbError> {
        let s = self.device(dev)?;
        let typing = match input_text_words(text) {
            Ok(words) => Typing::Keys(words),
            Err(Untypeable::NonAscii) => match self.adb_keyboard_restore_to(s).await? {
                Some(previous) => Typing::AdbKeyboard { previous },
                None => {
                    return Ok(ActionOutcome::Refused(format!(
                        "text_not_typeable: {}; install the ADBKeyBoard input method ({}) on the device to type it",
                        Untypeable::NonAscii,
                        adb_keyboard::ADB_KEYBOARD_IME
                    )))
                }
            },
            Err(e @ Untypeable::Control) => {
                return Ok(ActionOutcome::Refused(format!("text_not_typeable: {e}")))
            }
        };
        let nodes = self.dump(s).await?;
        let Some(point) = find_tap_point(&nodes, strategies) else {
            return Ok(ActionOutcome::Refused(ELEMENT_NOT_FOUND.into()));
        };
        self.tap_at(s, point).await?;
        match typing {
            Typing::Keys(words) => {
                for word in &words {
                    self.adb
                        .run(Some(s), &["shell", "input", "text", word], "typing text")
                        .await
                        .map_err(withhold_output)?;
                }
            }
            Typing::AdbKeyboard { previous } => {
                let typed = self.type_with_adb_keyboard(s, text).await;
                // The tester's own keyboard comes back even when typing failed.
                let restored = self
                    .adb
                    .run(
                        Some(s),
                        &["shell", "ime", "set", &previous],
                        "restoring the keyboard",
                    )
                    .await;
                typed?;
                restored?;
            }
        }
        Ok(ActionOutcome::Done)
    }

    /// `Some(current IME)` when ADBKeyBoard is installed and the current keyboard can be
    /// restored afterwards; `None` when the fallback is not available.
    async fn adb_keyboard_restore_to(&self, s: &str) -> Result<Option<String>, AdbError> {
        let listed = self
            .adb
            .run(
                Some(s),
                &["shell", "ime", "list", "-a", "-s"],
                "listing input methods",
            )
            .await?;
        if !adb_keyboard::is_installed(&String::from_utf8_lossy(&listed)) {
            return Ok(None);
        }
        let current = self
            .adb
            .run(
                Some(s),
                &["shell", "settings", "get", "secure", "default_input_method"],
                "reading the current keyboard",
            )
            .await?;
        Ok(adb_keyboard::parse_current_ime(&String::from_utf8_lossy(
            &current,
        )))
    }

    async fn type_with_adb_keyboard(&self, s: &str, text: &str) -> Result<(), AdbError> {
        let ime = adb_keyboard::ADB_KEYBOARD_IME;
        self.adb
            .run(
                Some(s),
                &["shell", "ime", "enable", ime],
                "enabling ADBKeyBoard",
            )
            .await?;
        self.adb
            .run(
                Some(s),
                &["shell", "ime", "set", ime],
                "switching to ADBKeyBoard",
            )
            .await?;
        let msg = adb_keyboard::encode(text);
        let args = [
            "shell",
            "am",
            "broadcast",
            "-a",
            adb_keyboard::BROADCAST_B64,
            "--es",
            "msg",
            &msg,
        ];
        self.adb
            .run(Some(s), &args, "typing text with ADBKeyBoard")
            .await
            .map(drop)
            .map_err(withhold_output)
    }

    /// Clears the crash buffer and the main and system buffers: ANR records
    /// (`ActivityManager`) live in `system`, so clearing only `crash` would report an old
    /// ANR again after every clear. A running capture keeps streaming; it has already read
    /// what is cleared.
    pub async fn clear_logs(&self, dev: &str) -> Result<(), AdbError> {
        let s = Some(self.device(dev)?);
        let args = ["logcat", "-c", "-b", "crash", "-b", "main", "-b", "system"];
        self.adb.run(s, &args, "clearing the logs").await.map(drop)
    }

    /// Java and native crashes from the crash buffer, then ANRs from ActivityManager,
    /// ordered by time; `package` keeps its own processes only.
    pub async fn recent_crashes(
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

/// adb's output for a typing step may echo the typed text; an error keeps only the exit
/// status.
fn withhold_output(e: AdbError) -> AdbError {
    match e {
        AdbError::Failed { what, code, .. } => AdbError::Failed {
            what,
            code,
            detail: "(output withheld: it may contain the typed text)".into(),
        },
        other => other,
    }
}

/// How one `input_text` reaches the device.
enum Typing {
    /// `input text` words, in order.
    Keys(Vec<String>),
    /// ADBKeyBoard, then back to the keyboard that was active.
    AdbKeyboard { previous: String },
}
