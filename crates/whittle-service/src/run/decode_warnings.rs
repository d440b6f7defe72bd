//! Where a run leaves the answers it read leniently (`docs/tool-contract.md`): one line
//! per (server, tool) in the run's warnings and at the end of its report, and the typed
//! list in `decode-warnings.json` in the evidence session. A lenient read never fails a
//! run; these records are how a user learns that a server is out of contract.

use std::fmt::Write as _;
use std::path::Path;

use crate::atomic::{write_atomic, FileMode};
use crate::client::DecodeWarning;

/// The evidence session's file of decode warnings; written only when there are some.
pub const DECODE_WARNINGS_FILE: &str = "decode-warnings.json";

/// Writes `<evidence>/decode-warnings.json` (a JSON list) when `warnings` is not empty.
pub(crate) fn write_decode_warnings(
    evidence_dir: &Path,
    warnings: &[DecodeWarning],
) -> std::io::Result<()> {
    if warnings.is_empty() {
        return Ok(());
    }
    let json = serde_json::to_vec_pretty(warnings).map_err(std::io::Error::other)?;
    write_atomic(
        &evidence_dir.join(DECODE_WARNINGS_FILE),
        &json,
        FileMode::Private,
    )
}

/// The decode warnings of a finished run, empty when it has none (or the file is not
/// a list of them).
pub fn read_decode_warnings(evidence_dir: &Path) -> Vec<DecodeWarning> {
    std::fs::read(evidence_dir.join(DECODE_WARNINGS_FILE))
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default()
}

/// The lines appended to the run's report; empty without warnings.
pub(crate) fn report_block(warnings: &[DecodeWarning]) -> String {
    let mut out = String::new();
    if warnings.is_empty() {
        return out;
    }
    let _ = writeln!(
        out,
        "\nAnswers read leniently (no verdict rests on these fields; see {DECODE_WARNINGS_FILE}):"
    );
    for w in warnings {
        let _ = writeln!(out, "  - {w}");
    }
    out
}

#[cfg(test)]
mod tests {
    use whittle_contract::Role;

    use super::*;
    use crate::client::{JsonType, Leniency, Tolerated};

    #[test]
    fn written_only_when_there_are_warnings_and_read_back_typed() {
        let dir = tempfile::tempdir().unwrap();
        write_decode_warnings(dir.path(), &[]).unwrap();
        assert!(!dir.path().join(DECODE_WARNINGS_FILE).exists());
        assert!(report_block(&[]).is_empty());

        let warning = DecodeWarning {
            server: "peer".into(),
            role: Role::Log,
            tool: "get_recent_crashes".into(),
            tolerated: vec![Tolerated {
                field: "crashes[].ts".into(),
                what: Leniency::Converted {
                    from: JsonType::Number,
                    to: JsonType::String,
                },
            }],
            more: 0,
        };
        write_decode_warnings(dir.path(), std::slice::from_ref(&warning)).unwrap();
        assert_eq!(
            read_decode_warnings(dir.path()),
            std::slice::from_ref(&warning)
        );
        let raw: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.path().join(DECODE_WARNINGS_FILE)).unwrap())
                .unwrap();
        assert_eq!(raw[0]["tolerated"][0]["what"]["kind"], "converted");
        assert_eq!(raw[0]["tolerated"][0]["what"]["from"], "number");
        let block = report_block(&[warning]);
        assert!(
            block.contains("peer server (role log) tool get_recent_crashes"),
            "{block}"
        );
    }
}
