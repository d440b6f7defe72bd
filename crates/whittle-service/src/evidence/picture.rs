//! The names of the pictures an evidence session keeps: each attempt's screenshot and
//! each filmstrip frame. Every reader (the viewer, the masks, the checklist, the export)
//! parses a name here once and then holds a [`PictureName`], so they all accept the same
//! grammar. Names come from the window and from files in the evidence (untrusted), so a
//! name is accepted only in its one canonical spelling: no `..`, no other folder, no
//! second spelling of the same picture.

use std::cmp::Ordering;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Where each attempt's screenshot is archived.
pub const SCREENSHOTS_DIR: &str = "screenshots";
/// Where the filmstrip's frames and its record are archived.
pub const FILMSTRIP_DIR: &str = "filmstrip";

/// At most this many digits in a number of a name (so every number fits a `u32`).
const MAX_DIGITS: usize = 6;

/// One picture of an evidence session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PictureName {
    /// `screenshots/attempt-NNN.png`: the screen of attempt NNN.
    Screenshot { attempt: u32 },
    /// `filmstrip/attempt-NNN/step-NN.png`: frame NN (1 = after the launch) of the strip
    /// attempt NNN took.
    Frame { attempt: u32, frame: u32 },
}

/// A name that is not one of an evidence session's pictures.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("“{0}” is not a picture of this evidence session")]
pub struct NotAPicture(pub String);

impl PictureName {
    pub fn attempt(self) -> u32 {
        match self {
            PictureName::Screenshot { attempt } | PictureName::Frame { attempt, .. } => attempt,
        }
    }

    /// The frame's place in its strip; `None` for an attempt's screenshot.
    pub fn frame(self) -> Option<u32> {
        match self {
            PictureName::Screenshot { .. } => None,
            PictureName::Frame { frame, .. } => Some(frame),
        }
    }

    /// The folder the picture is in, relative to the evidence session.
    pub fn folder(self) -> String {
        match self {
            PictureName::Screenshot { .. } => SCREENSHOTS_DIR.to_owned(),
            PictureName::Frame { attempt, .. } => format!("{FILMSTRIP_DIR}/attempt-{attempt:03}"),
        }
    }

    /// The picture's own file name inside [`PictureName::folder`].
    pub fn file_name(self) -> String {
        match self {
            PictureName::Screenshot { attempt } => format!("attempt-{attempt:03}.png"),
            PictureName::Frame { frame, .. } => format!("step-{frame:02}.png"),
        }
    }

    /// Where the picture is inside `evidence_dir` (whether or not it is there).
    pub fn path_in(self, evidence_dir: &Path) -> PathBuf {
        evidence_dir.join(self.folder()).join(self.file_name())
    }

    /// Attempt order: an attempt's screenshot, then its frames in strip order.
    fn order_key(self) -> (u32, u32) {
        (self.attempt(), self.frame().unwrap_or(0))
    }
}

impl fmt::Display for PictureName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.folder(), self.file_name())
    }
}

impl Ord for PictureName {
    fn cmp(&self, other: &Self) -> Ordering {
        self.order_key().cmp(&other.order_key())
    }
}

impl PartialOrd for PictureName {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The number in `text` between `prefix` and `suffix`: 1 to [`MAX_DIGITS`] ASCII digits.
fn number(text: &str, prefix: &str, suffix: &str) -> Option<u32> {
    let digits = text.strip_prefix(prefix)?.strip_suffix(suffix)?;
    if digits.is_empty() || digits.len() > MAX_DIGITS || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    digits.parse().ok()
}

fn parse(name: &str) -> Option<PictureName> {
    let parts: Vec<&str> = name.split('/').collect();
    let picture = match parts.as_slice() {
        [SCREENSHOTS_DIR, file] => PictureName::Screenshot {
            attempt: number(file, "attempt-", ".png")?,
        },
        [FILMSTRIP_DIR, folder, file] => PictureName::Frame {
            attempt: number(folder, "attempt-", "")?,
            // Frames count from 1 (after the launch).
            frame: number(file, "step-", ".png").filter(|&n| n > 0)?,
        },
        _ => return None,
    };
    // One spelling per picture: `attempt-1.png` and `attempt-0001.png` are not names of
    // attempt 1, so the checklist can never count one picture twice.
    (picture.to_string() == name).then_some(picture)
}

impl FromStr for PictureName {
    type Err = NotAPicture;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        parse(name).ok_or_else(|| NotAPicture(name.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn screenshots_and_frames_are_named_one_way_each() {
        for (name, picture) in [
            (
                "screenshots/attempt-001.png",
                PictureName::Screenshot { attempt: 1 },
            ),
            (
                "screenshots/attempt-1234.png",
                PictureName::Screenshot { attempt: 1234 },
            ),
            (
                "filmstrip/attempt-012/step-03.png",
                PictureName::Frame {
                    attempt: 12,
                    frame: 3,
                },
            ),
            (
                "filmstrip/attempt-012/step-123.png",
                PictureName::Frame {
                    attempt: 12,
                    frame: 123,
                },
            ),
        ] {
            assert_eq!(name.parse::<PictureName>(), Ok(picture), "{name}");
            assert_eq!(picture.to_string(), name);
        }
    }

    #[test]
    fn anything_else_is_not_a_picture() {
        for bad in [
            "",
            "screenshots/../result.json",
            "/etc/passwd",
            "screenshots/attempt-001.png/..",
            "screenshots/attempt-.png",
            "screenshots/attempt-00a.png",
            "screenshots/attempt-001.PNG",
            "screenshots/attempt-1.png",
            "screenshots/attempt-0001.png",
            "screenshots/attempt-1234567.png",
            "screenshots/sub/attempt-001.png",
            "screenshots/attempt-001.png\0",
            "screenshots//attempt-001.png",
            "./screenshots/attempt-001.png",
            "other/attempt-001.png",
            "filmstrip/attempt-012/step-00.png",
            "filmstrip/attempt-012/step-3.png",
            "filmstrip/attempt-12/step-03.png",
            "filmstrip/attempt-012/../step-03.png",
            "filmstrip/attempt-012/step-03.masks.json",
            "filmstrip/filmstrip.json",
            "filmstrip/attempt-012",
            "filmstrip/attempt-012/sub/step-03.png",
            "screenshots/step-01.png",
            "filmstrip/attempt-001.png",
        ] {
            assert_eq!(
                bad.parse::<PictureName>(),
                Err(NotAPicture(bad.to_owned())),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn an_attempts_screenshot_comes_before_its_frames() {
        let mut names = [
            PictureName::Frame {
                attempt: 2,
                frame: 2,
            },
            PictureName::Screenshot { attempt: 3 },
            PictureName::Frame {
                attempt: 2,
                frame: 1,
            },
            PictureName::Screenshot { attempt: 2 },
            PictureName::Screenshot { attempt: 1 },
        ];
        names.sort();
        assert_eq!(
            names.map(|n| n.to_string()),
            [
                "screenshots/attempt-001.png",
                "screenshots/attempt-002.png",
                "filmstrip/attempt-002/step-01.png",
                "filmstrip/attempt-002/step-02.png",
                "screenshots/attempt-003.png",
            ]
        );
    }

    proptest! {
        /// Every picture reads back from its name.
        #[test]
        fn a_name_reads_back_as_its_picture(
            attempt in 0u32..1_000_000,
            frame in proptest::option::of(1u32..1_000_000),
        ) {
            let picture = match frame {
                None => PictureName::Screenshot { attempt },
                Some(frame) => PictureName::Frame { attempt, frame },
            };
            prop_assert_eq!(picture.to_string().parse::<PictureName>(), Ok(picture));
        }

        /// Whatever a name is made of, one that parses is spelled exactly as its picture
        /// and leads to a plain path inside the evidence session.
        #[test]
        fn a_name_that_parses_stays_inside_the_session(
            name in "(screenshots|filmstrip|\\.\\.|)(/(attempt-[0-9]{0,7}|step-[0-9]{0,3}\\.png|attempt-[0-9]{1,7}\\.png|\\.\\.|)){0,3}|\\PC*",
        ) {
            if let Ok(picture) = name.parse::<PictureName>() {
                prop_assert_eq!(picture.to_string(), name);
                let root = Path::new("/evidence");
                let path = picture.path_in(root);
                let rel = path.strip_prefix(root).unwrap();
                prop_assert!(rel
                    .components()
                    .all(|c| matches!(c, std::path::Component::Normal(_))));
            }
        }
    }
}
