//! One run per device on this machine (docs/device-lab.md, "One run per device"): a run
//! holds an OS lock (`flock`, via fs4) per device it drives, for as long as it drives
//! it, on a file named after the device's key — where the device lives and its id. Two
//! `whittle` processes, two `whittle mcp` calls or the window and the terminal then
//! never tap into each other's screens; the operating system drops the lock when the
//! holder dies, however it dies, so a crashed run never leaves a phone "busy".
//!
//! Who holds a lease is written into its file (process, what it runs, since when) for
//! the refusal of the next run to name; nothing decides on it. A lab host shared by
//! several machines lends its devices to one MCP session at a time on its side
//! (`whittle_contract::lease`); this lock keeps the runs of one machine apart before
//! they reach it.
//!
//! The files live in a folder only this user can write (`device_lease/private_folder.rs`),
//! are opened there without following a link and removed on release without the unlink
//! race (`device_lease/lease_file.rs`).

mod lease_file;
mod private_folder;

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use lease_file::{HeldFile, TakeError, Taken};
pub use private_folder::{
    lease_dir, LeaseFolder, LeaseFolderError, LeaseFolderProblem, LEASE_DIR_ENV,
};

/// How often a run that waits for a device (`--wait-device`) asks again.
pub const WAIT_POLL: Duration = Duration::from_millis(250);

/// Characters of a lab host's words that are shown (Whittle's own hosts send about
/// 100: the session, its client's name cut to 64, since when); the rest is cut with `…`.
pub const MAX_HOST_TEXT_CHARS: usize = 160;

/// Where a device lives, which decides who else can reach it: the same id on another
/// lab host, or inside another simulator process, is another device.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum DeviceHome {
    /// Reached through a streamable-HTTP server (a lab host): its URL.
    Host(String),
    /// Reached from this machine (adb, mobile-mcp): every process here sees the same one.
    ThisMachine,
    /// Lives inside one server process (Whittle's simulator over stdio): no other process
    /// can drive it.
    Process(u32),
}

/// The device a lease is for.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DeviceKey {
    pub home: DeviceHome,
    /// The id its own server knows it by.
    pub device: String,
}

impl DeviceKey {
    /// The lease file's name: readable, and unique by a hash of the whole key.
    fn file_name(&self) -> String {
        let home = match &self.home {
            DeviceHome::Host(url) => format!("host {url}"),
            DeviceHome::ThisMachine => "local".to_owned(),
            DeviceHome::Process(pid) => format!("process {pid}"),
        };
        let hash = hex::encode(&Sha256::digest(format!("{home}\n{}", self.device))[..8]);
        let readable: String = self
            .device
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .take(40)
            .collect();
        format!("{readable}-{hash}.lease")
    }
}

/// Who holds a device, as its lease file says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct LeaseHolder {
    pub pid: u32,
    /// What it runs, e.g. "minimize 2026-05-15_093000_checkout".
    pub purpose: String,
    /// RFC 3339, UTC.
    pub since: String,
}

/// Who holds a busy device, as a refusal names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DeviceHolder {
    /// A Whittle process on this machine, as its lease file says.
    Process {
        pid: u32,
        purpose: String,
        since: String,
    },
    /// Another MCP session of the lab host `server`, as the host names it (made safe to
    /// show by [`DeviceHolder::lab_session`]: a lab host is untrusted too).
    LabSession { server: String, holder: String },
    /// A process on this machine that had not yet written who it is.
    Unknown,
}

impl DeviceHolder {
    /// The holder a lab host named, as it may be shown ([`shown_host_text`]).
    pub fn lab_session(server: String, holder: &str) -> DeviceHolder {
        DeviceHolder::LabSession {
            server,
            holder: shown_host_text(holder),
        }
    }
}

/// Text a lab host sent to be shown (who holds a device): its control characters
/// (terminal escapes among them) and the invisible characters that reorder or hide text
/// replaced with `?`, and at most [`MAX_HOST_TEXT_CHARS`] characters. Applying it again
/// changes nothing.
pub fn shown_host_text(text: &str) -> String {
    let mut shown = String::new();
    for (taken, c) in text.chars().enumerate() {
        if taken == MAX_HOST_TEXT_CHARS {
            shown.push('…');
            break;
        }
        let hidden = c.is_control()
            || matches!(c,
                '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{2069}'
                | '\u{FEFF}'
                | '\u{FFF9}'..='\u{FFFB}');
        shown.push(if hidden { '?' } else { c });
    }
    shown
}

impl From<Option<LeaseHolder>> for DeviceHolder {
    fn from(holder: Option<LeaseHolder>) -> DeviceHolder {
        match holder {
            Some(LeaseHolder {
                pid,
                purpose,
                since,
            }) => DeviceHolder::Process {
                pid,
                purpose,
                since,
            },
            None => DeviceHolder::Unknown,
        }
    }
}

/// The CLI's English; the window words the typed holder in its own catalogue.
impl std::fmt::Display for DeviceHolder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DeviceHolder::Process {
                pid,
                purpose,
                since,
            } => write!(f, "Whittle process {pid} ({purpose}) since {since}"),
            // Made safe again: a value may come from elsewhere than `lab_session`.
            DeviceHolder::LabSession { server, holder } => {
                write!(f, "{} on lab host {server}", shown_host_text(holder))
            }
            DeviceHolder::Unknown => f.write_str("another Whittle process"),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum LeaseError {
    #[error("device {device} is in use by {holder}")]
    Busy {
        device: String,
        holder: DeviceHolder,
    },
    #[error("cannot lock device {device} ({}): {source}", path.display())]
    Io {
        device: String,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The lease folder is another user's, open to others, a link, or not to be found.
    #[error("cannot lock device {device}: {source}")]
    Folder {
        device: String,
        #[source]
        source: LeaseFolderError,
    },
    /// A symbolic link stands where the device's lease file goes: refused, never written
    /// through.
    #[error("cannot lock device {device}: {} is a symbolic link; it is not followed", path.display())]
    Link { device: String, path: PathBuf },
}

impl LeaseError {
    /// The device the lease was for.
    pub fn device(&self) -> &str {
        match self {
            LeaseError::Busy { device, .. }
            | LeaseError::Io { device, .. }
            | LeaseError::Folder { device, .. }
            | LeaseError::Link { device, .. } => device,
        }
    }
}

/// A device held for a run; dropping it releases the device (and removes its file).
#[derive(Debug)]
pub struct DeviceLease {
    key: DeviceKey,
    _held: HeldFile,
}

impl DeviceLease {
    pub fn key(&self) -> &DeviceKey {
        &self.key
    }

    /// Takes `key`'s lease now, or says who holds it.
    pub fn take(key: &DeviceKey, purpose: &str) -> Result<DeviceLease, LeaseError> {
        let folder = LeaseFolder::open().map_err(|source| LeaseError::Folder {
            device: key.device.clone(),
            source,
        })?;
        DeviceLease::take_in(&folder, key, purpose)
    }

    /// [`DeviceLease::take`] with the lease files in `folder`.
    pub fn take_in(
        folder: &LeaseFolder,
        key: &DeviceKey,
        purpose: &str,
    ) -> Result<DeviceLease, LeaseError> {
        let name = key.file_name();
        let path = folder.path().join(&name);
        let mut held = match lease_file::take(folder, &name) {
            Ok(Taken::Held(held)) => held,
            Ok(Taken::Busy(file)) => {
                return Err(LeaseError::Busy {
                    device: key.device.clone(),
                    holder: file.and_then(|mut f| read_holder(&mut f)).into(),
                })
            }
            Err(TakeError::Link) => {
                return Err(LeaseError::Link {
                    device: key.device.clone(),
                    path,
                })
            }
            Err(TakeError::Io(source)) => {
                return Err(LeaseError::Io {
                    device: key.device.clone(),
                    path,
                    source,
                })
            }
        };
        let holder = LeaseHolder {
            pid: std::process::id(),
            purpose: purpose.to_owned(),
            since: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        };
        // Only a note for the next run's refusal: a failure to write it holds the device
        // all the same. The file is this lease's own (opened without following a link,
        // checked to be the one its name leads to), so emptying it first is safe.
        let file = held.file();
        let _ = file
            .set_len(0)
            .and_then(|()| file.seek(SeekFrom::Start(0)))
            .and_then(|_| file.write_all(&serde_json::to_vec(&holder).unwrap_or_default()))
            .and_then(|()| file.flush());
        Ok(DeviceLease {
            key: key.clone(),
            _held: held,
        })
    }
}

/// The leases a run holds, shared by the copies of its prepared run.
#[derive(Debug, Clone, Default)]
pub struct DeviceLeases {
    /// Held for their `Drop`, which frees the devices.
    _held: Arc<Vec<DeviceLease>>,
}

impl DeviceLeases {
    pub fn new(leases: Vec<DeviceLease>) -> DeviceLeases {
        DeviceLeases {
            _held: Arc::new(leases),
        }
    }
}

fn read_holder(file: &mut File) -> Option<LeaseHolder> {
    let mut text = String::new();
    file.seek(SeekFrom::Start(0)).ok()?;
    file.take(4096).read_to_string(&mut text).ok()?;
    serde_json::from_str(&text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(device: &str, home: DeviceHome) -> DeviceKey {
        DeviceKey {
            home,
            device: device.into(),
        }
    }

    fn folder(dir: &tempfile::TempDir) -> LeaseFolder {
        LeaseFolder::open_at(&dir.path().join("leases")).unwrap()
    }

    fn names_in(folder: &LeaseFolder) -> Vec<String> {
        std::fs::read_dir(folder.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn a_held_device_is_refused_naming_its_holder_until_released() {
        let dir = tempfile::tempdir().unwrap();
        let folder = folder(&dir);
        let take = |key: &DeviceKey, purpose: &str| DeviceLease::take_in(&folder, key, purpose);
        let phone = key("emulator-5554", DeviceHome::ThisMachine);
        let first = take(&phone, "minimize s1").unwrap();
        // A second open file of the same process conflicts, as another process would.
        match take(&phone, "minimize s2") {
            Err(LeaseError::Busy { device, holder }) => {
                assert_eq!(device, "emulator-5554");
                let DeviceHolder::Process { pid, purpose, .. } = holder else {
                    panic!("the holder wrote who it is: {holder:?}");
                };
                assert_eq!(pid, std::process::id());
                assert_eq!(purpose, "minimize s1");
            }
            other => panic!("expected busy, got {other:?}"),
        }
        // The same id elsewhere is another device.
        let lab = key(
            "emulator-5554",
            DeviceHome::Host("http://lab:7000/mcp".into()),
        );
        let _lab = take(&lab, "x").unwrap();
        let _sim = take(&key("emulator-5554", DeviceHome::Process(1)), "x").unwrap();
        drop(first);
        let again = take(&phone, "minimize s2").unwrap();
        assert_eq!(again.key(), &phone);
    }

    /// A malicious lab host names a holder with terminal escapes and 200 KB: shown
    /// bounded, without a control character, however the holder was built.
    #[test]
    fn a_lab_hosts_holder_text_is_shown_bounded_and_without_controls() {
        let evil = format!(
            "\u{1b}[2J\u{1b}]0;pwned\u{7}\u{202e}{}",
            "\u{1b}[31mX".repeat(40_000)
        );
        let holder = DeviceHolder::lab_session("labA".into(), &evil);
        let DeviceHolder::LabSession { holder: kept, .. } = &holder else {
            panic!("{holder:?}");
        };
        assert_eq!(kept.chars().count(), MAX_HOST_TEXT_CHARS + 1);
        assert!(kept.starts_with("?[2J?]0;pwned??"), "{kept}");
        let raw = DeviceHolder::LabSession {
            server: "labA".into(),
            holder: evil,
        };
        for shown in [holder.to_string(), raw.to_string()] {
            assert!(!shown.chars().any(char::is_control), "{shown:?}");
            assert!(shown.len() < 400, "{} bytes", shown.len());
            assert!(shown.ends_with("… on lab host labA"), "{shown}");
        }
        assert_eq!(
            holder.to_string(),
            raw.to_string(),
            "made safe once or twice alike"
        );
        let plain = "MCP session 3 (whittle), holding it since 10:01:02 UTC";
        assert_eq!(shown_host_text(plain), plain);
    }

    #[test]
    fn file_names_are_safe_and_tell_keys_apart() {
        let a = key("../../etc/passwd", DeviceHome::ThisMachine).file_name();
        assert!(!a.contains('/') && a.ends_with(".lease"), "{a}");
        let b = key("sim-1", DeviceHome::Process(1)).file_name();
        let c = key("sim-1", DeviceHome::Process(2)).file_name();
        assert_ne!(b, c);
    }

    #[cfg(unix)]
    #[test]
    fn a_released_lease_leaves_no_file_and_a_stale_one_is_reused() {
        let dir = tempfile::tempdir().unwrap();
        let folder = folder(&dir);
        for i in 0..45 {
            let sim = key(&format!("sim-{}", i % 3), DeviceHome::Process(i));
            let lease = DeviceLease::take_in(&folder, &sim, "minimize s").unwrap();
            assert_eq!(names_in(&folder), [sim.file_name()]);
            drop(lease);
        }
        assert!(names_in(&folder).is_empty(), "{:?}", names_in(&folder));

        // A file nobody holds (its holder died before removing it): taken and reused.
        let phone = key("emulator-5554", DeviceHome::ThisMachine);
        let path = folder.path().join(phone.file_name());
        std::fs::write(&path, b"left by a run that was killed").unwrap();
        let lease = DeviceLease::take_in(&folder, &phone, "minimize s3").unwrap();
        let note: LeaseHolder = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(note.purpose, "minimize s3");
        drop(lease);
        assert!(!path.exists());
    }

    #[cfg(unix)]
    #[test]
    fn a_link_in_place_of_the_lease_file_is_refused_and_its_target_left_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let folder = folder(&dir);
        let phone = key("emulator-5554", DeviceHome::ThisMachine);
        let path = folder.path().join(phone.file_name());
        let target = dir.path().join("precious");
        std::fs::write(&target, b"another user's file").unwrap();
        std::os::unix::fs::symlink(&target, &path).unwrap();
        match DeviceLease::take_in(&folder, &phone, "minimize s1") {
            Err(LeaseError::Link { device, path: at }) => {
                assert_eq!(device, "emulator-5554");
                assert_eq!(at, path);
            }
            other => panic!("expected a refused link, got {other:?}"),
        }
        assert_eq!(std::fs::read(&target).unwrap(), b"another user's file");
        // A dangling link: nothing is made where it points.
        let nowhere = dir.path().join("made-through-the-link");
        std::fs::remove_file(&path).unwrap();
        std::os::unix::fs::symlink(&nowhere, &path).unwrap();
        assert!(matches!(
            DeviceLease::take_in(&folder, &phone, "minimize s1"),
            Err(LeaseError::Link { .. })
        ));
        assert!(!nowhere.exists());
    }

    /// Takes and releases racing in many threads (each take opens its own file, so they
    /// conflict as processes do): never two holders at once, though every release
    /// removes the file another thread may have just opened.
    #[cfg(unix)]
    #[test]
    fn takes_and_releases_from_many_threads_never_give_two_holders() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        const THREADS: usize = 8;
        const TAKES: usize = 300;
        let dir = tempfile::tempdir().unwrap();
        let folder = folder(&dir);
        let phone = key("emulator-5554", DeviceHome::ThisMachine);
        let holders = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..THREADS {
                scope.spawn(|| {
                    for _ in 0..TAKES {
                        let lease = loop {
                            match DeviceLease::take_in(&folder, &phone, "hammer") {
                                Ok(lease) => break lease,
                                Err(LeaseError::Busy { .. }) => std::thread::yield_now(),
                                Err(e) => panic!("{e}"),
                            }
                        };
                        let now = holders.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::yield_now();
                        holders.fetch_sub(1, Ordering::SeqCst);
                        drop(lease);
                    }
                });
            }
        });
        assert_eq!(most.load(Ordering::SeqCst), 1, "two holders at once");
        assert!(names_in(&folder).is_empty());
    }
}
