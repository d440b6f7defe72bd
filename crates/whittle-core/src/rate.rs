//! How often a candidate reproduced, with its Wilson score interval: "reproduced k of n
//! (95 % interval a–b %)". The Wilson interval stays inside [0, 1] and stays honest at
//! the small counts a minimize run has (0 of 3, 3 of 3), where the normal approximation
//! collapses to a zero-width interval.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The confidence every rate is reported at unless a caller states another.
pub const DEFAULT_CONFIDENCE: f64 = 0.95;

/// `reproduced` of `total` replays, and the two-sided Wilson interval of the true rate
/// at `confidence`. Bounds are fractions in [0, 1].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Rate {
    pub reproduced: u32,
    pub total: u32,
    pub low: f64,
    pub high: f64,
    pub confidence: f64,
}

impl Rate {
    /// The rate of a candidate's verdicts (`true` = reproduced).
    pub fn of(outcomes: &[bool], confidence: f64) -> Rate {
        let reproduced = outcomes.iter().filter(|&&hit| hit).count();
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Rate::wilson(count(reproduced), count(outcomes.len()), confidence)
    }

    /// `reproduced` of `total` at `confidence` (clamped to (0, 1); 0 of 0 is [0, 1]).
    pub fn wilson(reproduced: u32, total: u32, confidence: f64) -> Rate {
        let (low, high) = wilson_interval(reproduced, total, confidence);
        Rate {
            reproduced: reproduced.min(total),
            total,
            low,
            high,
            confidence,
        }
    }

    /// `low` and `high` as whole percents, rounded outwards so the shown interval is
    /// never narrower than the computed one.
    pub fn percent_bounds(&self) -> (u32, u32) {
        let percent = |x: f64| (x * 100.0).clamp(0.0, 100.0);
        // Bounds are within [0, 100] after the clamp, so the casts cannot truncate.
        (
            percent(self.low - 1e-9).floor() as u32,
            percent(self.high + 1e-9).ceil() as u32,
        )
    }

    /// The confidence as a whole percent ("95").
    pub fn confidence_percent(&self) -> u32 {
        (self.confidence * 100.0).round().clamp(0.0, 100.0) as u32
    }
}

impl Rate {
    /// The two intervals do not overlap and this one lies below `other`: at their
    /// confidence, this candidate does not reproduce at `other`'s rate.
    pub fn separated_below(&self, other: &Rate) -> bool {
        self.total > 0 && self.high < other.low
    }
}

/// How many misses in a row put a candidate's Wilson interval (at `confidence`) wholly
/// below `rate_low`: the smallest `m` with `z² / (m + z²) < rate_low` (the upper bound
/// of 0 of `m`). `None` when `rate_low` is 0: no number of misses separates.
pub fn misses_to_rule_out(rate_low: f64, confidence: f64) -> Option<u32> {
    if rate_low.is_nan() || rate_low <= 0.0 {
        return None;
    }
    let z2 = z_two_sided(confidence).powi(2);
    let bound = z2 * (1.0 - rate_low.min(1.0)) / rate_low;
    // `bound` is finite and non-negative here; beyond u32 nothing could be replayed.
    let misses = bound.floor() + 1.0;
    (misses < f64::from(u32::MAX)).then_some(misses as u32)
}

/// "reproduced 3 of 3 (95 % interval 43–100 %)".
impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (low, high) = self.percent_bounds();
        write!(
            f,
            "reproduced {} of {} ({} % interval {low}–{high} %)",
            self.reproduced,
            self.total,
            self.confidence_percent()
        )
    }
}

/// The two-sided Wilson score interval of `k` successes in `n` trials:
/// `(p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n)` with `z` the normal quantile
/// of `(1 + confidence) / 2`.
pub fn wilson_interval(k: u32, n: u32, confidence: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = z_two_sided(confidence);
    let n = f64::from(n);
    let p = f64::from(k.min(n as u32)) / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denominator;
    ((center - half).max(0.0), (center + half).min(1.0))
}

/// The `z` of a two-sided interval at `confidence` (0.95 → 1.96). Out-of-range
/// confidences are clamped to (0.5, 0.999999).
pub fn z_two_sided(confidence: f64) -> f64 {
    let confidence = if confidence.is_nan() {
        DEFAULT_CONFIDENCE
    } else {
        confidence.clamp(0.5, 0.999_999)
    };
    normal_quantile((1.0 + confidence) / 2.0)
}

/// The standard normal quantile (P. J. Acklam's rational approximation, relative error
/// below 1.2e-9: ample for reporting and for sample-size decisions).
fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    const LOW: f64 = 0.024_25;
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < LOW {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - LOW {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn z_matches_the_normal_table() {
        assert!(close(z_two_sided(0.95), 1.959_964, 1e-6));
        assert!(close(z_two_sided(0.80), 1.281_552, 1e-6));
        assert!(close(z_two_sided(0.90), 1.644_854, 1e-6));
        assert!(close(z_two_sided(0.99), 2.575_829, 1e-6));
        assert!(close(z_two_sided(0.999), 3.290_527, 1e-6));
    }

    #[test]
    fn wilson_matches_published_values() {
        // Wilson (1927) as tabulated by Newcombe (1998), Statistics in Medicine 17,
        // table I, method 3: 81/263 → 0.2553–0.3662; 15/148 → 0.0624–0.1605;
        // 0/20 → 0–0.1611; 1/29 → 0.0061–0.1718.
        for (k, n, low, high) in [
            (81, 263, 0.2553, 0.3662),
            (15, 148, 0.0624, 0.1605),
            (0, 20, 0.0, 0.1611),
            (1, 29, 0.0061, 0.1718),
        ] {
            let (l, h) = wilson_interval(k, n, 0.95);
            assert!(
                close(l, low, 1e-4) && close(h, high, 1e-4),
                "{k}/{n}: {l}–{h}"
            );
        }
        // 40 of 100 at 95 %: 0.3094–0.4980; 0 of 1: up to 0.7935.
        let (l, h) = wilson_interval(40, 100, 0.95);
        assert!(close(l, 0.309_40, 1e-5) && close(h, 0.497_999, 1e-5));
        assert!(close(wilson_interval(0, 1, 0.95).1, 0.793_45, 1e-5));
    }

    #[test]
    fn edges_stay_inside_zero_one() {
        assert_eq!(wilson_interval(0, 0, 0.95), (0.0, 1.0));
        let (l, h) = wilson_interval(3, 3, 0.95);
        assert!(close(l, 0.438_51, 1e-5) && h == 1.0);
        let (l, h) = wilson_interval(0, 3, 0.95);
        assert!(l == 0.0 && close(h, 0.561_49, 1e-5));
        // More successes than trials is clamped, never a bound above 1.
        assert_eq!(wilson_interval(9, 3, 0.95), wilson_interval(3, 3, 0.95));
        // A nonsense confidence falls back, never NaN.
        assert!(wilson_interval(1, 2, f64::NAN).0.is_finite());
    }

    #[test]
    fn display_rounds_outwards_and_states_the_confidence() {
        assert_eq!(
            Rate::of(&[true, true, true], 0.95).to_string(),
            "reproduced 3 of 3 (95 % interval 43–100 %)"
        );
        assert_eq!(
            Rate::of(&[false, false, false], 0.95).to_string(),
            "reproduced 0 of 3 (95 % interval 0–57 %)"
        );
        assert_eq!(
            Rate::wilson(40, 100, 0.95).to_string(),
            "reproduced 40 of 100 (95 % interval 30–50 %)"
        );
        assert_eq!(
            Rate::of(&[], 0.9).to_string(),
            "reproduced 0 of 0 (90 % interval 0–100 %)"
        );
    }

    #[test]
    fn misses_to_rule_out_is_the_first_separating_count() {
        for (hits, total) in [(4u32, 4u32), (5, 10), (20, 40), (9, 10), (3, 30)] {
            let rate = Rate::wilson(hits, total, 0.95);
            let m = misses_to_rule_out(rate.low, 0.95).unwrap();
            assert!(
                Rate::wilson(0, m, 0.95).separated_below(&rate),
                "{hits}/{total}"
            );
            assert!(
                !Rate::wilson(0, m - 1, 0.95).separated_below(&rate),
                "{hits}/{total}"
            );
        }
        // A crash seen 20 of 40 times: 8 misses in a row rule it out at 95 %.
        assert_eq!(
            misses_to_rule_out(Rate::wilson(20, 40, 0.95).low, 0.95),
            Some(8)
        );
        assert_eq!(misses_to_rule_out(0.0, 0.95), None);
        assert_eq!(misses_to_rule_out(1.0, 0.95), Some(1));
    }

    #[test]
    fn more_samples_narrow_the_interval() {
        let mut width = 1.0;
        for n in [2u32, 4, 8, 16, 32, 64] {
            let (l, h) = wilson_interval(n / 2, n, 0.95);
            assert!(h - l < width, "n={n}");
            assert!(l < 0.5 && 0.5 < h);
            width = h - l;
        }
    }
}
