//! Where the hierarchy lies on the image: the hierarchy speaks in screen pixels, the
//! screenshot may be the same size or uniformly scaled (mobile-mcp's `maxSize`, 1024 px
//! by default for its screenshots). Anything else means the two do not describe each
//! other, and the screenshot is omitted.

use whittle_contract::ui::Hierarchy;

use super::{MaskRect, OmitReason};

/// The hierarchy's bounding box must span at least this share of the image on each axis:
/// a window may leave out the system bars (a 1794-px-high app window on a 1920-px
/// screen), but a dialog-only or split-screen dump does not describe the screenshot.
const MIN_COVERAGE: f64 = 0.8;
/// How far a scaled edge may land from the image's edge: one pixel of rounding.
const SCALE_TOLERANCE_PX: f64 = 1.0;
/// Scaled masks grow by this much beyond their outward-rounded edges: a resampling filter
/// spreads a glyph's ink into the neighbouring output pixels.
const SCALED_MARGIN_PX: f64 = 2.0;
/// Scales beyond this are not screenshots of this screen.
const MAX_SCALE_RATIO: f64 = 16.0;

/// How the hierarchy maps onto the image.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Fit {
    /// Image pixels per screen pixel; exactly 1.0 when the image is not scaled.
    pub scale: f64,
    /// The hierarchy's bounding box in screen pixels `[left, top, right, bottom]`.
    pub frame: [i64; 4],
}

/// The bounding box of the visible nodes, in screen pixels (negative edges clamped to 0),
/// or `None` when no visible node has an area.
pub(crate) fn frame_of(h: &Hierarchy) -> Option<[i64; 4]> {
    h.elements
        .iter()
        .filter(|e| e.visible && e.bounds[2] > e.bounds[0] && e.bounds[3] > e.bounds[1])
        .map(|e| e.bounds.map(|v| i64::from(v).max(0)))
        .reduce(|a, b| {
            [
                a[0].min(b[0]),
                a[1].min(b[1]),
                a[2].max(b[2]),
                a[3].max(b[3]),
            ]
        })
}

/// Fits `frame` onto a `width` x `height` image: as it is when it lies inside the image
/// and covers most of it, else as a uniform scale whose right and bottom edges land on
/// the image's (a scaled screenshot is the whole screen, so the frame must reach both
/// edges; a mismatched aspect ratio cannot).
pub(crate) fn fit(frame: [i64; 4], width: u32, height: u32) -> Result<Fit, OmitReason> {
    let (w, h) = (f64::from(width), f64::from(height));
    let [l, t, r, b] = frame.map(|v| v as f64);
    let covers = |s: f64| (r - l) * s >= MIN_COVERAGE * w && (b - t) * s >= MIN_COVERAGE * h;
    if r <= w && b <= h && covers(1.0) {
        return Ok(Fit { scale: 1.0, frame });
    }
    let plausible = |s: f64| (1.0 / MAX_SCALE_RATIO..=MAX_SCALE_RATIO).contains(&s);
    if r > 0.0 && b > 0.0 {
        for scale in [w / r, h / b] {
            let edges_meet = (r * scale - w).abs() <= SCALE_TOLERANCE_PX
                && (b * scale - h).abs() <= SCALE_TOLERANCE_PX;
            if plausible(scale) && edges_meet && covers(scale) {
                return Ok(Fit { scale, frame });
            }
        }
    }
    Err(OmitReason::ExtentMismatch {
        width,
        height,
        frame,
    })
}

impl Fit {
    /// A mask in screen pixels as image pixels. Scaled edges round outward and grow by a
    /// margin, so a mask never covers less than its element; unscaled masks are exact.
    pub(crate) fn on_image(&self, m: &MaskRect) -> MaskRect {
        if self.scale == 1.0 {
            return m.clone();
        }
        let s = self.scale;
        let lo = |v: u32| (f64::from(v) * s - SCALED_MARGIN_PX).floor().max(0.0);
        let hi = |v: u32| (f64::from(v) * s + SCALED_MARGIN_PX).ceil().max(0.0);
        let (x0, y0) = (lo(m.x), lo(m.y));
        let (x1, y1) = (hi(m.x.saturating_add(m.w)), hi(m.y.saturating_add(m.h)));
        // Saturating float-to-int casts: a mask past u32::MAX is clipped at burn time.
        MaskRect {
            x: x0 as u32,
            y: y0 as u32,
            w: (x1 - x0) as u32,
            h: (y1 - y0) as u32,
            reason: m.reason.clone(),
        }
    }

    /// The parts of the image the hierarchy does not reach (system bars a window leaves
    /// out, the slack of a scaled edge), as up to four strips around the scaled frame.
    pub(crate) fn outside(&self, width: u32, height: u32) -> Vec<MaskRect> {
        let s = self.scale;
        let clamp = |v: f64, max: u32| v.clamp(0.0, f64::from(max)) as u32;
        let l = clamp((self.frame[0] as f64 * s).floor(), width);
        let t = clamp((self.frame[1] as f64 * s).floor(), height);
        let r = clamp((self.frame[2] as f64 * s).ceil(), width).max(l);
        let b = clamp((self.frame[3] as f64 * s).ceil(), height).max(t);
        let strip = |x: u32, y: u32, x1: u32, y1: u32| {
            (x1 > x && y1 > y).then(|| MaskRect {
                x,
                y,
                w: x1 - x,
                h: y1 - y,
                reason: "outside the UI hierarchy".into(),
            })
        };
        [
            strip(0, 0, width, t),
            strip(0, b, width, height),
            strip(0, t, l, b),
            strip(r, t, width, b),
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x: u32, y: u32, w: u32, h: u32) -> MaskRect {
        MaskRect {
            x,
            y,
            w,
            h,
            reason: "t".into(),
        }
    }

    #[test]
    fn same_size_or_a_window_without_the_system_bars_is_unscaled() {
        assert_eq!(fit([0, 0, 1080, 2400], 1080, 2400).unwrap().scale, 1.0);
        let fit = fit([0, 0, 1080, 1794], 1080, 1920).unwrap();
        assert_eq!(fit.scale, 1.0);
        assert_eq!(
            fit.outside(1080, 1920),
            vec![MaskRect {
                x: 0,
                y: 1794,
                w: 1080,
                h: 126,
                reason: "outside the UI hierarchy".into()
            }]
        );
    }

    #[test]
    fn a_uniform_downscale_is_found_from_either_edge() {
        // mobile-mcp's default: the longer side to 1024, the other rounded.
        let f = fit([0, 0, 1080, 2400], 461, 1024).unwrap();
        assert!((f.scale - 1024.0 / 2400.0).abs() < 0.001, "{f:?}");
        let f = fit([0, 0, 1080, 2400], 540, 1200).unwrap();
        assert_eq!(f.scale, 0.5);
        assert!(f.outside(540, 1200).is_empty());
    }

    #[test]
    fn a_mismatched_aspect_a_partial_frame_or_a_larger_frame_is_refused() {
        for (frame, w, h) in [
            ([0, 0, 1080, 2400], 600, 1024),     // other aspect ratio
            ([0, 0, 1080, 2400], 2400, 1080),    // rotated
            ([63, 900, 1017, 1500], 1080, 2400), // a dialog's window only
            ([0, 1600, 1080, 2400], 1080, 2400), // a bottom sheet only
            ([0, 0, 1080, 2400], 1080, 2000),    // taller than the image, not scaled
        ] {
            assert!(
                matches!(fit(frame, w, h), Err(OmitReason::ExtentMismatch { .. })),
                "{frame:?} on {w}x{h}"
            );
        }
    }

    #[test]
    fn scaled_masks_round_outward_and_never_shrink() {
        let f = fit([0, 0, 1080, 2400], 461, 1024).unwrap();
        let m = f.on_image(&rect(40, 552, 1000, 120));
        let s = f.scale;
        assert!(f64::from(m.x) <= 40.0 * s && f64::from(m.y) <= 552.0 * s);
        assert!(f64::from(m.x + m.w) >= 1040.0 * s && f64::from(m.y + m.h) >= 672.0 * s);
        // Unscaled masks stay exactly as they were.
        let one = fit([0, 0, 100, 100], 100, 100).unwrap();
        assert_eq!(one.on_image(&rect(1, 2, 3, 4)), rect(1, 2, 3, 4));
    }
}
