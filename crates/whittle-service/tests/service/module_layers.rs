//! whittle-service's top-level modules import one another without a cycle, along the
//! layers drawn in `docs/architecture.md` ("Inside the application layer"): a module
//! imports only modules of a lower layer, so each can be read, tested and changed
//! knowing only what lies below it. `LAYERS` is that drawing; adding a top-level
//! module means placing it here and there.
//!
//! The reader itself is tested on made-up crates (`module_layers/graph_tests.rs`), so
//! each form of import it must see is shown to be seen.

mod graph;
mod graph_tests;

use std::path::Path;

use graph::{describe, find_cycle, layer_violations, read_graph};

/// Lowest first. A module may import only modules of a lower layer.
const LAYERS: &[&[&str]] = &[
    // Leaves: the configuration, the folder lock, the device lease, the journal key and
    // the safe-name rule.
    &[
        "config",
        "device_lease",
        "folder_lock",
        "journal_key",
        "safe_chars",
    ],
    // The MCP client; masking; the bundle format (knows nothing of evidence sessions);
    // the sidecar file (written under the folder lock).
    &["client", "export", "mask", "sidecar"],
    // One replay over the client; the doctor's checks.
    &["doctor", "replay"],
    // What a run reports and leaves as `result.json`.
    &["result"],
    // An evidence session's files: screenshots, review, filmstrip, its export.
    &["evidence"],
    // Watching a replay live: masked frames of a device, never archived.
    &["watch"],
    // The minimize run and its resume.
    &["run"],
    // Recording a session by replaying a flow, with the run's evidence and device choice.
    &["import"],
    // The application API the front ends call: every action, over all of the above.
    &["api"],
];

const SRC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src");

#[test]
fn the_modules_import_one_another_without_a_cycle() {
    let graph = read_graph(Path::new(SRC)).unwrap();
    if let Some(cycle) = find_cycle(&graph) {
        panic!(
            "whittle-service has a module cycle: {}",
            describe(&graph, &cycle)
        );
    }
}

#[test]
fn every_import_goes_down_the_drawn_layers() {
    let graph = read_graph(Path::new(SRC)).unwrap();
    let violations = layer_violations(&graph, LAYERS);
    assert!(
        violations.is_empty(),
        "whittle-service's modules leave the layers of docs/architecture.md:\n{}",
        violations.join("\n")
    );
}
