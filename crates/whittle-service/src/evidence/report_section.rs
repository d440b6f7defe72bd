use std::io::Write;
use std::path::Path;

/// Appends the Phase-5 story to the report the report server wrote at finalize.
/// The text holds step indexes and signatures only, never input values.
pub fn append_report_section(report_path: &Path, text: &str) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(report_path)?;
    write!(
        file,
        "\n## Minimize result\n\n```text\n{}\n```\n",
        text.trim_end()
    )?;
    file.sync_all()
}
