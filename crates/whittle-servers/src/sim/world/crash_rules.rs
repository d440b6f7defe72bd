//! The crash rules at work: which rules an action triggers (flaky ones drawn from the
//! world's seed), and the crash itself, recorded in the device's crash log and capture.
use std::sync::Arc;

use super::{DelayedCrash, World};
use crate::sim::flaky;
use crate::sim::logcat::logcat_line;
use crate::sim::model::Trigger;
use crate::sim::stack;

impl World {
    /// Delivers a scheduled crash if the process that scheduled it still runs.
    pub fn deliver_delayed(&mut self, crash: &DelayedCrash) {
        let alive = self.devices[crash.device]
            .app
            .as_ref()
            .is_some_and(|a| a.generation == crash.generation);
        if alive {
            self.crash(crash.device, crash.rule);
        }
    }

    /// Evaluates the crash rules for `trigger`; an immediate crash kills the process
    /// now (and ends evaluation), delayed ones are returned for scheduling. Conditions
    /// see the state before the action's own effects; `enter` sees the state on arrival.
    pub(super) fn fire(&mut self, dev: usize, trigger: &Trigger) -> Vec<DelayedCrash> {
        let model = Arc::clone(&self.model);
        let mut delayed = Vec::new();
        for (index, rule) in model.crashes.iter().enumerate() {
            let Some(app) = &self.devices[dev].app else {
                break;
            };
            let matches = rule.on.to_trigger().is_ok_and(|t| &t == trigger)
                && rule.when.iter().all(|(k, c)| c.holds(app.state.get(k)));
            if !matches {
                continue;
            }
            let device = &self.devices[dev];
            if !flaky::fires(
                self.seed,
                device.number,
                device.launches,
                index,
                rule.probability,
            ) {
                continue;
            }
            if rule.delay_ms == 0 {
                self.crash(dev, index);
                break;
            }
            delayed.push(DelayedCrash {
                device: dev,
                generation: app.generation,
                rule: index,
                delay_ms: rule.delay_ms,
            });
        }
        delayed
    }

    /// The process dies with rule `rule`'s crash, recorded in the crash log.
    fn crash(&mut self, dev: usize, rule: usize) {
        let model = Arc::clone(&self.model);
        let Some(rule) = model.crashes.get(rule) else {
            return;
        };
        let Some(app) = self.devices[dev].app.take() else {
            return;
        };
        let now = chrono::Utc::now();
        let device = &mut self.devices[dev];
        let text = stack::vary(&rule.stack, device.next_seq(), app.pid, &now);
        device.record_crash(
            now.to_rfc3339(),
            rule.kind,
            rule.process(&model),
            text.clone(),
        );
        tracing::info!(device = %device.id, crash = %rule.name, "simulated crash");
        let tag = match rule.kind {
            whittle_core::model::CrashKind::Java => "AndroidRuntime",
            whittle_core::model::CrashKind::Anr => "ActivityManager",
            whittle_core::model::CrashKind::Native => "DEBUG",
        };
        let mut lines: Vec<String> = text
            .lines()
            .map(|l| logcat_line(&now, app.pid, 'E', tag, l))
            .collect();
        lines.push(logcat_line(
            &now,
            app.pid,
            'I',
            "Process",
            &format!("Sending signal. PID: {} SIG: 9", app.pid),
        ));
        let id = device.id.clone();
        self.captures.lock().append(&id, &lines);
    }
}
