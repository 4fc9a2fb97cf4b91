//! The two loops the network spends its time in: adding and removing feature rows in an
//! accumulator, and the output layer's clipped-ReLU dot product. Each exists twice: a
//! portable one in plain Rust and, on x86_64 CPUs with AVX2 (detected at run time), one
//! in AVX2 intrinsics. Both do the same integer arithmetic (16-bit lanes that wrap, 32-bit
//! sums that wrap), so they give the same numbers bit for bit (`tests::simd_equals_portable`).
//! Each is generic over the accumulator's width `H`, a multiple of [`LANES`] (checked at
//! compile time): a width's loops have a fixed count, as the one width had before.

use super::{Row, LANES, QA};

/// Which implementation of the kernels a network uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernels {
    Portable,
    /// x86_64 AVX2; only ever chosen when the CPU has it.
    Avx2,
}

impl Kernels {
    /// The fastest the CPU running this has.
    pub fn best() -> Kernels {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Kernels::Avx2;
        }
        Kernels::Portable
    }

    /// `acc += add[0] + add[1] + ... - sub[0] - ...`, lane by lane, wrapping.
    #[inline]
    pub fn update<const H: usize>(self, acc: &mut Row<H>, add: &[&Row<H>], sub: &[&Row<H>]) {
        const { assert!(H.is_multiple_of(LANES)) };
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Avx2` is only chosen when the CPU reports AVX2 (`best`, `available`).
            Kernels::Avx2 => unsafe { avx2::update(acc, add, sub) },
            _ => portable::update(acc, add, sub),
        }
    }

    /// `dst = src + add[0] + ... - sub[0] - ...`, lane by lane, wrapping: [`Kernels::update`]
    /// of a copy, in one pass.
    #[inline]
    pub fn update_into<const H: usize>(self, dst: &mut Row<H>, src: &Row<H>, add: &[&Row<H>], sub: &[&Row<H>]) {
        const { assert!(H.is_multiple_of(LANES)) };
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `update`; `dst` and `src` are distinct rows.
            Kernels::Avx2 => unsafe { avx2::update_raw(dst.0.as_mut_ptr(), src.0.as_ptr(), add, sub) },
            _ => {
                *dst = src.clone();
                portable::update(dst, add, sub)
            }
        }
    }

    /// `sum_i clamp(us[i], 0, QA) * w_us[i] + clamp(them[i], 0, QA) * w_them[i]`, in wrapping
    /// 32-bit arithmetic.
    #[inline]
    pub fn output<const H: usize>(self, us: &Row<H>, them: &Row<H>, w_us: &Row<H>, w_them: &Row<H>) -> i32 {
        const { assert!(H.is_multiple_of(LANES)) };
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `update`.
            Kernels::Avx2 => unsafe { avx2::output(us, them, w_us, w_them) },
            _ => portable::output(us, them, w_us, w_them),
        }
    }

    /// Whether this CPU can run these kernels.
    pub fn available(self) -> bool {
        match self {
            Kernels::Portable => true,
            Kernels::Avx2 => Kernels::best() == Kernels::Avx2,
        }
    }
}

mod portable {
    use super::*;

    #[inline]
    pub(super) fn update<const H: usize>(acc: &mut Row<H>, add: &[&Row<H>], sub: &[&Row<H>]) {
        for r in add {
            for (a, &w) in acc.0.iter_mut().zip(&r.0) {
                *a = a.wrapping_add(w);
            }
        }
        for r in sub {
            for (a, &w) in acc.0.iter_mut().zip(&r.0) {
                *a = a.wrapping_sub(w);
            }
        }
    }

    #[inline]
    fn half<const H: usize>(acc: &Row<H>, w: &Row<H>) -> i32 {
        acc.0.iter().zip(&w.0).fold(0i32, |s, (&a, &w)| s.wrapping_add(i32::from(a.clamp(0, QA)) * i32::from(w)))
    }

    #[inline]
    pub(super) fn output<const H: usize>(us: &Row<H>, them: &Row<H>, w_us: &Row<H>, w_them: &Row<H>) -> i32 {
        half(us, w_us).wrapping_add(half(them, w_them))
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::*;
    use std::arch::x86_64::*;

    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn update<const H: usize>(acc: &mut Row<H>, add: &[&Row<H>], sub: &[&Row<H>]) {
        let at = acc.0.as_mut_ptr();
        update_raw(at, at, add, sub)
    }

    /// `dst = src + add - sub` over `H` lanes; `dst` may be `src`.
    ///
    /// # Safety
    /// The CPU must have AVX2; `dst` and `src` point to `H` values each.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn update_raw<const H: usize>(dst: *mut i16, src: *const i16, add: &[&Row<H>], sub: &[&Row<H>]) {
        for i in (0..H).step_by(LANES) {
            // Unaligned loads and stores: `Row` is aligned, but they cost the same.
            let at = dst.add(i) as *mut __m256i;
            let mut v = _mm256_loadu_si256(src.add(i) as *const __m256i);
            for r in add {
                v = _mm256_add_epi16(v, _mm256_loadu_si256(r.0.as_ptr().add(i) as *const __m256i));
            }
            for r in sub {
                v = _mm256_sub_epi16(v, _mm256_loadu_si256(r.0.as_ptr().add(i) as *const __m256i));
            }
            _mm256_storeu_si256(at, v);
        }
    }

    #[target_feature(enable = "avx2")]
    unsafe fn half<const H: usize>(acc: &Row<H>, w: &Row<H>, mut sum: __m256i) -> __m256i {
        let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi16(QA));
        for i in (0..H).step_by(LANES) {
            let a = _mm256_loadu_si256(acc.0.as_ptr().add(i) as *const __m256i);
            let a = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
            let w = _mm256_loadu_si256(w.0.as_ptr().add(i) as *const __m256i);
            // Pairs of 16-bit products summed into 32 bits: exact, as a clipped value is
            // at most QA.
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(a, w));
        }
        sum
    }

    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn output<const H: usize>(us: &Row<H>, them: &Row<H>, w_us: &Row<H>, w_them: &Row<H>) -> i32 {
        let sum = half(them, w_them, half(us, w_us, _mm256_setzero_si256()));
        let s = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
        _mm_cvtsi128_si32(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random_row<const H: usize>(seed: &mut u64, range: i16) -> Row<H> {
        let mut r = Row::ZERO;
        for v in r.0.iter_mut() {
            *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            *v = ((*seed >> 33) % (2 * range as u64 + 1)) as i16 - range;
        }
        r
    }

    /// Random rows of width `H`, extreme values and overflow included: the same numbers
    /// both ways.
    fn simd_equals_portable_at<const H: usize>() {
        let mut seed = 7;
        for range in [3, 300, 20_000, i16::MAX] {
            for _ in 0..200 {
                let rows: Vec<Row<H>> = (0..6).map(|_| random_row(&mut seed, range)).collect();
                let (mut a, mut b) = (rows[0].clone(), rows[0].clone());
                Kernels::Portable.update(&mut a, &[&rows[1], &rows[2]], &[&rows[3]]);
                Kernels::Avx2.update(&mut b, &[&rows[1], &rows[2]], &[&rows[3]]);
                assert_eq!(a.0, b.0);
                let (mut c, mut d) = (Row::ZERO, Row::ZERO);
                Kernels::Portable.update_into(&mut c, &rows[0], &[&rows[1], &rows[2]], &[&rows[3]]);
                Kernels::Avx2.update_into(&mut d, &rows[0], &[&rows[1], &rows[2]], &[&rows[3]]);
                assert_eq!((&a.0, &a.0), (&c.0, &d.0));
                let p = Kernels::Portable.output(&a, &rows[4], &rows[5], &rows[1]);
                assert_eq!(p, Kernels::Avx2.output(&a, &rows[4], &rows[5], &rows[1]));
            }
        }
    }

    /// The widths a game may have (the trainer's `--width`): 128 (the built-in nets'),
    /// 256 and 512.
    #[test]
    fn simd_equals_portable() {
        if !Kernels::Avx2.available() {
            eprintln!("no AVX2 on this CPU: only the portable kernels run");
            return;
        }
        simd_equals_portable_at::<128>();
        simd_equals_portable_at::<256>();
        simd_equals_portable_at::<512>();
    }
}
