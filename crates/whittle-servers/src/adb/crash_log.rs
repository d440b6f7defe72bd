//! Crash records in logcat threadtime output (`logcat -b crash` and the ActivityManager
//! lines): Java `FATAL EXCEPTION` blocks, native `DEBUG` tombstone blocks and `ANR in`
//! blocks. A block is the header line plus the following lines of the same pid, tid, tag
//! and level; other processes' lines may interleave and are skipped. Only threadtime is
//! read because this server always asks logcat for it.
use sha2::{Digest, Sha256};
use whittle_contract::log::LogCrash;
use whittle_core::model::CrashKind;

use super::threadtime::{parse_line, LogLine};

/// Hex digits of a record id: 64 bits, plenty for the records of one device log.
const RECORD_ID_HEX: usize = 16;

struct Open {
    kind: CrashKind,
    key: (u32, u32, String, char),
    ts: String,
    record_id: String,
    lines: Vec<String>,
    closed: bool,
}

/// Every crash block in `text`, in the order their first lines appear.
pub fn crash_records(text: &str) -> Vec<LogCrash> {
    let mut blocks: Vec<Open> = Vec::new();
    for line in text.lines().filter_map(parse_line) {
        let key = (line.pid, line.tid, line.tag.to_string(), line.level);
        let open = blocks
            .iter()
            .rposition(|b| !b.closed && b.key.0 == key.0 && b.key.1 == key.1 && b.key.2 == key.2);
        if let Some(kind) = header_kind(&line, open.map(|i| blocks[i].kind)) {
            if let Some(i) = open {
                blocks[i].closed = true;
            }
            blocks.push(Open {
                kind,
                record_id: record_id(&line),
                ts: line.ts.to_string(),
                key,
                lines: vec![line.message.to_string()],
                closed: false,
            });
        } else if let Some(b) = open.map(|i| &mut blocks[i]) {
            if b.key.3 == line.level {
                b.lines.push(line.message.to_string());
            } else {
                // e.g. `I ActivityManager: Killing …` right after an `E` ANR block.
                b.closed = true;
            }
        }
    }
    blocks
        .into_iter()
        .map(|b| {
            let stack = b.lines.join("\n");
            LogCrash {
                process: process_of(b.kind, &b.lines),
                record_id: b.record_id,
                ts: b.ts,
                kind: b.kind,
                stack,
            }
        })
        .collect()
}

/// Whether `line` starts a block; `open` is the kind of the block already open for the
/// same pid/tid/tag (a tombstone without its `*** ***` banner starts at `Build
/// fingerprint:` only when no block is open).
fn header_kind(line: &LogLine<'_>, open: Option<CrashKind>) -> Option<CrashKind> {
    let msg = line.message.trim_start();
    match line.tag {
        "AndroidRuntime" if msg.starts_with("FATAL EXCEPTION") => Some(CrashKind::Java),
        "DEBUG" if msg.starts_with("*** *** ***") => Some(CrashKind::Native),
        "DEBUG" if msg.starts_with("Build fingerprint:") && open.is_none() => {
            Some(CrashKind::Native)
        }
        "ActivityManager" if msg.starts_with("ANR in ") => Some(CrashKind::Anr),
        _ => None,
    }
}

/// The record's identity: its first line's timestamp, pid, tid and tag. The same record
/// read again (another `logcat -d`) gets the same id; two crashes never share a first line.
fn record_id(line: &LogLine<'_>) -> String {
    let digest = Sha256::digest(format!(
        "{}|{}|{}|{}",
        line.ts, line.pid, line.tid, line.tag
    ));
    digest
        .iter()
        .take(RECORD_ID_HEX / 2)
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn process_of(kind: CrashKind, lines: &[String]) -> String {
    let found = lines.iter().find_map(|l| {
        let l = l.trim();
        match kind {
            // `Process: com.example.shop, PID: 1234`
            CrashKind::Java => l
                .strip_prefix("Process: ")
                .map(|r| r.split(',').next().unwrap_or(r)),
            // `pid: 2509, tid: 2509, name: now.graphicdemo  >>> com.albertsnow.graphicdemo <<<`
            CrashKind::Native => l
                .split_once(">>> ")
                .and_then(|(_, r)| r.split_once(" <<<"))
                .map(|(p, _)| p),
            // `ANR in com.example.shop (com.example.shop/.MainActivity)`
            CrashKind::Anr => l
                .strip_prefix("ANR in ")
                .and_then(|r| r.split_whitespace().next()),
        }
    });
    found.unwrap_or("").trim().to_string()
}

/// Whether a record belongs to `package` (its main process or one of its `:sub` processes).
pub fn belongs_to(crash: &LogCrash, package: &str) -> bool {
    whittle_core::model::runs_in_app(&crash.process, package)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = "\
01-02 10:00:00.000  1000  1000 E AndroidRuntime: FATAL EXCEPTION: main
01-02 10:00:00.000  1000  1000 E AndroidRuntime: Process: com.example.shop, PID: 1000
01-02 10:00:00.001  2000  2000 I OtherApp: interleaved
01-02 10:00:00.000  1000  1000 E AndroidRuntime: java.lang.IllegalStateException: boom
01-02 10:00:00.000  1000  1000 E AndroidRuntime: \tat com.example.shop.Cart.checkout(Cart.kt:10)
--------- beginning of crash
01-02 10:00:05.000  1000  1200 E AndroidRuntime: FATAL EXCEPTION: worker
01-02 10:00:05.000  1000  1200 E AndroidRuntime: Process: com.example.shop:sync, PID: 1000
01-02 10:00:05.000  1000  1200 E AndroidRuntime: java.lang.RuntimeException: sync
";

    #[test]
    fn blocks_are_split_by_header_and_skip_interleaved_lines() {
        let r = crash_records(TWO);
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].kind, CrashKind::Java);
        assert_eq!(r[0].process, "com.example.shop");
        assert_eq!(r[0].ts, "01-02 10:00:00.000");
        assert_eq!(
            r[0].stack,
            "FATAL EXCEPTION: main\nProcess: com.example.shop, PID: 1000\n\
             java.lang.IllegalStateException: boom\n\tat com.example.shop.Cart.checkout(Cart.kt:10)"
        );
        assert_eq!(r[1].process, "com.example.shop:sync");
        assert_ne!(r[0].record_id, r[1].record_id);
        assert_eq!(r[0].record_id.len(), RECORD_ID_HEX);
    }

    #[test]
    fn record_ids_are_stable_across_reads() {
        let later = format!(
            "{TWO}01-02 10:00:09.000  3000  3000 E AndroidRuntime: FATAL EXCEPTION: main\n"
        );
        let (a, b) = (crash_records(TWO), crash_records(&later));
        assert_eq!(b.len(), 3);
        assert_eq!(a[0].record_id, b[0].record_id);
        assert_eq!(a[1].record_id, b[1].record_id);
    }

    #[test]
    fn sub_processes_belong_to_their_package_and_prefixes_do_not() {
        let r = crash_records(TWO);
        assert!(belongs_to(&r[0], "com.example.shop"));
        assert!(belongs_to(&r[1], "com.example.shop"));
        assert!(!belongs_to(&r[0], "com.example.sho"));
        assert!(!belongs_to(&r[0], "com.example.shop.debug"));
    }

    #[test]
    fn anr_block_ends_at_a_line_of_another_level() {
        let text = "\
10-03 17:19:59.959  1963  1976 E ActivityManager: ANR in com.x (com.x/.Main)
10-03 17:19:59.959  1963  1976 E ActivityManager: PID: 18819
10-03 17:19:59.959  1963  1976 E ActivityManager: Reason: Input dispatching timed out
10-03 17:19:59.960  1963  1976 I ActivityManager: Killing 18819:com.x/u0a1 (adj 0): bg anr
10-03 17:19:59.961  1963  1976 E ActivityManager: unrelated later error
";
        let r = crash_records(text);
        assert_eq!(r.len(), 1);
        assert_eq!(
            (r[0].kind, r[0].process.as_str()),
            (CrashKind::Anr, "com.x")
        );
        assert_eq!(r[0].stack.lines().count(), 3);
    }
}
