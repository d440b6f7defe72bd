//! ANRs: the reason class ("Input dispatching timed out", "executing service"...) with its
//! specifics (component, event, pid) removed, plus the main thread's top frames.
use std::sync::LazyLock;

use regex::Regex;

use super::extracted::Extracted;
use super::frames::{key_frames, parse_frame, Frame};
use crate::model::CrashKind;

/// Reason classes Android prints, most specific first; matched case-insensitively.
const KNOWN_REASONS: &[&str] = &[
    "Input dispatching timed out",
    "executing service",
    "Broadcast of Intent",
    "ContentProvider not responding",
    "Context.startForegroundService() did not then call Service.startForeground()",
    "keyDispatchingTimedOut",
    "Application is not responding",
];

static REASON: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?m)^\s*(?:Reason|Subject):\s*(.+)$").expect("reason regex"));
/// `am_anr  : [user,pid,package,flags,reason]`
static AM_ANR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)am_anr\s*:\s*\[\d+,\d+,[^,\]]*,\d+,([^\]\n]*)").expect("am_anr regex")
});
static PROCESS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)(?:ANR in\s+|^\s*Cmd line:\s*)([A-Za-z0-9_.:]+)").expect("anr process regex")
});
/// A thread header of a traces dump: `"main" prio=5 tid=1 Runnable`. Dumps whose
/// whitespace was collapsed put it right after the previous frame, so it is not anchored.
static THREAD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#""([^"\n]*)"\s+(?:daemon\s+)?prio="#).expect("thread regex"));

/// True when `text` looks like an ANR report or a traces dump.
pub fn looks_like(text: &str) -> bool {
    text.contains("ANR in ")
        || text.contains("am_anr")
        || text.contains("DALVIK THREADS")
        || text.contains("Input dispatching timed out")
        || THREAD.is_match(text)
}

pub fn extract(lines: &[&str]) -> Option<Extracted> {
    let text = lines.join("\n");
    let reason = reason_class(&text);
    let process = PROCESS.captures(&text).map(|c| c[1].to_string());
    let frames = key_frames(&blocking_thread_frames(&text));
    if reason.is_none() && frames.is_empty() {
        return None;
    }
    let reason_label = reason.as_deref().unwrap_or("");
    let label = match (frames.first(), reason_label.is_empty()) {
        (Some(f), true) => format!("ANR in {}", f.short()),
        (Some(f), false) => format!("ANR {reason_label} in {}", f.short()),
        (None, _) => format!("ANR {reason_label}"),
    };
    let qualified: Vec<String> = frames.iter().map(Frame::qualified).collect();
    let mut key = format!(
        "anr|{}|{}",
        reason_label.to_lowercase(),
        qualified.join(";")
    );
    if frames.is_empty() {
        // Only the reason is known: the process is what tells two such ANRs apart.
        key.push_str(&format!("|process={}", process.as_deref().unwrap_or("")));
    }
    Some(Extracted {
        kind: CrashKind::Anr,
        key_body: key,
        top_frames: qualified,
        label,
        stable: !frames.is_empty(),
    })
}

/// The reason with everything specific to this occurrence dropped.
fn reason_class(text: &str) -> Option<String> {
    let raw = REASON
        .captures(text)
        .or_else(|| AM_ANR.captures(text))
        .map(|c| c[1].trim().to_string());
    let haystack = raw.as_deref().unwrap_or(text).to_lowercase();
    if let Some(known) = KNOWN_REASONS
        .iter()
        .find(|k| haystack.contains(&k.to_lowercase()))
    {
        return Some((*known).to_string());
    }
    // Unknown reason: keep its leading plain words, stop at the first specific token
    // (a component name, a number, a bracket).
    let raw = raw?;
    let words: Vec<&str> = raw
        .split_whitespace()
        .take_while(|w| {
            w.chars()
                .all(|c| c.is_alphabetic() || c == '-' || c == '\'')
        })
        .collect();
    (!words.is_empty()).then(|| words.join(" "))
}

/// Frames of the main thread; a dump without one (a system_server deadlock excerpt) falls
/// back to the first thread that has managed frames.
fn blocking_thread_frames(text: &str) -> Vec<Frame> {
    let starts: Vec<(usize, String)> = THREAD
        .captures_iter(text)
        .filter_map(|c| Some((c.get(0)?.start(), c.get(1)?.as_str().to_string())))
        .collect();
    if starts.is_empty() {
        return frames_in(text);
    }
    let sections: Vec<(&str, &str)> = starts
        .iter()
        .enumerate()
        .map(|(i, (start, name))| {
            let end = starts.get(i + 1).map(|(s, _)| *s).unwrap_or(text.len());
            (name.as_str(), &text[*start..end])
        })
        .collect();
    if let Some((_, body)) = sections.iter().find(|(name, _)| *name == "main") {
        let frames = frames_in(body);
        if !frames.is_empty() {
            return frames;
        }
    }
    sections
        .iter()
        .map(|(_, body)| frames_in(body))
        .find(|f| !f.is_empty())
        .unwrap_or_default()
}

fn frames_in(section: &str) -> Vec<Frame> {
    section.lines().filter_map(parse_frame).collect()
}
