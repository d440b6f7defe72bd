//! The inspector: what a tester sees when they click a point of an archived (masked)
//! screenshot, and which nodes came closest to a locator that found nothing there.
//!
//! The hierarchy is archived next to each screenshot as a list of [`InspectNode`]s,
//! already in the picture's pixels and with private values already blanked, so
//! everything here is pure: no I/O, no clock. The matching rules are Whittle's own
//! (plan/element_match.rs): a node those rules would find scores 1.0 in
//! [`nearest_nodes`], and the locator [`locator_of`] proposes finds its node again.

mod at_point;
mod locator_of;
mod nearest;
mod node;
mod similarity;

pub use at_point::nodes_at;
pub use locator_of::locator_of;
pub use nearest::{nearest_nodes, NearMatch, MIN_NEAR_SCORE};
pub use node::InspectNode;
