//! One perceptron: sparse inputs, one hidden layer of sigmoids, five sigmoid outputs (win,
//! win gammon, win backgammon, lose gammon, lose backgammon, for the player on roll).
//!
//! The first layer is stored input-major (`w1[i * hidden + j]`), so a non-zero input adds one
//! contiguous row to the hidden sums. [`Net::forward_scalar`] is the portable path
//! (fixed-width chunks that the compiler vectorises on every target, without `unsafe`), whose
//! layers the coach's gradient shares; `Net::forward`, in the `simd` module beside this one,
//! runs the explicit SIMD kernel where the processor has one. The weights are public: the
//! coach (`tabula-coach`) trains them in place.

use super::inputs::Inputs;
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
}
