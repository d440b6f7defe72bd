//! Native crashes (debuggerd/tombstone output): the signal plus the top symbolized frames
//! of the crashing thread as `library.so!symbol`, without offsets, addresses, BuildIds or
//! the random parts of `/data/app/...==/` install paths.
use std::sync::LazyLock;

use regex::Regex;

use super::extracted::Extracted;
use super::frames::MAX_FRAMES;
use super::synthetic::normalize_symbol;
use crate::model::CrashKind;

static SIGNAL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"signal \d+ \((SIG[A-Z0-9]+)\)").expect("signal regex"));
static CAUSE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?m)^\s*Cause:\s*([A-Za-z][A-Za-z ]*)").expect("cause regex"));
static PROCESS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r">>>\s*(\S+)\s*<<<").expect("native process regex"));
/// `#00 pc 000000000001e728  /system/lib64/libc.so (abort+120)`; some crash reporters
/// print `pc 0x...`, `ndk-stack` prints `#00 0x...` without `pc`, and ART names an in-memory dex `[anon:dalvik-classes5.dex extracted
/// in memory from /data/app/...]` (older ones the same without brackets), a path with
/// spaces that is read as one token.
static BACKTRACE_FRAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*#(\d+)\s+(?:pc\s+(?:0x)?|0x)[0-9a-fA-F]+\s+(\[[^\]]*\]|\S+ extracted in memory from \S+(?: \(deleted\))?|\S+)(.*)$")
        .expect("bt regex")
});
static OFFSET: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\+(?:0x[0-9a-fA-F]+|\d+)$").expect("offset regex"));
/// Link-time suffixes clang adds to local symbols (`.llvm.7958`, `.__uniq.1124...`, as a
/// suffix or as ` (.__uniq....)`): they are hashes of the build, not of the code.
static LTO_SUFFIX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\s*\(\.(?:__uniq|llvm)\.[\d.a-z_]+\)|\.(?:__uniq|llvm)\.\d+").expect("lto regex")
});

/// The library name given to frames of managed (Java/Kotlin) code.
const MANAGED_CODE: &str = "managed";

/// Library folders of the platform; frames elsewhere (mostly `/data/app`) are app code.
const SYSTEM_DIRS: &[&str] = &[
    "/system/",
    "/apex/",
    "/vendor/",
    "/product/",
    "/system_ext/",
];

/// A tombstone's header or banner, or (for an excerpt without them) a `#NN pc` frame line.
pub fn looks_like(text: &str) -> bool {
    SIGNAL.is_match(text)
        || text.contains("*** *** ***")
        || text.contains("backtrace:")
        || text.lines().any(|l| BACKTRACE_FRAME.is_match(l))
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
        Some(f) => format!("{signal_label} in {}", short_symbol(&f.symbol)),
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
        // A managed method's container (base.odex, base.vdex, an in-memory classesN.dex)
        // depends on how far ART had compiled the app, not on the code: name none.
        let library = if is_managed_symbol(&symbol) {
            MANAGED_CODE.to_string()
        } else {
            basename(path).to_string()
        };
        out.push(NativeFrame {
            library,
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
    let symbol = OFFSET.replace(group, "");
    let symbol = LTO_SUFFIX.replace_all(&symbol, "");
    let symbol = symbol.trim();
    if symbol.is_empty() {
        return None;
    }
    // A managed method run from a dex/oat file (`com.x.A.$r8$lambda$Qx1b`) carries the
    // same build-specific names as a Java frame.
    if is_managed_symbol(symbol) {
        return Some(normalize_symbol(symbol));
    }
    Some(symbol.to_string())
}

/// `pkg.Class.method` with no C++ scope or argument list.
fn is_managed_symbol(symbol: &str) -> bool {
    symbol.contains('.') && !symbol.contains("::") && !symbol.contains('(') && !symbol.contains(' ')
}

/// Last path component; `base.apk!libfoo.so` keeps only the embedded library name.
fn basename(path: &str) -> &str {
    let path = path.trim_end_matches(" (deleted)").trim_end_matches(']');
    let last = path.rsplit('/').next().unwrap_or(path);
    last.rsplit('!').next().unwrap_or(last)
}

/// `art::Runtime::Abort(char const*)` → `Runtime::Abort`, `pkg.Class.method` →
/// `Class.method`, for labels.
fn short_symbol(symbol: &str) -> String {
    if is_managed_symbol(symbol) {
        // `pkg.Class.method` → `Class.method`
        let parts: Vec<&str> = symbol.rsplitn(3, '.').collect();
        return match parts.as_slice() {
            [method, class, ..] => format!("{class}.{method}"),
            _ => symbol.to_string(),
        };
    }
    let name = symbol.split('(').next().unwrap_or(symbol);
    let parts: Vec<&str> = name.rsplitn(3, "::").collect();
    match parts.as_slice() {
        [method, class, ..] => format!("{class}::{method}"),
        _ => name.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_time_suffixes_and_offsets_are_not_part_of_a_symbol() {
        for (rest, expected) in [
            (
                " (_ZN3art11interpreterL7ExecuteEPNS_6ThreadEb.llvm.795806162+378)",
                "_ZN3art11interpreterL7ExecuteEPNS_6ThreadEb",
            ),
            (
                " (art::interpreter::Execute(art::Thread*, bool) (.__uniq.1124354180117519.llvm.18012138979834229341)+232) (BuildId: 2452917c)",
                "art::interpreter::Execute(art::Thread*, bool)",
            ),
            (" (abort+120)", "abort"),
            (" (com.x.A.$r8$lambda$RY9z_AnJy4o-OkftUA2INcQhiCA)", "com.x.A.$r8$lambda$"),
        ] {
            assert_eq!(symbol_of(rest).as_deref(), Some(expected), "{rest}");
        }
        for none in [" (BuildId: 3914dc78)", " (offset 0x820000)", "", " ()"] {
            assert_eq!(symbol_of(none), None, "{none}");
        }
    }

    #[test]
    fn managed_code_is_one_library_whatever_holds_it() {
        let frames = crashing_thread_frames(&[
            "#00 pc 0001  /data/app/~~a==/p-b==/oat/arm64/base.odex (com.x.A.run+12)",
            "#01 pc 0002  [anon:dalvik-classes5.dex extracted in memory from /data/app/~~a==/p-b==/base.apk!classes5.dex] (com.x.B.go)",
            "#02 pc 0003  /dev/ashmem/dalvik-classes.dex extracted in memory from /data/app/p-b==/base.apk (deleted) (com.x.C.call+4)",
            "#03 0x0004 /data/app/~~a==/p-b==/lib/arm64/libx.so (x::y()+8)",
        ]);
        let names: Vec<String> = frames.iter().map(NativeFrame::qualified).collect();
        assert_eq!(
            names,
            [
                "managed!com.x.A.run",
                "managed!com.x.B.go",
                "managed!com.x.C.call",
                "libx.so!x::y()"
            ]
        );
        assert!(frames.iter().all(|f| f.app));
    }
}
