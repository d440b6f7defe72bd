use serde::{Deserialize, Serialize};

/// A region of a screenshot to obscure, in image pixels, with why it is masked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct MaskRect {
    pub x: u32,
    pub y: u32,
    pub w: u32,
    pub h: u32,
    pub reason: String,
}

impl MaskRect {
    /// From `[left, top, right, bottom]` bounds; `None` when the box is empty after
    /// clamping negative coordinates to the screen's edge.
    pub fn from_bounds(bounds: [i32; 4], reason: &str) -> Option<MaskRect> {
        let [l, t, r, b] = bounds.map(|v| v.max(0) as u32);
        (r > l && b > t).then(|| MaskRect {
            x: l,
            y: t,
            w: r - l,
            h: b - t,
            reason: reason.to_string(),
        })
    }

    /// The part of this rectangle inside a `width` x `height` image, as (x0, y0, x1, y1).
    pub(crate) fn clip(&self, width: u32, height: u32) -> Option<(u32, u32, u32, u32)> {
        let x1 = self.x.saturating_add(self.w).min(width);
        let y1 = self.y.saturating_add(self.h).min(height);
        (x1 > self.x && y1 > self.y).then_some((self.x, self.y, x1, y1))
    }
}
