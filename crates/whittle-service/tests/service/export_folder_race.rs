//! An agent's export racing a folder swapped for a symbolic link (docs/SECURITY.md §9,
//! "Exports an agent asks for"): while bundle after bundle is exported into
//! `<workspace>/exports/team/a` as `whittle mcp`'s export does it
//! (`export_to_allowed_folder`: `open_export_folder`, then the bundle made inside that
//! handle), another thread keeps replacing `team` (a folder on the way) or `a` (the
//! destination itself) with a link to a folder outside. Checked then written by path,
//! some bundles landed outside; written inside a handle opened without following links,
//! none may.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::export_support::{input, shots};
use whittle_service::api::{
    default_export_folder, open_export_folder, AgentExportError, Config, EvidenceExportError,
    FolderProblem,
};
use whittle_service::export::{export_bundle_in, read_bundle, ExportError};

const EXPORTS: usize = 120;
/// How long a link stands in a folder's place each time.
const LINK_HELD: Duration = Duration::from_micros(300);

/// Why an export did not happen: the folder's opening, or the bundle's writing.
#[derive(Debug)]
enum Failure {
    Open(AgentExportError),
    Write(ExportError),
}

/// Swaps `path` for a link to `outside` for a moment, then puts the folder back.
/// Best effort: the export may be making the folder at that very moment.
fn swap_once(path: &Path, outside: &Path) {
    let aside = path.with_extension("real");
    if std::fs::rename(path, &aside).is_err() {
        return;
    }
    if std::os::unix::fs::symlink(outside, path).is_ok() {
        // Held by spinning, not sleeping: a sleep on a busy machine lasts far longer than
        // asked, and the link would then refuse export after export instead of racing.
        let until = Instant::now() + LINK_HELD;
        while Instant::now() < until {
            std::hint::spin_loop();
        }
        let _ = std::fs::remove_file(path);
    }
    let _ = std::fs::rename(&aside, path);
}

/// Every folder named `name` under `root` that holds a bundle.
fn bundles_named(root: &Path, name: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut todo = vec![root.to_path_buf()];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                if entry.file_name() == name {
                    found.push(path.clone());
                }
                todo.push(path);
            }
        }
    }
    found
}

#[test]
fn a_folder_swapped_for_a_link_never_takes_an_agents_export_outside() {
    let tmp = tempfile::tempdir().unwrap();
    let workspace = tmp.path().join("ws");
    std::fs::create_dir_all(workspace.join("sessions")).unwrap();
    let text = serde_json::json!({
        "workspace": workspace,
        "mcpServers": {"s": {"command": "true"}},
    });
    let config = Config::parse(&text.to_string(), &tmp.path().join("whittle.json")).unwrap();
    let src = tmp.path().join("evidence");
    std::fs::create_dir(&src).unwrap();
    let bundle = input(shots(&src));
    let exports = default_export_folder(&workspace);
    let team = exports.join("team");
    let destination = team.join("a");
    std::fs::create_dir_all(&destination).unwrap();
    let outside = tmp.path().join("outside");
    std::fs::create_dir(&outside).unwrap();

    let stop = AtomicBool::new(false);
    let outcomes = std::thread::scope(|scope| {
        scope.spawn(|| {
            // A folder on the way, then the destination itself, by turns.
            let mut on_the_way = true;
            while !stop.load(Ordering::SeqCst) {
                swap_once(if on_the_way { &team } else { &destination }, &outside);
                on_the_way = !on_the_way;
                std::thread::sleep(Duration::from_micros(500));
            }
        });
        let outcomes: Vec<_> = (0..EXPORTS)
            .map(|i| {
                let name = format!("t-{i}");
                let result = open_export_folder(&config, &destination)
                    .map_err(Failure::Open)
                    .and_then(|dir| export_bundle_in(&bundle, &dir, &name).map_err(Failure::Write));
                // Leaves the swapping thread a turn on a busy machine.
                std::thread::sleep(Duration::from_micros(200));
                (name, result)
            })
            .collect();
        stop.store(true, Ordering::SeqCst);
        outcomes
    });

    let outside_now: Vec<_> = std::fs::read_dir(&outside).unwrap().flatten().collect();
    assert!(
        outside_now.is_empty(),
        "written outside the allowed folders: {outside_now:?}"
    );
    let (mut written, mut refused, mut failed) = (0, 0, 0);
    for (name, result) in outcomes {
        match result {
            Ok(dir) => {
                written += 1;
                assert_eq!(dir, destination.join(&name));
                // The bundle is where the folder it was made in went (a swap may have
                // moved that folder aside meanwhile), whole, and nowhere else.
                let found = bundles_named(&exports, &name);
                assert_eq!(found.len(), 1, "{name}: {found:?}");
                read_bundle(&found[0]).unwrap_or_else(|e| panic!("{name}: {e}"));
            }
            Err(Failure::Open(AgentExportError::Refused(refusal))) => {
                refused += 1;
                assert_eq!(refusal.problem, FolderProblem::ThroughLink, "{refusal}");
                assert!(bundles_named(&exports, &name).is_empty(), "{name}");
            }
            // The folder was moved aside mid-way (a step not found, or made again by the
            // export just as the swap put it back): failed, typed, nothing kept.
            Err(
                Failure::Open(AgentExportError::Export(EvidenceExportError::Export(
                    ExportError::Io { .. },
                )))
                | Failure::Write(ExportError::Io { .. }),
            ) => {
                failed += 1;
                assert!(
                    bundles_named(&exports, &name)
                        .iter()
                        .all(|b| !b.join("manifest.json").exists()),
                    "{name}: a failed export left a complete bundle"
                );
            }
            Err(other) => panic!("{name}: not a refusal of the folder: {other:?}"),
        }
    }
    println!("{written} written, {refused} refused (a link on the way), {failed} failed mid-way");
    assert_eq!(written + refused + failed, EXPORTS);
    assert!(written > 0, "no export got through the swaps");
}
