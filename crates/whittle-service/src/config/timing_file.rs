//! The `timing` block as written in `whittle.json`: the pacing every device uses, plus
//! `devices`, a map from device id to the keys that device overrides. A block without
//! `devices` (every config written before it existed) means the same as before.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{Timing, TimingOverride, WaitMode};

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTiming {
    settle_ms: Option<u32>,
    drain_interval_ms: Option<u32>,
    action_pause_ms: Option<u32>,
    wait: Option<WaitMode>,
    poll_ms: Option<u32>,
    #[serde(default)]
    devices: BTreeMap<String, TimingOverride>,
}

/// The base pacing and each listed device's complete pacing.
#[derive(Debug)]
pub(super) struct ResolvedTiming {
    pub base: Timing,
    pub devices: BTreeMap<String, Timing>,
}

/// A bad value: the field's path under `timing`, and why.
pub(super) type TimingProblem = (String, &'static str);

impl RawTiming {
    /// `default_wait` is the mode when the file names none (see `load::default_wait`).
    pub(super) fn resolve(self, default_wait: WaitMode) -> Result<ResolvedTiming, TimingProblem> {
        let top = TimingOverride {
            settle_ms: self.settle_ms,
            drain_interval_ms: self.drain_interval_ms,
            action_pause_ms: self.action_pause_ms,
            wait: self.wait,
            poll_ms: self.poll_ms,
        };
        let base = top.apply(Timing {
            wait: default_wait,
            ..Timing::default()
        });
        check(&base, "timing")?;
        let mut devices = BTreeMap::new();
        for (id, over) in self.devices {
            let at = format!("timing.devices.{id}");
            if id.trim().is_empty() {
                return Err((at, "a device id must not be empty"));
            }
            let timing = over.apply(base);
            check(&timing, &at)?;
            devices.insert(id, timing);
        }
        Ok(ResolvedTiming { base, devices })
    }
}

/// Zero is refused where it would defeat the wait: a zero drain interval makes the
/// delayed-crash window vanish (only a benchmark against a zero-latency simulator may
/// use it, and it builds `Timing` in code), and a zero poll would hammer the ui server.
fn check(t: &Timing, at: &str) -> Result<(), TimingProblem> {
    if t.drain_interval_ms == 0 {
        return Err((
            format!("{at}.drain_interval_ms"),
            "must be at least 1: the drain's interval is the window in which a crash that lands late is still caught",
        ));
    }
    if t.poll_ms == 0 {
        return Err((format!("{at}.poll_ms"), "must be at least 1"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::config::{Config, ConfigError, Timing, WaitMode};

    fn parse(timing: &str) -> Result<Config, ConfigError> {
        let text = format!(r#"{{"workspace": "w", "mcpServers": {{}}, "timing": {timing}}}"#);
        Config::parse(&text, Path::new("/cfg/whittle.json"))
    }

    /// The field and message of a refused config.
    fn refused(timing: &str) -> (String, String) {
        match parse(timing) {
            Err(ConfigError::Field { field, message, .. }) => (field, message),
            other => panic!("expected a field error for {timing}, got {other:?}"),
        }
    }

    #[test]
    fn the_adb_backend_defaults_to_fixed_waits_unless_the_file_says() {
        let config = |timing: &str| {
            let text = format!(
                r#"{{"workspace": "w", "roles": {{"ui": "phone"}}, "timing": {timing},
                    "mcpServers": {{"phone": {{"command": "whittle-servers", "args": ["adb"]}}}}}}"#
            );
            Config::parse(&text, Path::new("/cfg/whittle.json")).unwrap()
        };
        assert_eq!(config("{}").timing.wait, WaitMode::Fixed);
        assert_eq!(
            config(r#"{"wait": "evidence"}"#).timing.wait,
            WaitMode::Evidence
        );
        assert_eq!(parse("{}").unwrap().timing.wait, WaitMode::Evidence);
    }

    #[test]
    fn configs_written_before_wait_modes_load_as_evidence_waits_with_their_values() {
        let c = parse(r#"{"settle_ms": 300, "drain_interval_ms": 250, "action_pause_ms": 100}"#)
            .unwrap();
        let expected = Timing {
            settle_ms: 300,
            drain_interval_ms: 250,
            action_pause_ms: 100,
            wait: WaitMode::Evidence,
            poll_ms: 50,
        };
        assert_eq!(c.timing, expected);
        assert!(c.device_timing.is_empty());
        assert_eq!(c.timing_for("sim-1"), expected);
    }

    #[test]
    fn the_shipped_configs_still_load() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        for file in ["demo/whittle.json", "fuzz/corpus/whittle_json/demo.json"] {
            let c = Config::load(&root.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
            assert_eq!(c.timing.wait, WaitMode::Evidence, "{file}");
            assert_eq!(c.timing.settle_ms, 300, "{file}");
        }
    }

    #[test]
    fn a_device_entry_overrides_only_its_keys_and_only_for_that_device() {
        let c = parse(
            r#"{"settle_ms": 300, "drain_interval_ms": 250, "action_pause_ms": 100,
                "devices": {"emulator-5554": {"wait": "fixed", "settle_ms": 1000},
                            "R58M123": {"drain_interval_ms": 800}}}"#,
        )
        .unwrap();
        let adb = c.timing_for("emulator-5554");
        assert_eq!((adb.wait, adb.settle_ms), (WaitMode::Fixed, 1000));
        assert_eq!((adb.drain_interval_ms, adb.action_pause_ms), (250, 100));
        let phone = c.timing_for("R58M123");
        assert_eq!(
            (phone.wait, phone.drain_interval_ms),
            (WaitMode::Evidence, 800)
        );
        assert_eq!(c.timing_for("sim-1"), c.timing);
        assert_eq!(c.timing_for("emulator-555"), c.timing, "ids match exactly");
    }

    #[test]
    fn fixed_mode_is_a_top_level_choice_too() {
        let c = parse(r#"{"wait": "fixed", "poll_ms": 20}"#).unwrap();
        assert_eq!((c.timing.wait, c.timing.poll_ms), (WaitMode::Fixed, 20));
        assert_eq!(c.timing.settle_ms, Timing::default().settle_ms);
    }

    #[test]
    fn unknown_keys_and_values_are_refused_with_their_place() {
        let (field, message) = refused(r#"{"sttle_ms": 300}"#);
        assert_eq!(field, "timing.sttle_ms");
        assert!(message.contains("unknown field"), "{message}");

        let (field, message) = refused(r#"{"devices": {"sim-1": {"setle_ms": 1}}}"#);
        assert_eq!(field, "timing.devices.sim-1.setle_ms");
        assert!(message.contains("unknown field"), "{message}");

        let (field, _) = refused(r#"{"devices": {"sim-1": {"devices": {}}}}"#);
        assert_eq!(field, "timing.devices.sim-1.devices", "entries do not nest");

        let (field, message) = refused(r#"{"wait": "fast"}"#);
        assert_eq!(field, "timing.wait");
        assert!(message.contains("fast"), "{message}");
    }

    #[test]
    fn a_zero_drain_interval_or_poll_is_refused_where_it_is_written() {
        let (field, _) = refused(r#"{"drain_interval_ms": 0}"#);
        assert_eq!(field, "timing.drain_interval_ms");
        let (field, _) = refused(r#"{"devices": {"sim-2": {"drain_interval_ms": 0}}}"#);
        assert_eq!(field, "timing.devices.sim-2.drain_interval_ms");
        let (field, _) = refused(r#"{"poll_ms": 0}"#);
        assert_eq!(field, "timing.poll_ms");
        let (field, _) = refused(r#"{"devices": {" ": {}}}"#);
        assert_eq!(field, "timing.devices. ");
        // Zero settle and pause stay valid: they mean "do not wait".
        assert!(parse(r#"{"settle_ms": 0, "action_pause_ms": 0}"#).is_ok());
    }
}
