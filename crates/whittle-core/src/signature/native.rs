//! Native crashes (debuggerd/tombstone output): the signal plus the top symbolized frames
//! of the crashing thread as `library.so!symbol`, without offsets, addresses, BuildIds or
//! the random parts of `/data/app/...==/` install paths.
use std::sync::LazyLock;

use regex::Regex;

use super::frames::MAX_FRAMES;
use super::Extracted;
use crate::model::CrashKind;

static SIGNAL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"signal \d+ \((SIG[A-Z0-9]+)\)").expect("signal regex"));
static CAUSE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?m)^\s*Cause:\s*([A-Za-z][A-Za-z ]*)").expect("cause regex"));
static PROCESS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r">>>\s*(\S+)\s*<<<").expect("native process regex"));
/// `#00 pc 000000000001e728  /system/lib64/libc.so (abort+120)`
static BACKTRACE_FRAME: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*#(\d+)\s+pc\s+[0-9a-fA-F]+\s+(\S+)(.*)$").expect("bt regex"));
static OFFSET: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\+(?:0x[0-9a-fA-F]+|\d+)$").expect("offset regex"));

/// Library folders of the platform; frames elsewhere (mostly `/data/app`) are app code.
const SYSTEM_DIRS: &[&str] = &[
    "/system/",
    "/apex/",
    "/vendor/",
    "/product/",
    "/system_ext/",
];

pub fn looks_like(text: &str) -> bool {
    SIGNAL.is_match(text) || text.contains("*** *** ***") || text.contains("backtrace:")
}

#[derive(Debug, Clone)]
struct NativeFrame {
    library: String,
    symbol: String,
    app: bool,
}

impl NativeFrame {
    fn qualified(&self) -> String {
        format!("{}!{}", self.library, self.symbol)
    }
}

pub fn extract(lines: &[&str]) -> Option<Extracted> {
    let text = lines.join("\n");
    let signal = SIGNAL.captures(&text).map(|c| c[1].to_string());
    let frames = key_frames(&crashing_thread_frames(lines));
    if signal.is_none() && frames.is_empty() {
        return None;
    }
    let signal_label = signal.as_deref().unwrap_or("native crash");
    let top: Vec<String> = frames.iter().map(NativeFrame::qualified).collect();
    let label = match frames.first() {
        Some(f) => format!("{signal_label} @ {}", short_symbol(&f.symbol)),
        None => signal_label.to_string(),
    };
    let mut key = format!(
        "native|{}|{}",
        signal.as_deref().unwrap_or(""),
        top.join(";")
    );
    if frames.is_empty() {
        // No backtrace (truncated report): fall back to what the header still says.
        let cause = CAUSE.captures(&text).map(|c| c[1].trim().to_lowercase());
        let process = PROCESS.captures(&text).map(|c| c[1].to_string());
        key.push_str(&format!(
            "|cause={}|process={}",
            cause.unwrap_or_default(),
            process.unwrap_or_default()
        ));
    }
    Some(Extracted {
        kind: CrashKind::Native,
        key_body: key,
        top_frames: top,
        label,
        stable: !frames.is_empty(),
    })
}

/// The first backtrace only: a tombstone lists other threads after it, each restarting
/// at `#00`.
fn crashing_thread_frames(lines: &[&str]) -> Vec<NativeFrame> {
    let mut out = Vec::new();
    let mut seen_any = false;
    for line in lines {
        let Some(c) = BACKTRACE_FRAME.captures(line) else {
            continue;
        };
        if seen_any && c[1].parse::<u32>().ok() == Some(0) {
            break;
        }
        seen_any = true;
        let path = &c[2];
        let Some(symbol) = symbol_of(&c[3]) else {
            continue;
        };
        out.push(NativeFrame {
            library: basename(path).to_string(),
            symbol,
            app: !SYSTEM_DIRS.iter().any(|d| path.starts_with(d)),
        });
    }
    out
}

/// App frames when there are some, else the top symbolized frames.
fn key_frames(frames: &[NativeFrame]) -> Vec<NativeFrame> {
    let app: Vec<NativeFrame> = frames
        .iter()
        .filter(|f| f.app)
        .take(MAX_FRAMES)
        .cloned()
        .collect();
    if app.is_empty() {
        frames.iter().take(MAX_FRAMES).cloned().collect()
    } else {
        app
    }
}

/// The symbol in the first parenthesized group after the path (`(abort+120)`), with its
/// offset removed; `(BuildId: ..)` and `(offset 0x..)` are not symbols.
fn symbol_of(rest: &str) -> Option<String> {
    let rest = rest.trim_start();
    let inner = rest.strip_prefix('(')?;
    let mut depth = 1usize;
    let mut end = None;
    for (i, ch) in inner.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    end = Some(i);
                    break;
                }
            }
            _ => {}
        }
    }
    let group = inner[..end?].trim();
    if group.is_empty() || group.starts_with("BuildId:") || group.starts_with("offset ") {
        return None;
    }
    let symbol = OFFSET.replace(group, "").trim().to_string();
    (!symbol.is_empty()).then_some(symbol)
}

/// Last path component; `base.apk!libfoo.so` keeps only the embedded library name.
fn basename(path: &str) -> &str {
    let last = path.rsplit('/').next().unwrap_or(path);
    last.rsplit('!').next().unwrap_or(last)
}

/// `art::Runtime::Abort(char const*)` → `Runtime::Abort`, for labels.
fn short_symbol(symbol: &str) -> String {
    let name = symbol.split('(').next().unwrap_or(symbol);
    let parts: Vec<&str> = name.rsplitn(3, "::").collect();
    match parts.as_slice() {
        [method, class, ..] => format!("{class}::{method}"),
        _ => name.to_string(),
    }
}
