//! The live view (issue 32): a run whose front end watches gets masked frames of the
//! device while each replay goes on — several per replay, changing as the replay moves,
//! each naming the step being replayed and, on the frame before its action, outlining
//! its element — and none of them is left in the evidence.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::sync::Mutex;

use tokio_util::sync::CancellationToken;
use whittle_service::api::{LiveFrame, Watched};
use whittle_service::client::Hub;
use whittle_service::run::{minimize, RunEvent};

use crate::client_support::servers_bin;
use crate::live_support::{fast, options};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watched_run_streams_masked_frames_of_each_replay_and_archives_none() {
    let Some(bin) = servers_bin() else { return };
    // No waits at all: a look taken only beside the replay would miss most actions'
    // screens; the replay waits for the frame before each action, so none is missed.
    let s = fast(&bin);
    let frames: Mutex<Vec<LiveFrame>> = Mutex::new(Vec::new());
    let started: Mutex<BTreeMap<u32, Vec<u32>>> = Mutex::new(BTreeMap::new());
    let sink = Watched {
        events: |event: RunEvent| {
            if let RunEvent::AttemptStarted {
                attempt, candidate, ..
            } = event
            {
                started.lock().unwrap().insert(attempt, candidate);
            }
        },
        frames: |frame: LiveFrame| frames.lock().unwrap().push(frame),
    };
    let hub = Hub::connect(&s.config).await.unwrap();
    // A few replays are enough to watch (the run ends on its budget).
    let mut spec = options();
    spec.max_replays = std::num::NonZeroU32::new(6).unwrap();
    let outcome = minimize(&hub, &s.config, spec, sink, CancellationToken::new())
        .await
        .unwrap();
    hub.shutdown().await;
    let frames = frames.into_inner().unwrap();
    let started = started.into_inner().unwrap();

    // Frames came for most replays, several for some, and they change.
    let attempts: HashSet<u32> = frames.iter().map(|f| f.attempt).collect();
    assert!(
        attempts.len() * 2 >= started.len(),
        "frames for {} of {} attempts",
        attempts.len(),
        started.len()
    );
    let per_attempt = |a: u32| frames.iter().filter(|f| f.attempt == a).count();
    assert!(attempts.iter().any(|&a| per_attempt(a) >= 3));
    let pictures: HashSet<&str> = frames
        .iter()
        .filter_map(|f| f.image.as_ref().map(|i| i.data_url.as_str()))
        .collect();
    assert!(pictures.len() >= 2, "every frame showed the same screen");

    for frame in &frames {
        assert_eq!(frame.device, "sim-1");
        let candidate = &started[&frame.attempt];
        // The step is one the attempt replays.
        if let Some(step) = frame.step {
            assert!(candidate.contains(&step), "{frame:?} not in {candidate:?}");
        }
        match &frame.image {
            Some(image) => {
                assert!(image.data_url.starts_with("data:image/png;base64,"));
                assert!(image.height <= 480 && image.width > 0);
                if let Some([l, t, r, b]) = frame.outline {
                    assert!(0 <= l && l < r && r <= image.width as i32 + 1);
                    assert!(0 <= t && t < b && b <= image.height as i32 + 1);
                }
            }
            None => assert!(frame.omitted.is_some() && frame.outline.is_none()),
        }
    }
    // A tap's element is outlined on the frame before its action, and only there.
    assert!(
        frames
            .iter()
            .any(|f| f.before_action && f.outline.is_some()),
        "no frame outlined the element of its step"
    );
    for f in &frames {
        assert!(f.before_action || f.outline.is_none(), "{f:?}");
        assert!(f.step.is_some() || !f.before_action, "{f:?}");
        // Worded from the plan in the frame itself, for a host that holds no plan.
        assert_eq!(f.step.is_some(), f.step_words.is_some(), "{f:?}");
    }
    // The replay waits for that frame, so every action it took has one: per replay, the
    // steps shown before their actions are consecutive steps of its candidate (the
    // launch is no action; a crash ends the run of steps early).
    for &attempt in &attempts {
        let mut acted: Vec<u32> = Vec::new();
        for f in frames
            .iter()
            .filter(|f| f.attempt == attempt && f.before_action)
        {
            let step = f.step.expect("a step");
            if acted.last() != Some(&step) {
                assert!(
                    !acted.contains(&step),
                    "step {step} shown before its action twice"
                );
                acted.push(step);
            }
        }
        let Some(first) = acted.first() else { continue };
        let candidate = &started[&attempt];
        let at = candidate.iter().position(|s| s == first).unwrap();
        assert_eq!(
            acted,
            candidate[at..at + acted.len()],
            "attempt {attempt}: an action went without its frame"
        );
    }
    // Per replay, the numbers count up.
    let mut last: BTreeMap<u32, u32> = BTreeMap::new();
    for f in &frames {
        let before = last.insert(f.attempt, f.seq).unwrap_or(0);
        assert!(f.seq > before);
    }

    // Nothing of the live view is in the evidence: its pictures are the attempts'
    // screenshots and the filmstrip's frames, no more.
    let evidence = s.config.workspace.join("sessions").join(
        outcome
            .summary
            .evidence_session
            .as_deref()
            .expect("an evidence session"),
    );
    for png in pngs(&evidence) {
        let rel = png
            .strip_prefix(&evidence)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        assert!(
            rel.starts_with("screenshots/") || rel.starts_with("filmstrip/"),
            "{rel} is not an evidence picture"
        );
    }
}

fn pngs(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(pngs(&path));
        } else if path.extension().is_some_and(|e| e == "png") {
            out.push(path);
        }
    }
    out
}
