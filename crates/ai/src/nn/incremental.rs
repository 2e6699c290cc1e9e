//! The forward pass in two halves, for evaluating many similar positions: the hidden sums
//! before the sigmoid (the first layer's *pre-activations*) of a first position, and the
//! rest of the pass for another position from those sums plus the rows of the inputs in
//! which it differs ([`Net::forward_from`]; with no rows, the first position's own outputs).
//!
//! The candidates of one roll differ from each other and from the position they were played
//! from in a few points, so after the first position's sums each next one costs the rows of
//! its few changed inputs instead of the rows of all its non-zero inputs
//! (`crate::backgammon::nn::batch`). The sums are kept in `f32` and every candidate starts
//! again from the first position's, so rounding never builds up along a batch; the outputs
//! agree with [`Net::forward`] within 1e-5 (test `a_batch_equals_one_evaluation_at_a_time`
//! in `crate::backgammon::nn::batch`), and the AVX2 kernels with the portable loops within
//! 2e-6 (`the_fused_incremental_pass_equals_the_portable_one`; the two round the hidden sums
//! differently).

use super::inputs::Inputs;
use super::net::{sigmoid, Net, OUTPUTS};
use super::simd::{kernel, Kernel};

impl Net {
    /// The hidden pre-activations for `inputs` into `sums` (length `hidden`): the biases plus
    /// each non-zero input times its row.
    pub fn pre_activations(&self, inputs: &Inputs, sums: &mut [f32]) {
        match kernel() {
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2
                if sums.len() == self.hidden
                    && self.hidden.is_multiple_of(8)
                    && self.b1.len() == self.hidden
                    && inputs.iter().all(|(i, _)| i < self.inputs()) =>
            {
                // SAFETY: `kernel()` answers Avx2 only where the processor has AVX2 and FMA;
                // `sums` and `b1` hold `hidden` floats (a multiple of 8), and every input's
                // row is inside `w1` (all checked just above).
                unsafe { avx2::pre_activations(self, inputs, sums) }
            }
            _ => self.pre_activations_portable(inputs, sums),
        }
    }

    /// [`Net::pre_activations`] on the portable path.
    pub fn pre_activations_portable(&self, inputs: &Inputs, sums: &mut [f32]) {
        sums.copy_from_slice(&self.b1);
        for (i, v) in inputs.iter() {
            let row = &self.w1[i * self.hidden..(i + 1) * self.hidden];
            for (s, w) in sums.iter_mut().zip(row) {
                *s += v * w;
            }
        }
    }

    /// The five outputs of the position whose hidden pre-activations are `base` (length
    /// `hidden`) plus `delta` times input `i`'s row for each `(i, delta)` of `rows`: the
    /// additions, the sigmoid and the output layer in one pass. The AVX2 kernel keeps 64
    /// sums in registers while it adds every row, so the sums are read once and never
    /// written back; the portable path adds the rows to a copy. `base` is left as it was.
    pub fn forward_from(&self, base: &[f32], rows: &[(usize, f32)]) -> [f32; OUTPUTS] {
        match kernel() {
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2
                if base.len() == self.hidden
                    && self.hidden.is_multiple_of(8)
                    && self.w2.len() == OUTPUTS * self.hidden
                    && rows.iter().all(|&(i, _)| i < self.inputs()) =>
            {
                // SAFETY: `kernel()` answers Avx2 only where the processor has AVX2 and FMA;
                // `base` holds `hidden` floats (a multiple of 8), `w2` five rows of `hidden`,
                // and every row index is inside `w1` (all checked just above).
                unsafe { avx2::forward_from(self, base, rows) }
            }
            _ => self.forward_from_portable(base, rows),
        }
    }

    /// [`Net::forward_from`] on the portable path (the reference the kernel is tested
    /// against).
    pub fn forward_from_portable(&self, base: &[f32], rows: &[(usize, f32)]) -> [f32; OUTPUTS] {
        let mut sums = base.to_vec();
        for &(i, v) in rows {
            let row = &self.w1[i * self.hidden..(i + 1) * self.hidden];
            for (s, w) in sums.iter_mut().zip(row) {
                *s += v * w;
            }
        }
        for x in sums.iter_mut() {
            *x = sigmoid(*x);
        }
        self.output_layer(&sums)
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::super::inputs::Inputs;
    use super::super::net::{sigmoid, Net, OUTPUTS};
    use super::super::simd::{avx2_block_sums, avx2_sigmoid8, avx2_sum8, AVX2_BLOCK as BLOCK};
    use std::arch::x86_64::*;

    /// [`Net::pre_activations`]: each block of up to 64 hidden units summed in registers
    /// (the biases and every input's row) and stored once.
    ///
    /// # Safety
    /// AVX2 and FMA; `sums` and `net.b1` of `net.hidden` floats (a multiple of 8), every
    /// input index below `net.inputs()`.
    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn pre_activations(net: &Net, inputs: &Inputs, sums: &mut [f32]) {
        let mut start = 0;
        while start < net.hidden {
            let lanes = (net.hidden - start).min(BLOCK) / 8;
            let acc = avx2_block_sums(net, net.b1.as_ptr(), start, lanes, inputs.iter());
            for (k, a) in acc.iter().enumerate().take(lanes) {
                _mm256_storeu_ps(sums.as_mut_ptr().add(start + 8 * k), *a);
            }
            start += 8 * lanes;
        }
    }

    /// [`Net::forward_from`]: each block of up to 64 hidden units summed in registers (the
    /// base's sums and every row), its sigmoid multiplied into the five output sums.
    ///
    /// # Safety
    /// AVX2 and FMA; `base` of `net.hidden` floats (a multiple of 8), `net.w2` five rows of
    /// `net.hidden`, every row index below `net.inputs()`.
    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn forward_from(net: &Net, base: &[f32], rows: &[(usize, f32)]) -> [f32; OUTPUTS] {
        let (hidden, w2) = (net.hidden, net.w2.as_ptr());
        let mut out_acc = [_mm256_setzero_ps(); OUTPUTS];
        let mut start = 0;
        while start < hidden {
            let lanes = (hidden - start).min(BLOCK) / 8;
            let acc = avx2_block_sums(net, base.as_ptr(), start, lanes, rows.iter().copied());
            for (k, a) in acc.iter().enumerate().take(lanes) {
                let h = avx2_sigmoid8(*a);
                for (o, oa) in out_acc.iter_mut().enumerate() {
                    *oa = _mm256_fmadd_ps(
                        h,
                        _mm256_loadu_ps(w2.add(o * hidden + start + 8 * k)),
                        *oa,
                    );
                }
            }
            start += 8 * lanes;
        }
        let mut out = net.b2;
        for (o, a) in out.iter_mut().zip(out_acc) {
            *o = sigmoid(*o + avx2_sum8(a));
        }
        out
    }
}
