//! The answers of `mobile_launch_app`, `mobile_terminate_app` and `mobile_press_button`,
//! and the screen a backend takes for `mobile_save_screenshot` (the server writes it).
//! The client reads nothing in the first three but `isError` (docs/tool-contract.md), so each backend
//! says what it knows: the simulator knows whether the app was already running, adb only
//! that the command went through. Optional fields are left out when unknown, and fields
//! are declared in the order the servers have always written them.
use serde::Serialize;

/// A screen as a device took it: PNG bytes and their size, before the server writes
/// them where the client asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Screenshot {
    pub png: Vec<u8>,
    pub width: u32,
    pub height: u32,
}

/// What `mobile_launch_app` answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Launched {
    pub launched: bool,
    /// `am start` on a running app only brings it to the front (simulator).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub already_running: Option<bool>,
    /// The package whose process was started (simulator).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package: Option<String>,
}

impl Launched {
    /// The command went through; nothing more is known.
    pub fn done() -> Launched {
        Launched {
            launched: true,
            already_running: None,
            package: None,
        }
    }

    /// Whether this launch started a new process (unknown counts as started).
    pub fn started(&self) -> bool {
        self.launched && self.already_running != Some(true)
    }
}

/// What `mobile_terminate_app` answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Terminated {
    pub terminated: bool,
    /// Whether there was a process to stop (simulator).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub was_running: Option<bool>,
}

/// What `mobile_press_button` answers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum ButtonAnswer {
    /// The key event was sent (adb cannot tell who received it).
    Pressed { pressed: bool },
    /// Whether the app was there to receive it, and if not why (simulator).
    Handled {
        ok: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unknown_fields_are_left_out_of_the_answer() {
        assert_eq!(
            serde_json::to_value(Launched::done()).unwrap(),
            json!({"launched": true})
        );
        let again = Launched {
            already_running: Some(true),
            ..Launched::done()
        };
        assert!(!again.started());
        assert_eq!(
            serde_json::to_value(&again).unwrap(),
            json!({"launched": true, "already_running": true})
        );
        assert_eq!(
            serde_json::to_value(ButtonAnswer::Pressed { pressed: true }).unwrap(),
            json!({"pressed": true})
        );
        let refused = ButtonAnswer::Handled {
            ok: false,
            reason: Some("app_not_running".into()),
        };
        assert_eq!(
            serde_json::to_value(refused).unwrap(),
            json!({"ok": false, "reason": "app_not_running"})
        );
    }
}
