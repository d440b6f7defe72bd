//! The inspector over a kept picture (an attempt's screenshot or a filmstrip frame): the
//! hierarchy nodes under a point, and on an attempt that stopped at "element not found"
//! the nodes closest to the locator that found nothing. Each node comes with the locator
//! a tester copies, written by the same code that writes the exported Maestro flow and
//! Robo script. The nodes are the ones archived with the picture, already blanked where
//! it is masked (`mask/nodes.rs`).

use std::path::Path;

use serde::Serialize;
use whittle_core::inspect::{locator_of, nearest_nodes, nodes_at, InspectNode};
use whittle_core::plan::{build_plan, By, ReplayAction, Strategy};
use whittle_core::session::{load_session, parse_meta, resolve_session_dir, META_FILE};

use super::pictures::{evidence_dir, PictureError};
use crate::evidence::{review_shot, PictureName};
use crate::export::{maestro_selector, robo_descriptor};

/// How many near nodes are listed for a locator that found nothing.
const NEAREST: usize = 5;

/// A node as the inspector shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct InspectedNode {
    pub resource_id: String,
    /// Empty when `masked`.
    pub text: String,
    pub content_desc: String,
    pub class: String,
    /// `[left, top, right, bottom]` in the picture's pixels.
    pub bounds: [i32; 4],
    /// Its words were private (under a mask, or private-looking) and are not shown.
    pub masked: bool,
    /// The node as a Maestro selector (`id: "…"` or `text: "…"`), when it has a name.
    pub maestro: Option<String>,
    /// The node as a Robo script element descriptor (JSON), when Robo can name it.
    pub robo: Option<String>,
}

/// A node close to a locator that found nothing.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct NearNode {
    pub node: InspectedNode,
    /// 0 to 1; 1 is the same value.
    pub score: f64,
    /// What of the node was compared.
    pub matched_on: By,
}

/// The nodes of `picture` under `(x, y)` (picture pixels), innermost first. A picture
/// archived before the inspector has none.
pub fn inspect_point(
    workspace: &str,
    evidence_session: &str,
    picture: &str,
    x: i32,
    y: i32,
) -> Result<Vec<InspectedNode>, PictureError> {
    let nodes = picture_nodes(workspace, evidence_session, picture)?;
    Ok(nodes_at(&nodes, x, y)
        .into_iter()
        .filter_map(|i| nodes.get(i))
        .map(inspected)
        .collect())
}

/// The nodes of `picture` closest to the element plan step `step` looks for, best first:
/// for an attempt that stopped because that element was not found. Empty when the step
/// acts on no element (a button press) or nothing comes close.
pub fn nearest_to_step(
    workspace: &str,
    evidence_session: &str,
    picture: &str,
    step: u32,
) -> Result<Vec<NearNode>, PictureError> {
    let nodes = picture_nodes(workspace, evidence_session, picture)?;
    let dir = evidence_dir(workspace, evidence_session)?;
    let Some(locator) = step_locator(Path::new(workspace), &dir, step)? else {
        return Ok(Vec::new());
    };
    Ok(nearest_nodes(&nodes, &locator, NEAREST)
        .into_iter()
        .filter_map(|near| {
            Some(NearNode {
                node: inspected(nodes.get(near.index)?),
                score: near.score,
                matched_on: near.matched_on,
            })
        })
        .collect())
}

fn picture_nodes(
    workspace: &str,
    evidence_session: &str,
    picture: &str,
) -> Result<Vec<InspectNode>, PictureError> {
    let dir = evidence_dir(workspace, evidence_session)?;
    let name: PictureName =
        picture.parse().map_err(
            |e: crate::evidence::NotAPicture| PictureError::Unavailable {
                detail: e.to_string(),
            },
        )?;
    let shot = review_shot(&dir, name).map_err(|e| PictureError::Unavailable {
        detail: e.to_string(),
    })?;
    Ok(shot.record.nodes)
}

/// The locator of plan step `step` of the session the evidence session minimized (its
/// meta names it and the crash): the run's own plan, built again from the session.
fn step_locator(
    workspace: &Path,
    evidence_dir: &Path,
    step: u32,
) -> Result<Option<Strategy>, PictureError> {
    let unavailable = |detail: String| PictureError::Unavailable { detail };
    let meta_file = std::fs::File::open(evidence_dir.join(META_FILE))
        .map_err(|e| unavailable(format!("the evidence session's meta cannot be read: {e}")))?;
    let meta = parse_meta(meta_file).map_err(|e| unavailable(e.to_string()))?;
    let field = |name: &str| {
        meta.extra
            .get(name)
            .and_then(|v| v.as_str())
            .map(str::to_owned)
    };
    let (Some(original), Some(crash_id)) = (field("original_session"), field("crash_id")) else {
        return Err(unavailable(
            "the evidence session does not name the session it minimized".into(),
        ));
    };
    let dir = resolve_session_dir(workspace, &original).map_err(|e| unavailable(e.to_string()))?;
    let session = load_session(&dir).map_err(|e| unavailable(e.to_string()))?;
    let Some(crash) = session.crashes.iter().find(|c| c.crash_id == crash_id) else {
        return Err(unavailable(format!(
            "the session has no crash {crash_id:?}"
        )));
    };
    let plan =
        build_plan(&session.steps, &crash.repro_path).map_err(|e| unavailable(e.to_string()))?;
    Ok(plan.step(step).and_then(|s| match &s.action {
        ReplayAction::Tap { strategy }
        | ReplayAction::LongPress { strategy }
        | ReplayAction::InputText { strategy, .. } => Some(strategy.clone()),
        ReplayAction::PressButton { .. } | ReplayAction::Relaunch { .. } => None,
    }))
}

fn inspected(node: &InspectNode) -> InspectedNode {
    let locator = locator_of(node);
    InspectedNode {
        resource_id: node.resource_id.clone(),
        text: node.text.clone(),
        content_desc: node.content_desc.clone(),
        class: node.class.clone(),
        bounds: node.bounds,
        masked: node.masked,
        maestro: locator
            .as_ref()
            .map(|l| maestro_selector(l).trim_end().to_owned()),
        robo: locator
            .as_ref()
            .and_then(robo_descriptor)
            .map(|v| v.to_string()),
    }
}
