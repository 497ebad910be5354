//! The model's only source of randomness: a small seeded PRNG (SplitMix64). Never reads OS
//! entropy, the browser's random numbers, or anything that differs between runs or platforms.

/// Subsystem labels used to derive independent child seeds from one scenario seed.
pub mod stream {
    /// Network latency jitter and loss.
    pub const NETWORK: u64 = 1;
    /// Random fault plans.
    pub const FAULTS: u64 = 2;
}

/// SplitMix64: tiny, fast, and identical on every platform.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimRng {
    state: u64,
}

impl SimRng {
    /// A generator started from `seed`.
    pub const fn new(seed: u64) -> Self {
        SimRng { state: seed }
    }

    /// A generator for subsystem `stream` (see [`stream`]) derived from the scenario `seed`,
    /// so that adding draws in one subsystem never shifts another's.
    pub fn child(seed: u64, stream: u64) -> Self {
        let mut root = SimRng::new(seed ^ stream.wrapping_mul(0xA24B_AED4_963E_E407));
        SimRng::new(root.next_u64())
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..=max` (Lemire's multiply-shift; the bias is below 2⁻³²
    /// for the ranges the model uses).
    #[inline]
    pub fn up_to(&mut self, max: u64) -> u64 {
        if max == u64::MAX {
            return self.next_u64();
        }
        ((self.next_u64() as u128 * (max as u128 + 1)) >> 64) as u64
    }

    /// A uniform integer in `lo..=hi` (`lo` if the range is empty).
    #[inline]
    pub fn between(&mut self, lo: u64, hi: u64) -> u64 {
        if hi <= lo {
            lo
        } else {
            lo + self.up_to(hi - lo)
        }
    }

    /// True with probability `ppm` / 1,000,000.
    #[inline]
    pub fn chance_ppm(&mut self, ppm: u32) -> bool {
        ppm > 0 && self.up_to(999_999) < ppm as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_children_differ() {
        let mut a = SimRng::new(7);
        let mut b = SimRng::new(7);
        assert_eq!(a.next_u64(), b.next_u64());
        let mut n = SimRng::child(7, stream::NETWORK);
        let mut f = SimRng::child(7, stream::FAULTS);
        assert_ne!(n.next_u64(), f.next_u64());
        // Known first value of SplitMix64 from seed 0.
        assert_eq!(SimRng::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn ranges_are_respected() {
        let mut r = SimRng::new(1);
        for _ in 0..10_000 {
            let v = r.between(5, 9);
            assert!((5..=9).contains(&v));
        }
        assert!(!r.chance_ppm(0));
        assert!(r.chance_ppm(1_000_000));
    }
}
