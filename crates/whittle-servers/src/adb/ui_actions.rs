//! The ui role over adb: screen dumps, taps at an element's centre, and typing (with
//! `input text`, or ADBKeyBoard for text `input text` cannot type). Typed text never
//! appears in a log, a reason or an error.
use std::time::Duration;

use whittle_contract::ui::{By, Strategy, UiElement, LONG_PRESS_MS};

use super::adb_keyboard;
use super::backend::Backend;
use super::error::{AdbError, DumpAttemptError};
use super::hierarchy::{parse_dump_tree, DumpNode};
use super::input_escape::{input_text_words, Untypeable};
use super::tap_target::find_tap_point;

/// Where `uiautomator dump` writes; read back with `exec-out cat`.
const DUMP_PATH: &str = "/sdcard/window_dump.xml";
/// Dumps fail while the screen animates ("could not get idle state"); a short pause and a
/// retry usually lands after the animation.
const DUMP_ATTEMPTS: u32 = 3;
const DUMP_RETRY_PAUSE: Duration = Duration::from_millis(400);

/// Same reason strings as the simulator, so a client reads both alike.
pub const ELEMENT_NOT_FOUND: &str = "element_not_found";

/// What an element action did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ActionOutcome {
    Done,
    /// An expected negative (element absent, text not typeable), with a reason code.
    Refused(String),
}

impl Backend {
    /// The current screen's elements; retried while uiautomator cannot get an idle screen.
    pub(super) async fn dump_elements(&self, dev: &str) -> Result<Vec<UiElement>, AdbError> {
        Ok(self
            .dump(dev)
            .await?
            .into_iter()
            .map(|n| n.element)
            .collect())
    }

    /// As [`Backend::dump_elements`], with the view tree a tap needs.
    async fn dump(&self, dev: &str) -> Result<Vec<DumpNode>, AdbError> {
        let s = Some(self.device(dev)?);
        let mut attempt = 1;
        loop {
            match self.dump_once(s).await {
                Ok(elements) => return Ok(elements),
                Err(e) => {
                    tracing::debug!(attempt, error = %e, "uiautomator dump failed");
                    if attempt == DUMP_ATTEMPTS {
                        return Err(AdbError::Dump {
                            attempts: DUMP_ATTEMPTS,
                            last: Box::new(e),
                        });
                    }
                }
            }
            attempt += 1;
            tokio::time::sleep(DUMP_RETRY_PAUSE).await;
        }
    }

    async fn dump_once(&self, s: Option<&str>) -> Result<Vec<DumpNode>, DumpAttemptError> {
        let said = self
            .adb
            .text(
                s,
                &["shell", "uiautomator", "dump", DUMP_PATH],
                "dumping the screen",
            )
            .await?;
        // Success prints "UI hierchary dumped to: …" (sic); failures print ERROR: … and
        // may still exit 0.
        if !said.contains("dumped to") {
            return Err(DumpAttemptError::NotDumped {
                said: said.trim().to_string(),
            });
        }
        let xml = self
            .adb
            .text(
                s,
                &["exec-out", "cat", DUMP_PATH],
                "reading the screen dump",
            )
            .await?;
        Ok(parse_dump_tree(&xml)?)
    }

    async fn tap_at(&self, s: &str, (x, y): (i32, i32)) -> Result<(), AdbError> {
        let (x, y) = (x.to_string(), y.to_string());
        self.adb
            .run(Some(s), &["shell", "input", "tap", &x, &y], "tapping")
            .await
            .map(drop)
    }

    /// A press held in place: `input swipe` from a point to itself for the duration.
    async fn long_press_at(&self, s: &str, (x, y): (i32, i32)) -> Result<(), AdbError> {
        let (x, y) = (x.to_string(), y.to_string());
        let ms = LONG_PRESS_MS.to_string();
        self.adb
            .run(
                Some(s),
                &["shell", "input", "swipe", &x, &y, &x, &y, &ms],
                "long-pressing",
            )
            .await
            .map(drop)
    }

    /// Taps (or, with `long`, long-presses) the element the strategies find.
    pub(super) async fn press_first(
        &self,
        dev: &str,
        strategies: &[Strategy],
        long: bool,
    ) -> Result<ActionOutcome, AdbError> {
        let s = self.device(dev)?;
        let nodes = self.dump(s).await?;
        let Some(point) = find_tap_point(&nodes, strategies) else {
            return Ok(ActionOutcome::Refused(ELEMENT_NOT_FOUND.into()));
        };
        if long {
            self.long_press_at(s, point).await?;
        } else {
            self.tap_at(s, point).await?;
        }
        Ok(ActionOutcome::Done)
    }

    /// Taps the field to focus it (unless the field is the focused one), then types. Text that `input text` cannot type goes
    /// through ADBKeyBoard when the device has it, and is otherwise refused before the
    /// field is touched; the text itself never appears in a reason or a log.
    pub(super) async fn type_into(
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
        // Typing where the focus is (Maestro's `inputText`) must not move it: a tap on a
        // field that already has it could place the cursor elsewhere or open a menu.
        let into_focus = strategies.iter().all(|st| st.by == By::Focused);
        if !into_focus {
            self.tap_at(s, point).await?;
        }
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
