//! What the filmstrip adds to `whittle minimize`'s output: how many frames of the
//! minimal path the final confirmation took, and the device time they cost (from the
//! evidence's `filmstrip/filmstrip.json`; nothing when no frame was taken).

use serde_json::{json, Map, Value};
use whittle_service::api::FilmstripRecord;
use whittle_service::api::RunOutcome;

fn record(outcome: &RunOutcome) -> Option<FilmstripRecord> {
    let record = FilmstripRecord::read(outcome.evidence_dir.as_deref()?);
    (!record.strips.is_empty()).then_some(record)
}

/// Adds `filmstrip: {frames, extra_device_ms}` (the strip that will be exported).
pub fn add_json_fields(outcome: &RunOutcome, map: &mut Map<String, Value>) {
    if let Some(record) = record(outcome) {
        let frames = record
            .strips
            .iter()
            .find(|s| s.reproduced)
            .map_or(0, |s| s.frames.iter().filter(|f| f.src.is_some()).count());
        map.insert(
            "filmstrip".into(),
            json!({ "frames": frames, "extra_device_ms": record.extra_ms() }),
        );
    }
}

pub fn print_line(outcome: &RunOutcome) {
    let Some(record) = record(outcome) else {
        return;
    };
    let Some(strip) = record.strips.iter().find(|s| s.reproduced) else {
        println!(
            "Filmstrip: no final confirmation reproduced the crash, so no filmstrip ({:.1} s \
             of device time spent on frames).",
            record.extra_ms() as f64 / 1000.0
        );
        return;
    };
    let shown = strip.frames.iter().filter(|f| f.src.is_some()).count();
    println!(
        "Filmstrip: {shown} of {} frames of the minimal path (masked; the rest omitted), \
         {:.1} s of extra device time; exported with the bundle.",
        strip.frames.len(),
        record.extra_ms() as f64 / 1000.0
    );
}
