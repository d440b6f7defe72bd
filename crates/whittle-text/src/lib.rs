//! Everything Whittle says to a person about a result, once per language: the report
//! block (terminal, `report.md`, the app's result view), the rates block, the static
//! suggestion, and the CLI's own lines around them. The wording is in
//! [`catalogue`] — one static value of one struct per language, so a sentence missing
//! in one language does not compile — and the layout in the renderers here, so every
//! language states the same facts. The core decides; this crate only words.

mod catalogue;
mod colour;
mod locale;
mod rates;
mod report;
mod static_suggestion;
mod step_path;

pub use catalogue::{
    catalogue, Catalogue, CliWords, ExitMeaning, ExitWords, RateWords, ReportWords, StaticWords,
};
pub use colour::{colour_allowed, no_colour_asked, stderr_colour_allowed, NO_COLOR};
pub use locale::{Locale, LOCALE_VARS};
pub use rates::{render_rate_lines, render_rate_lines_in};
pub use report::{
    render_proof_table, render_proof_table_in, render_report, render_report_in,
    render_reproof_line, render_resumed_line, ReportInput,
};
pub use static_suggestion::{render_static_suggestion, StaticInput};
pub use step_path::format_path;

/// An infrastructure failure, in English, quoting what the server or device said.
pub fn failure_text(cause: &whittle_core::engine::FailureCause) -> String {
    (catalogue(Locale::En).report.failure)(cause)
}

/// A note about what an imported flow held beyond its steps, in English (the MCP
/// answer's words).
pub fn import_note_text(note: &whittle_core::import::ImportNote) -> String {
    (catalogue(Locale::En).cli.import_note)(note)
}

/// A warning of a run, in English (the `--json` object's and `result.json`'s words).
pub fn warning_text(warning: &whittle_core::assessment::Warning) -> String {
    (catalogue(Locale::En).report.warning)(warning)
}
