//! The nets' forward pass with explicit SIMD: AVX2 and FMA on x86-64 when the processor has
//! them (detected once at run time), the portable chunked loops of [`super::net`] elsewhere.
//!
//! The AVX2 kernel keeps 64 hidden sums in eight registers while it adds the rows of every
//! non-zero input, block after block of 64 units (so the sums never leave the registers
//! between inputs), takes the sigmoid of eight units at a time with a polynomial `exp`
//! (Cephes' `expf` reduction, about 2 ulp), and forms each output as one fused
//! multiply-add chain. It gives the portable path's outputs within 1e-6 (test
//! `simd_forward_equals_the_scalar_path`); `TABULA_SIMD=off` in the environment forces the
//! portable path (to compare, or to rule the kernel out).

use super::inputs::Inputs;
use super::net::{Net, OUTPUTS};
use std::sync::OnceLock;

impl Net {
    /// The five outputs for `inputs`, on the fastest kernel this processor has
    /// ([`kernel`]).
    #[inline]
    pub fn forward(&self, inputs: &Inputs) -> [f32; OUTPUTS] {
        forward_with(self, inputs, kernel())
    }
}

/// Which forward pass runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    /// The portable chunked loops ([`Net::forward_scalar`]).
    Portable,
    /// AVX2 and FMA intrinsics (x86-64 only).
    Avx2,
}

/// The kernel this process uses: AVX2 where the processor has AVX2 and FMA and
/// `TABULA_SIMD` is not `off`, the portable loops otherwise.
pub fn kernel() -> Kernel {
    static KERNEL: OnceLock<Kernel> = OnceLock::new();
    *KERNEL.get_or_init(|| {
        if std::env::var("TABULA_SIMD").is_ok_and(|v| v == "off") {
            return Kernel::Portable;
        }
        detect()
    })
}

#[cfg(target_arch = "x86_64")]
fn detect() -> Kernel {
    if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
        Kernel::Avx2
    } else {
        Kernel::Portable
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn detect() -> Kernel {
    Kernel::Portable
}

/// The five outputs of `net` for `inputs` on `kernel` (a kernel the processor lacks falls
/// back to the portable path).
pub fn forward_with(net: &Net, inputs: &Inputs, kernel: Kernel) -> [f32; OUTPUTS] {
    match kernel {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 if detect() == Kernel::Avx2 && fits(net, inputs) => {
            // SAFETY: the processor has AVX2 and FMA (checked just above, once cached), and
            // every row and lane the kernel reads is inside the net's weights (`fits`).
            unsafe { avx2::forward(net, inputs) }
        }
        _ => net.forward_scalar(inputs),
    }
}

/// Whether the kernel's reads stay inside `net`: whole 8-lane chunks of hidden units, weights
/// of matching sizes, and a first-layer row for every non-zero input. (A net's fields are
/// public; the portable path answers a mismatched one with a panic, never a wrong read.)
fn fits(net: &Net, inputs: &Inputs) -> bool {
    let h = net.hidden;
    h > 0
        && h.is_multiple_of(8)
        && net.b1.len() == h
        && net.w2.len() == OUTPUTS * h
        && net.w1.len().is_multiple_of(h)
        && inputs.iter().all(|(i, _)| i < net.w1.len() / h)
}

/// The AVX2 pieces the incremental pass (`super::incremental`) shares: one block of hidden
/// sums in registers, the sigmoid of eight lanes, a horizontal sum.
#[cfg(target_arch = "x86_64")]
pub(super) use avx2::{
    block_sums as avx2_block_sums, sigmoid8 as avx2_sigmoid8, sum8 as avx2_sum8,
    BLOCK as AVX2_BLOCK,
};

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::super::inputs::Inputs;
    use super::super::net::{sigmoid, Net, OUTPUTS};
    use std::arch::x86_64::*;

    /// Hidden units the kernels keep in registers at a time.
    pub(in crate::nn) const BLOCK: usize = 64;
    /// The most hidden units the stack buffer holds; larger nets use the heap.
    const STACK: usize = 512;

    /// `exp(x)` of eight lanes (Cephes' `expf`: `x = n ln 2 + r`, a degree-6 polynomial in
    /// `r`, `2^n` put in the exponent), `x` clamped to where `f32` neither overflows nor
    /// flushes to zero.
    #[target_feature(enable = "avx2,fma")]
    unsafe fn exp8(x: __m256) -> __m256 {
        let x = _mm256_min_ps(
            _mm256_max_ps(x, _mm256_set1_ps(-87.3)),
            _mm256_set1_ps(88.3),
        );
        let n = _mm256_round_ps::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(
            _mm256_mul_ps(x, _mm256_set1_ps(std::f32::consts::LOG2_E)),
        );
        let r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693_359_4), x);
        let r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.121_944_4e-4), r);
        let mut p = _mm256_set1_ps(1.987_569_1e-4);
        for c in [1.398_2e-3, 8.333_452e-3, 4.166_579_6e-2, 0.166_666_65, 0.5] {
            p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(c));
        }
        let r2 = _mm256_mul_ps(r, r);
        let y = _mm256_add_ps(_mm256_fmadd_ps(p, r2, r), _mm256_set1_ps(1.0));
        let scale = _mm256_slli_epi32::<23>(_mm256_add_epi32(
            _mm256_cvtps_epi32(n),
            _mm256_set1_epi32(127),
        ));
        _mm256_mul_ps(y, _mm256_castsi256_ps(scale))
    }

    /// `1 / (1 + exp(-x))` of eight lanes.
    #[target_feature(enable = "avx2,fma")]
    pub(in crate::nn) unsafe fn sigmoid8(x: __m256) -> __m256 {
        let one = _mm256_set1_ps(1.0);
        let e = exp8(_mm256_sub_ps(_mm256_setzero_ps(), x));
        _mm256_div_ps(one, _mm256_add_ps(one, e))
    }

    /// The hidden sums of the block of `lanes` times 8 units (at most [`BLOCK`]) from unit
    /// `start`, in registers: `from` (the biases, or a first position's sums; read from
    /// `start`) plus `v` times the block's part of input `i`'s first-layer row for each
    /// `(i, v)` of `rows`. Every kernel of the first layer is a loop over these blocks.
    ///
    /// # Safety
    /// AVX2 and FMA; `from` valid for `start + 8 * lanes` floats, `lanes <= BLOCK / 8`,
    /// `start + 8 * lanes <= net.hidden`, every row index below `net.inputs()`.
    #[target_feature(enable = "avx2,fma")]
    #[inline]
    pub(in crate::nn) unsafe fn block_sums(
        net: &Net,
        from: *const f32,
        start: usize,
        lanes: usize,
        rows: impl Iterator<Item = (usize, f32)>,
    ) -> [__m256; BLOCK / 8] {
        let mut acc = [_mm256_setzero_ps(); BLOCK / 8];
        for (k, a) in acc.iter_mut().enumerate().take(lanes) {
            *a = _mm256_loadu_ps(from.add(start + 8 * k));
        }
        let w1 = net.w1.as_ptr();
        for (i, v) in rows {
            let row = w1.add(i * net.hidden + start);
            let vv = _mm256_set1_ps(v);
            for (k, a) in acc.iter_mut().enumerate().take(lanes) {
                *a = _mm256_fmadd_ps(vv, _mm256_loadu_ps(row.add(8 * k)), *a);
            }
        }
        acc
    }

    /// The hidden activations into `h` (length `net.hidden`, a multiple of 8).
    #[target_feature(enable = "avx2,fma")]
    unsafe fn hidden(net: &Net, inputs: &Inputs, h: &mut [f32]) {
        let mut start = 0;
        while start < net.hidden {
            let lanes = (net.hidden - start).min(BLOCK) / 8;
            let acc = block_sums(net, net.b1.as_ptr(), start, lanes, inputs.iter());
            for (k, a) in acc.iter().enumerate().take(lanes) {
                _mm256_storeu_ps(h.as_mut_ptr().add(start + 8 * k), sigmoid8(*a));
            }
            start += 8 * lanes;
        }
    }

    /// The horizontal sum of eight lanes.
    #[target_feature(enable = "avx2,fma")]
    pub(in crate::nn) unsafe fn sum8(v: __m256) -> f32 {
        let s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps::<1>(v));
        let s = _mm_add_ps(s, _mm_movehl_ps(s, s));
        let s = _mm_add_ss(s, _mm_shuffle_ps::<0b01>(s, s));
        _mm_cvtss_f32(s)
    }

    /// The five outputs for `inputs`.
    ///
    /// # Safety
    /// The processor must have AVX2 and FMA.
    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn forward(net: &Net, inputs: &Inputs) -> [f32; OUTPUTS] {
        let mut buf = [0.0f32; STACK];
        let mut heap = Vec::new();
        let h: &mut [f32] = if net.hidden <= STACK {
            &mut buf[..net.hidden]
        } else {
            heap.resize(net.hidden, 0.0);
            &mut heap
        };
        hidden(net, inputs, h);
        let mut out = net.b2;
        for (o, row) in out.iter_mut().zip(net.w2.chunks_exact(net.hidden)) {
            let mut acc = _mm256_setzero_ps();
            for j in (0..net.hidden).step_by(8) {
                acc = _mm256_fmadd_ps(
                    _mm256_loadu_ps(h.as_ptr().add(j)),
                    _mm256_loadu_ps(row.as_ptr().add(j)),
                    acc,
                );
            }
            *o = sigmoid(*o + sum8(acc));
        }
        out
    }
}
