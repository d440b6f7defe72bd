//! The replay lower bound (docs/performance.md): any strategy that keeps the seed's proof needs
//! one baseline, ⌈log2 C(n,k)⌉ verdicts to single out the k essential steps among n,
//! 3k negatives (3 per single deletion) and 2 more confirmations (the search's last
//! hit is the first of the 3).

use crate::engine::{HIGH_CONFIDENCE_RUNS, NEGATIVE_PROOF_RUNS};

/// ⌈log2 C(n,k)⌉, exact while C(n,k) fits in u128, from logarithms beyond that.
pub fn ceil_log2_binomial(n: u32, k: u32) -> u32 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for i in 0..k {
        // c * (n - i) / (i + 1) is exact at every step (a binomial coefficient).
        match c.checked_mul(u128::from(n - i)) {
            Some(product) => c = product / u128::from(i + 1),
            None => return approximate_ceil_log2_binomial(n, k),
        }
    }
    if c <= 1 {
        0
    } else {
        128 - (c - 1).leading_zeros()
    }
}

fn approximate_ceil_log2_binomial(n: u32, k: u32) -> u32 {
    let bits: f64 = (0..k)
        .map(|i| (f64::from(n - i) / f64::from(i + 1)).log2())
        .sum();
    // Only reached for C(n,k) > 2^128, far from any float rounding at an integer.
    bits.ceil() as u32
}

/// Minimum replays to a proven, confirmed result for `k` essential steps among `n`.
pub fn lower_bound(n: u32, k: u32) -> u32 {
    let negatives = u32::try_from(NEGATIVE_PROOF_RUNS).unwrap_or(u32::MAX);
    let confirmations = u32::try_from(HIGH_CONFIDENCE_RUNS).unwrap_or(u32::MAX);
    1 + ceil_log2_binomial(n, k) + negatives * k + (confirmations - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_perf_notes_table() {
        let rows = [
            (8, 1, 9),
            (8, 3, 18),
            (16, 2, 16),
            (16, 3, 22),
            (32, 3, 25),
            (64, 3, 28),
            (128, 3, 31),
            (128, 5, 46),
        ];
        for (n, k, bound) in rows {
            assert_eq!(lower_bound(n, k), bound, "n={n} k={k}");
        }
    }

    #[test]
    fn exact_powers_of_two_do_not_round_up() {
        assert_eq!(ceil_log2_binomial(8, 1), 3);
        assert_eq!(ceil_log2_binomial(4, 2), 3); // C = 6
        assert_eq!(ceil_log2_binomial(5, 0), 0);
        assert_eq!(ceil_log2_binomial(3, 5), 0);
        assert_eq!(lower_bound(10, 0), 3);
    }

    #[test]
    fn huge_binomials_fall_back_to_logarithms() {
        // C(1000, 500) ≈ 2^994.
        let bits = ceil_log2_binomial(1000, 500);
        assert!((990..=1000).contains(&bits), "{bits}");
    }
}
