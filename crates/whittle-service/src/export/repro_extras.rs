//! The parts of repro.md about the runnable files and the filmstrip, appended after the
//! rest (repro_md renders the rest).

use std::fmt::Write;

use super::repro_md::path_noun;
use super::{ExportInput, ManifestFilmstrip, FILMSTRIP_GIF, MAESTRO_FILE, ROBO_FILE};

pub(crate) fn render(input: &ExportInput, filmstrip: Option<&ManifestFilmstrip>) -> String {
    let path = path_noun(&input.end);
    // The section before may end without a blank line (the review sentence).
    let mut md = String::from("\n");
    let _ = writeln!(md, "## Run it yourself\n");
    let _ = writeln!(
        md,
        "The {path} as a Maestro flow and as a Firebase Test Lab Robo script (values \
         that are private are left out and marked for you to type):\n"
    );
    let _ = writeln!(md, "```sh\nmaestro test {MAESTRO_FILE}\n```\n");
    let _ = writeln!(
        md,
        "`{ROBO_FILE}` goes with a Robo test (`gcloud firebase test android run --type robo \
         --robo-script {ROBO_FILE} …`).\n"
    );
    let Some(film) = filmstrip else {
        return md;
    };
    let _ = writeln!(md, "## Filmstrip\n");
    if let Some(gif) = &film.gif {
        let _ = writeln!(md, "![The {path}, step by step]({gif})\n");
    } else {
        let _ = writeln!(
            md,
            "No frame could be shown ({FILMSTRIP_GIF} not written).\n"
        );
    }
    let _ = writeln!(
        md,
        "Masked screenshots after each step of replay {} (a final confirmation), numbered as \
         the steps above; the frames cost {:.1} s of extra device time.\n",
        film.attempt,
        film.extra_device_ms as f64 / 1000.0
    );
    let _ = writeln!(md, "| Step | Original step | Frame |\n|---|---|---|");
    for frame in &film.frames {
        let step = frame.step.map(|s| s.to_string()).unwrap_or_default();
        let shown = match (&frame.path, &frame.omitted) {
            (Some(path), _) if frame.before_action => {
                format!("`{path}` (right before this step's action, which crashed the app)")
            }
            (Some(path), _) => format!("`{path}`"),
            (None, Some(why)) => format!("omitted: {}", super::redact::safe_line(why)),
            (None, None) => "omitted".into(),
        };
        let _ = writeln!(md, "| {} | {step} | {shown} |", frame.position);
    }
    md.push('\n');
    md
}
