//! One perceptron: sparse inputs, one hidden layer of sigmoids, five sigmoid outputs (win,
//! win gammon, win backgammon, lose gammon, lose backgammon, for the player on roll).
//!
//! The first layer is stored input-major (`w1[i * hidden + j]`), so a non-zero input adds one
//! contiguous row to the hidden sums. [`Net::forward`] runs the explicit SIMD kernel of
//! [`super::simd`] where the processor has one; [`Net::forward_scalar`] is the portable path
//! (fixed-width chunks that the compiler vectorises on every target, without `unsafe`), which
//! the trainer's gradient shares.

use super::encode::{Inputs, INPUTS};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Outputs of every net.
pub const OUTPUTS: usize = 5;
/// Lanes of the chunked loops.
const LANES: usize = 8;

/// A perceptron's weights.
#[derive(Debug, Clone, PartialEq)]
pub struct Net {
    /// Hidden units (a multiple of 8).
    pub hidden: usize,
    /// Input to hidden weights, input-major: `INPUTS * hidden`.
    pub w1: Vec<f32>,
    /// Hidden biases.
    pub b1: Vec<f32>,
    /// Hidden to output weights, output-major: `OUTPUTS * hidden`.
    pub w2: Vec<f32>,
    /// Output biases.
    pub b2: [f32; OUTPUTS],
}

/// Why a net's shape is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a net needs a positive multiple of 8 hidden units and weights of matching sizes")]
pub struct BadShape;

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Net {
    /// A net of the given weights for the backgammon encoding ([`INPUTS`] inputs), checked
    /// for shape.
    pub fn new(
        hidden: usize,
        w1: Vec<f32>,
        b1: Vec<f32>,
        w2: Vec<f32>,
        b2: [f32; OUTPUTS],
    ) -> Result<Net, BadShape> {
        Net::with_inputs(INPUTS, hidden, w1, b1, w2, b2)
    }

    /// A net of the given weights for an encoding of `inputs` inputs (another game's, such
    /// as Never-Finishing's), checked for shape.
    pub fn with_inputs(
        inputs: usize,
        hidden: usize,
        w1: Vec<f32>,
        b1: Vec<f32>,
        w2: Vec<f32>,
        b2: [f32; OUTPUTS],
    ) -> Result<Net, BadShape> {
        if hidden == 0
            || inputs == 0
            || !hidden.is_multiple_of(LANES)
            || w1.len() != inputs * hidden
            || b1.len() != hidden
            || w2.len() != OUTPUTS * hidden
            || w1
                .iter()
                .chain(&b1)
                .chain(&w2)
                .chain(&b2)
                .any(|w| !w.is_finite())
        {
            return Err(BadShape);
        }
        Ok(Net {
            hidden,
            w1,
            b1,
            w2,
            b2,
        })
    }

    /// A net of small random weights for the backgammon encoding (the start of training),
    /// from `seed`.
    pub fn random(hidden: usize, seed: u64) -> Net {
        Net::random_with_inputs(INPUTS, hidden, seed)
    }

    /// A net of small random weights for an encoding of `inputs` inputs, from `seed`.
    pub fn random_with_inputs(inputs: usize, hidden: usize, seed: u64) -> Net {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let hidden = hidden.div_ceil(LANES).max(1) * LANES;
        let mut draw = |n: usize, scale: f32| -> Vec<f32> {
            (0..n)
                .map(|_| (rng.gen::<f32>() * 2.0 - 1.0) * scale)
                .collect()
        };
        let w1 = draw(inputs * hidden, 0.1);
        let b1 = draw(hidden, 0.1);
        let w2 = draw(OUTPUTS * hidden, 0.1);
        Net {
            hidden,
            w1,
            b1,
            w2,
            b2: [0.0; OUTPUTS],
        }
    }

    /// The number of inputs the net reads (its first layer's rows).
    pub fn inputs(&self) -> usize {
        self.w1.len() / self.hidden
    }

    /// The hidden activations for `inputs`, written into `h` (length `hidden`).
    #[inline]
    pub fn hidden_layer(&self, inputs: &Inputs, h: &mut [f32]) {
        h.copy_from_slice(&self.b1);
        for (i, v) in inputs.iter() {
            let row = &self.w1[i * self.hidden..(i + 1) * self.hidden];
            if v == 1.0 {
                for (hc, rc) in h.chunks_exact_mut(LANES).zip(row.chunks_exact(LANES)) {
                    for k in 0..LANES {
                        hc[k] += rc[k];
                    }
                }
            } else {
                for (hc, rc) in h.chunks_exact_mut(LANES).zip(row.chunks_exact(LANES)) {
                    for k in 0..LANES {
                        hc[k] += v * rc[k];
                    }
                }
            }
        }
        for x in h.iter_mut() {
            *x = sigmoid(*x);
        }
    }

    /// The outputs from the hidden activations.
    #[inline]
    pub fn output_layer(&self, h: &[f32]) -> [f32; OUTPUTS] {
        let mut out = self.b2;
        for (o, row) in out.iter_mut().zip(self.w2.chunks_exact(self.hidden)) {
            let mut acc = [0.0f32; LANES];
            for (hc, rc) in h.chunks_exact(LANES).zip(row.chunks_exact(LANES)) {
                for k in 0..LANES {
                    acc[k] += hc[k] * rc[k];
                }
            }
            *o = sigmoid(*o + acc.iter().sum::<f32>());
        }
        out
    }

    /// The five outputs for `inputs`, on the fastest kernel this processor has
    /// ([`super::simd::kernel`]).
    #[inline]
    pub fn forward(&self, inputs: &Inputs) -> [f32; OUTPUTS] {
        super::simd::forward_with(self, inputs, super::simd::kernel())
    }

    /// The five outputs for `inputs` on the portable path.
    pub fn forward_scalar(&self, inputs: &Inputs) -> [f32; OUTPUTS] {
        let mut buf = [0.0f32; 256];
        if self.hidden <= buf.len() {
            let h = &mut buf[..self.hidden];
            self.hidden_layer(inputs, h);
            self.output_layer(h)
        } else {
            let mut h = vec![0.0; self.hidden];
            self.hidden_layer(inputs, &mut h);
            self.output_layer(&h)
        }
    }

    /// Adds to `grad` (a net of the same shape, used as an accumulator) the gradient of the
    /// cross-entropy between the outputs for `inputs` and `target`, scaled by `scale`; returns
    /// that cross-entropy. `h` is scratch of length `hidden`.
    pub fn accumulate_gradient(
        &self,
        inputs: &Inputs,
        target: &[f32; OUTPUTS],
        scale: f32,
        grad: &mut Net,
        h: &mut [f32],
    ) -> f32 {
        self.hidden_layer(inputs, h);
        let out = self.output_layer(h);
        let mut loss = 0.0;
        let mut dz2 = [0.0f32; OUTPUTS];
        for k in 0..OUTPUTS {
            let (o, t) = (out[k].clamp(1e-6, 1.0 - 1e-6), target[k]);
            loss -= t * o.ln() + (1.0 - t) * (1.0 - o).ln();
            dz2[k] = (out[k] - t) * scale;
            grad.b2[k] += dz2[k];
        }
        let hidden = self.hidden;
        let mut dz1 = vec![0.0f32; hidden];
        for ((d, row), grow) in dz2
            .iter()
            .zip(self.w2.chunks_exact(hidden))
            .zip(grad.w2.chunks_exact_mut(hidden))
        {
            for j in 0..hidden {
                grow[j] += d * h[j];
                dz1[j] += d * row[j];
            }
        }
        for j in 0..hidden {
            dz1[j] *= h[j] * (1.0 - h[j]);
            grad.b1[j] += dz1[j];
        }
        for (i, v) in inputs.iter() {
            let grow = &mut grad.w1[i * hidden..(i + 1) * hidden];
            for j in 0..hidden {
                grow[j] += v * dz1[j];
            }
        }
        loss
    }

    /// One step of plain SGD towards `target` for `inputs`, of size `alpha`, taken in place
    /// (only the first-layer rows of the non-zero inputs move); returns the cross-entropy
    /// before the step. `h` is scratch of length `hidden`.
    pub fn sgd_step(
        &mut self,
        inputs: &Inputs,
        target: &[f32; OUTPUTS],
        alpha: f32,
        h: &mut [f32],
    ) -> f32 {
        let hidden = self.hidden;
        let h = &mut h[..hidden];
        self.hidden_layer(inputs, h);
        let out = self.output_layer(h);
        let mut loss = 0.0;
        let mut dz1 = vec![0.0f32; hidden];
        for k in 0..OUTPUTS {
            let (o, t) = (out[k].clamp(1e-6, 1.0 - 1e-6), target[k]);
            loss -= t * o.ln() + (1.0 - t) * (1.0 - o).ln();
            let d = (out[k] - t) * alpha;
            self.b2[k] -= d;
            let row = &mut self.w2[k * hidden..(k + 1) * hidden];
            for j in 0..hidden {
                dz1[j] += d * row[j];
                row[j] -= d * h[j];
            }
        }
        for j in 0..hidden {
            dz1[j] *= h[j] * (1.0 - h[j]);
            self.b1[j] -= dz1[j];
        }
        for (i, v) in inputs.iter() {
            let row = &mut self.w1[i * hidden..(i + 1) * hidden];
            for j in 0..hidden {
                row[j] -= v * dz1[j];
            }
        }
        loss
    }

    /// A net of this shape with every weight zero (a gradient accumulator).
    pub fn zeros_like(&self) -> Net {
        Net {
            hidden: self.hidden,
            w1: vec![0.0; self.w1.len()],
            b1: vec![0.0; self.b1.len()],
            w2: vec![0.0; self.w2.len()],
            b2: [0.0; OUTPUTS],
        }
    }

    /// `self += factor * other`, weight by weight (same shape).
    pub fn add_scaled(&mut self, other: &Net, factor: f32) {
        for (a, b) in self.w1.iter_mut().zip(&other.w1) {
            *a += factor * b;
        }
        for (a, b) in self.b1.iter_mut().zip(&other.b1) {
            *a += factor * b;
        }
        for (a, b) in self.w2.iter_mut().zip(&other.w2) {
            *a += factor * b;
        }
        for (a, b) in self.b2.iter_mut().zip(&other.b2) {
            *a += factor * b;
        }
    }
}
