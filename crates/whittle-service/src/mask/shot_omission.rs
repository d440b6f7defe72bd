//! Why a picture was not archived, typed, so each front end words it in its own language
//! (the window's catalogues, the CLI's English) instead of showing the sentence the
//! evidence happened to be written in. It never carries text read from the screen. It
//! lives beside the masking it words (below the result, whose run notices hold it).

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize};

use super::OmitReason;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ShotOmission {
    /// The UI hierarchy could not be read around the screenshot.
    NoHierarchy,
    /// The screen changed while it was captured, also on the retake.
    ScreenChanged,
    /// The hierarchy is empty (the app has just crashed) but the image is not blank.
    EmptyHierarchy,
    /// The hierarchy names no node's package, so whose screen it is is unknown.
    NoPackageInfo,
    /// No node of the app is on screen; `shown` names (clipped) what is.
    NotTheApp { shown: String },
    /// The hierarchy does not span the image (another size, not a uniform scale).
    ExtentMismatch,
    /// The image does not decode (truncated, empty, another format, too large).
    Undecodable { detail: String },
    /// The screenshot could not be taken or masked (a device, server or disk failure).
    CaptureFailed { detail: String },
    /// The run was cancelled before its screenshot.
    Cancelled,
    /// The replay was stopped early: the search no longer needed it.
    Unneeded,
    /// A reviewer omitted it from the evidence.
    ByReviewer,
    /// A reason written as text by a Whittle that did not type it yet.
    Recorded { detail: String },
}

impl ShotOmission {
    pub fn of(reason: &OmitReason) -> ShotOmission {
        match reason {
            OmitReason::Undecodable(failure) => ShotOmission::Undecodable {
                detail: failure.to_string(),
            },
            OmitReason::NoHierarchy => ShotOmission::NoHierarchy,
            OmitReason::ScreenChanged => ShotOmission::ScreenChanged,
            OmitReason::EmptyHierarchy => ShotOmission::EmptyHierarchy,
            OmitReason::NoPackageInfo { .. } => ShotOmission::NoPackageInfo,
            OmitReason::NotTheApp { shown, .. } => ShotOmission::NotTheApp {
                shown: shown.clone(),
            },
            OmitReason::ExtentMismatch { .. } => ShotOmission::ExtentMismatch,
        }
    }

    /// Reads a typed reason, or the text an older Whittle wrote (`Recorded`).
    pub fn read_compat<'de, D: Deserializer<'de>>(d: D) -> Result<Option<ShotOmission>, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Written {
            Typed(ShotOmission),
            Text(String),
        }
        Ok(
            Option::<Written>::deserialize(d)?.map(|written| match written {
                Written::Typed(typed) => typed,
                Written::Text(detail) => ShotOmission::Recorded { detail },
            }),
        )
    }
}

/// The English of the CLI, the logs and the evidence's report.
impl fmt::Display for ShotOmission {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShotOmission::NoHierarchy => f.write_str("no UI hierarchy to locate private data"),
            ShotOmission::ScreenChanged => {
                f.write_str("the screen changed while it was captured, also on the retake")
            }
            ShotOmission::EmptyHierarchy => f.write_str(
                "the UI hierarchy is empty (as when the app has just crashed) but the \
                 screenshot is not blank",
            ),
            ShotOmission::NoPackageInfo => f.write_str(
                "the UI hierarchy names no node's package, so it cannot tell whose screen it is",
            ),
            ShotOmission::NotTheApp { shown } => {
                write!(
                    f,
                    "no node of the app is on screen (the UI hierarchy shows {shown})"
                )
            }
            ShotOmission::ExtentMismatch => {
                f.write_str("the UI hierarchy does not span the screenshot")
            }
            ShotOmission::Undecodable { detail } => {
                write!(f, "the screenshot could not be decoded: {detail}")
            }
            ShotOmission::CaptureFailed { detail } => {
                write!(f, "the screenshot could not be taken: {detail}")
            }
            ShotOmission::Cancelled => f.write_str("the run was cancelled before its screenshot"),
            ShotOmission::Unneeded => {
                f.write_str("the replay was stopped early: the search no longer needed it")
            }
            ShotOmission::ByReviewer => f.write_str("omitted by the reviewer"),
            ShotOmission::Recorded { detail } => f.write_str(detail),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_reasons_and_older_text_both_read() {
        #[derive(Deserialize)]
        struct Holder {
            #[serde(default, deserialize_with = "ShotOmission::read_compat")]
            why: Option<ShotOmission>,
        }
        let typed: Holder = serde_json::from_str(r#"{"why":{"kind":"empty_hierarchy"}}"#).unwrap();
        assert_eq!(typed.why, Some(ShotOmission::EmptyHierarchy));
        let old: Holder = serde_json::from_str(r#"{"why":"screenshot failed: gone"}"#).unwrap();
        assert_eq!(
            old.why,
            Some(ShotOmission::Recorded {
                detail: "screenshot failed: gone".into()
            })
        );
        let none: Holder = serde_json::from_str("{}").unwrap();
        assert_eq!(none.why, None);
    }
}
