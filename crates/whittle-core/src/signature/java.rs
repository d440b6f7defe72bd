//! Java/Kotlin exceptions: the exception class chain (top exception and each `Caused by`)
//! and the frames that say where it was thrown.
use std::sync::LazyLock;

use regex::Regex;

use super::extracted::Extracted;
use super::frames::{key_frames, parse_frame, Frame};
use super::synthetic::normalize_class;
use crate::model::CrashKind;

/// `[Exception in thread "x" ]pkg.Class[: message]`; a header needs a qualified name.
/// Crash consoles prefix it: Crashlytics with `Fatal Exception: ` / `Non-fatal Exception: `,
/// Play Console with a bare `Exception `.
static EXCEPTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"^\s*(?:Exception in thread "[^"]*"\s+|(?:Fatal|Non-fatal) Exception:\s*|Exception\s+)?([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+)\s*(?::|$)"#,
    )
    .expect("exception regex")
});
/// `Caused by: pkg.Class`; Play Console and Crashlytics omit the colon.
static CAUSED_BY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*Caused by:?\s+([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)")
        .expect("caused-by regex")
});
static SUPPRESSED: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(\s*)Suppressed:").expect("suppressed regex"));
static PROCESS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*Process:\s*([^\s,]+)").expect("process regex"));

/// One exception of the chain and the frames printed under it.
struct Block {
    class: String,
    frames: Vec<Frame>,
}

pub fn extract(lines: &[&str]) -> Option<Extracted> {
    let process = lines
        .iter()
        .find_map(|l| PROCESS.captures(l).map(|c| c[1].to_string()));
    let blocks = exception_blocks(lines)?;
    let chain: Vec<String> = blocks.iter().map(|b| b.class.clone()).collect();
    // The top exception's own frames name the throw site; when those are all framework
    // code, the first cause with app frames is the more telling place.
    let frames = blocks
        .iter()
        .map(|b| {
            b.frames
                .iter()
                .filter(|f| f.is_app())
                .cloned()
                .collect::<Vec<_>>()
        })
        .find(|app| !app.is_empty())
        .map(|app| key_frames(&app))
        .unwrap_or_else(|| key_frames(&blocks[0].frames));

    let simple = simple_class(&chain[0]);
    // Named by its first app frame, with the connector every view uses (`in`). `jdk.*`
    // frames are the platform's, but the fingerprint (version 2) keys on them as app
    // frames, so only the name skips them.
    let named = frames
        .iter()
        .find(|f| !f.class.starts_with("jdk."))
        .or(frames.first());
    let label = match named {
        Some(f) => format!("{simple} in {}", f.short()),
        None => simple.to_string(),
    };
    let stable = !frames.is_empty();
    let top_frames: Vec<String> = frames.iter().map(Frame::qualified).collect();
    let mut key = format!("java|{}|{}", chain.join(">"), top_frames.join(";"));
    if frames.is_empty() {
        // Without frames only the class chain and the process tell crashes apart.
        key.push_str(&format!("|process={}", process.as_deref().unwrap_or("")));
    }
    Some(Extracted {
        kind: CrashKind::Java,
        key_body: key,
        top_frames,
        label,
        stable,
    })
}

/// Finds the exception header (the line right above the first frame, or a lone header
/// line) and collects the chain; `Suppressed:` blocks are skipped, they are not causes.
fn exception_blocks(lines: &[&str]) -> Option<Vec<Block>> {
    let first_frame = lines.iter().position(|l| parse_frame(l).is_some());
    let above_first_frame = first_frame.and_then(|i| {
        lines[..i]
            .iter()
            .rposition(|l| !l.trim().is_empty())
            .filter(|&h| EXCEPTION.is_match(lines[h]))
    });
    let header_at = match above_first_frame {
        Some(h) => h,
        None => lines.iter().position(|l| is_header_line(l))?,
    };
    let header = EXCEPTION.captures(lines[header_at])?;
    let mut blocks = vec![Block {
        class: normalize_class(&header[1]),
        frames: Vec::new(),
    }];
    let mut suppressed_indent: Option<usize> = None;
    for line in &lines[header_at + 1..] {
        if let Some(c) = SUPPRESSED.captures(line) {
            suppressed_indent.get_or_insert(indent_width(&c[1]));
            continue;
        }
        if let Some(c) = CAUSED_BY.captures(line) {
            match suppressed_indent {
                Some(s) if indent_width(line) >= s => continue,
                _ => suppressed_indent = None,
            }
            blocks.push(Block {
                class: normalize_class(&c[1]),
                frames: Vec::new(),
            });
            continue;
        }
        if suppressed_indent.is_some() {
            continue;
        }
        // A report that holds the crash twice (pasted logs, a restart loop) starts over with
        // a new header: the first stack ends there.
        let has_frames = blocks.iter().any(|b| !b.frames.is_empty());
        if has_frames && (line.contains("FATAL EXCEPTION") || is_header_line(line)) {
            break;
        }
        if let Some(frame) = parse_frame(line) {
            if let Some(block) = blocks.last_mut() {
                block.frames.push(frame);
            }
        }
    }
    Some(blocks)
}

/// A header line without frames: only accepted when it names an exception or error.
fn is_header_line(line: &str) -> bool {
    EXCEPTION
        .captures(line)
        .map(|c| {
            let name = simple_class(&c[1]);
            name.ends_with("Exception") || name.ends_with("Error") || name.ends_with("Throwable")
        })
        .unwrap_or(false)
}

fn indent_width(s: &str) -> usize {
    s.chars()
        .take_while(|c| c.is_whitespace())
        .map(|c| if c == '\t' { 4 } else { 1 })
        .sum()
}

/// `android.app.RemoteServiceException$ForegroundServiceDidNotStartInTimeException` →
/// `ForegroundServiceDidNotStartInTimeException`.
pub fn simple_class(class: &str) -> &str {
    let last = class.rsplit('.').next().unwrap_or(class);
    match last.rsplit('$').find(|s| !s.is_empty()) {
        Some(inner) => inner,
        None => last,
    }
}
