//! The crash-identity corpus (`tests/fixtures/stacks/`, described in `manifest.json` there
//! and sourced in `tests/fixtures/SOURCES.md`): real Android stacks from public issue
//! trackers plus documented derivations. Every stack must read as its kind; every pair
//! marked `same` (one crash, two builds or two reports) must share one fingerprint; every
//! pair marked `different` must not; and no two stacks outside one `same` group may collide.
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::Deserialize;
use whittle_core::model::CrashKind;
use whittle_core::signature::{compute_signature, Signature};

fn corpus_dir() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/stacks"
    ))
}

#[derive(Debug, Deserialize)]
struct Manifest {
    stacks: Vec<Entry>,
    pairs: Vec<Pair>,
}

#[derive(Debug, Deserialize)]
struct Entry {
    file: String,
    kind: CrashKind,
    fingerprint: bool,
    stable: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Relation {
    Same,
    Different,
}

#[derive(Debug, Deserialize)]
struct Pair {
    relation: Relation,
    a: String,
    b: String,
    why: String,
}

fn manifest() -> Manifest {
    let path = corpus_dir().join("manifest.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn read(rel: &str) -> String {
    let path = corpus_dir().join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn signature(rel: &str) -> Signature {
    compute_signature(&read(rel), None)
}

fn is_derived(rel: &str) -> bool {
    rel.contains("_DERIVED")
}

fn files_under(dir: &Path, base: &Path, out: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(&path, base, out);
        } else if path.extension().is_some_and(|e| e == "txt") {
            let rel = path.strip_prefix(base).unwrap().to_string_lossy();
            out.insert(rel.replace('\\', "/"));
        }
    }
}

#[test]
fn the_manifest_lists_every_stack_file_exactly_once() {
    let manifest = manifest();
    let listed: Vec<&str> = manifest.stacks.iter().map(|s| s.file.as_str()).collect();
    let unique: BTreeSet<String> = listed.iter().map(|s| s.to_string()).collect();
    assert_eq!(unique.len(), listed.len(), "a file is listed twice");
    let mut on_disk = BTreeSet::new();
    files_under(&corpus_dir(), &corpus_dir(), &mut on_disk);
    assert_eq!(unique, on_disk, "manifest and tests/fixtures/stacks differ");
    for pair in &manifest.pairs {
        assert!(
            unique.contains(&pair.a) && unique.contains(&pair.b),
            "{pair:?}"
        );
        assert_ne!(pair.a, pair.b, "{pair:?}");
        assert!(!pair.why.is_empty(), "{pair:?}");
    }
}

/// The corpus is mostly real reports, and some `same` pairs are two real reports.
#[test]
fn the_corpus_is_made_of_real_stacks() {
    let manifest = manifest();
    let real = manifest
        .stacks
        .iter()
        .filter(|s| !is_derived(&s.file))
        .count();
    assert!(real >= 30, "only {real} real stacks");
    let real_same = manifest
        .pairs
        .iter()
        .filter(|p| p.relation == Relation::Same && !is_derived(&p.a) && !is_derived(&p.b))
        .count();
    assert!(real_same >= 5, "only {real_same} pairs of two real reports");
    for kind in [CrashKind::Java, CrashKind::Anr, CrashKind::Native] {
        assert!(
            manifest.pairs.iter().any(|p| p.relation == Relation::Same
                && manifest
                    .stacks
                    .iter()
                    .any(|s| s.file == p.a && s.kind == kind)),
            "no same-crash pair of kind {kind:?}"
        );
    }
}

#[test]
fn every_stack_reads_as_its_kind() {
    let build_specific = regex::Regex::new(
        r"\.(java|kt):\d|\$r8\$lambda\$[\w-]|lambda\$\w+\$\d|\$lambda[-$]\d|\$\d|classes\d+\.dex",
    )
    .unwrap();
    for entry in manifest().stacks {
        let text = read(&entry.file);
        let detected = compute_signature(&text, None);
        assert_eq!(detected.kind, entry.kind, "{}", entry.file);
        assert_eq!(
            detected.fingerprint.is_some(),
            entry.fingerprint,
            "{}: {detected:?}",
            entry.file
        );
        assert_eq!(
            detected.stable, entry.stable,
            "{}: {detected:?}",
            entry.file
        );
        // The log record's kind, when the server sends it, leads to the same answer.
        let hinted = compute_signature(&text, Some(entry.kind));
        assert_eq!(hinted, detected, "{}", entry.file);
        if let Some(key) = &detected.canonical_key {
            // Nothing build- or run-specific may reach the key.
            for noise in [
                "ExternalSyntheticLambda",
                "-$$Lambda$",
                "BuildId",
                "==",
                ".llvm.",
            ] {
                assert!(!key.contains(noise), "{}: {noise} in {key}", entry.file);
            }
            assert!(
                !build_specific.is_match(key),
                "{}: a build-specific name in {key}",
                entry.file
            );
        }
    }
}

#[test]
fn pairs_relate_as_the_manifest_says() {
    for pair in manifest().pairs {
        let (a, b) = (signature(&pair.a), signature(&pair.b));
        assert!(
            a.fingerprint.is_some() && b.fingerprint.is_some(),
            "{pair:?}: a pair needs two fingerprints"
        );
        match pair.relation {
            Relation::Same => {
                assert_ne!(read(&pair.a), read(&pair.b), "{pair:?}: identical texts");
                assert_eq!(
                    a.canonical_key, b.canonical_key,
                    "{} ({})",
                    pair.why, pair.a
                );
                assert_eq!(a.fingerprint, b.fingerprint, "{}", pair.why);
                assert_eq!(a.label, b.label, "{}", pair.why);
            }
            Relation::Different => {
                assert_ne!(
                    a.fingerprint, b.fingerprint,
                    "{}: {:?}",
                    pair.why, a.canonical_key
                );
            }
        }
    }
}

/// Stacks join a group through `same` pairs; two stacks of different groups are different
/// crashes, so no fingerprint may be shared across groups.
#[test]
fn no_fingerprint_is_shared_outside_a_same_group() {
    let manifest = manifest();
    let mut group: BTreeMap<String, usize> = manifest
        .stacks
        .iter()
        .enumerate()
        .map(|(i, s)| (s.file.clone(), i))
        .collect();
    for pair in manifest
        .pairs
        .iter()
        .filter(|p| p.relation == Relation::Same)
    {
        let (from, to) = (group[&pair.b], group[&pair.a]);
        for g in group.values_mut() {
            if *g == from {
                *g = to;
            }
        }
    }
    let mut owner: BTreeMap<String, (usize, String)> = BTreeMap::new();
    for entry in &manifest.stacks {
        let Some(fp) = signature(&entry.file).fingerprint else {
            continue;
        };
        let mine = group[&entry.file];
        if let Some((theirs, other)) = owner.get(&fp) {
            assert_eq!(
                *theirs, mine,
                "{} and {other} share {fp} but are not the same crash",
                entry.file
            );
        } else {
            owner.insert(fp, (mine, entry.file.clone()));
        }
    }
}
