//! The gradients of the nets, kept out of the runtime: the runtime net ([`Net`]) only runs
//! forward, and the coach trains its public weights in place through [`Gradients`].
//!
//! The loss is the cross-entropy of each of the five sigmoid outputs against its target.
//! The backward pass reuses the net's portable layers ([`Net::hidden_layer`],
//! [`Net::output_layer`]), so the outputs it differentiates are exactly the portable path's.

use tabula_ai::nn::inputs::Inputs;
use tabula_ai::nn::net::{Net, OUTPUTS};

/// Training operations on a net's weights.
pub trait Gradients {
    /// Adds to `grad` (a net of the same shape, used as an accumulator) the gradient of the
    /// cross-entropy between the outputs for `inputs` and `target`, scaled by `scale`;
    /// returns that cross-entropy. `h` is scratch of length `hidden`.
    fn accumulate_gradient(
        &self,
        inputs: &Inputs,
        target: &[f32; OUTPUTS],
        scale: f32,
        grad: &mut Net,
        h: &mut [f32],
    ) -> f32;

    /// Adds to `grad` the gradient that `dz2` (the loss's derivative by each output's
    /// pre-sigmoid sum, already scaled) carries back through the net, for `inputs` whose
    /// hidden layer is `h` (as [`Net::hidden_layer`] left it).
    fn accumulate_backward(&self, inputs: &Inputs, h: &[f32], dz2: &[f32; OUTPUTS], grad: &mut Net);

    /// One step of plain SGD towards `target` for `inputs`, of size `alpha`, taken in place
    /// (only the first-layer rows of the non-zero inputs move); returns the cross-entropy
    /// before the step. `h` is scratch of length `hidden`.
    fn sgd_step(
        &mut self,
        inputs: &Inputs,
        target: &[f32; OUTPUTS],
        alpha: f32,
        h: &mut [f32],
    ) -> f32;

    /// A net of this shape with every weight zero (a gradient accumulator).
    fn zeros_like(&self) -> Net;

    /// `self += factor * other`, weight by weight (same shape).
    fn add_scaled(&mut self, other: &Net, factor: f32);
}

impl Gradients for Net {
    fn accumulate_gradient(
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
        }
        self.accumulate_backward(inputs, h, &dz2, grad);
        loss
    }

    fn accumulate_backward(
        &self,
        inputs: &Inputs,
        h: &[f32],
        dz2: &[f32; OUTPUTS],
        grad: &mut Net,
    ) {
        for (b, d) in grad.b2.iter_mut().zip(dz2) {
            *b += d;
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
    }

    fn sgd_step(
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

    fn zeros_like(&self) -> Net {
        Net {
            hidden: self.hidden,
            w1: vec![0.0; self.w1.len()],
            b1: vec![0.0; self.b1.len()],
            w2: vec![0.0; self.w2.len()],
            b2: [0.0; OUTPUTS],
        }
    }

    fn add_scaled(&mut self, other: &Net, factor: f32) {
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
