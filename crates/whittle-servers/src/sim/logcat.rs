//! The simulator's log lines, in the form `adb logcat -v threadtime` writes them; the
//! world appends them to the running captures of `crate::device::capture`.

/// The log tag of the simulator's own lines in a capture.
pub const SEED_TAG: &str = "WhittleSim";

/// One line in logcat's threadtime format.
pub fn logcat_line(
    now: &chrono::DateTime<chrono::Utc>,
    pid: u32,
    level: char,
    tag: &str,
    message: &str,
) -> String {
    format!(
        "{}  {pid:>5} {pid:>5} {level} {tag}: {message}",
        now.format("%m-%d %H:%M:%S%.3f")
    )
}
