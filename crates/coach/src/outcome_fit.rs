//! A net's output rows refitted to the outcomes of its own games. Where
//! [`crate::calibration`]'s recalibration moves each output by one slope and one shift
//! everywhere, this refits the output's whole row of weights on the hidden layer (a logistic
//! regression on the net's hidden activations, the hidden layer unchanged), so that the
//! correction can differ from one kind of position to another: the opening's gammons
//! differently from the middle game's.
//!
//! The fit minimises each output's mean cross-entropy against the games' outcomes plus a ridge
//! `ridge / 2 * |w - w0|^2` that holds the row near the one it starts from (where the games
//! say little, the labels the net was fitted to keep their say). It is Newton's method with
//! the Hessian counted on a fixed subsample of the rows and a backtracking line search on the
//! whole objective, so each step lowers it; everything is deterministic on any number of
//! threads (sums are reduced in a fixed order of fixed chunks).

use rayon::prelude::*;
use tabula_ai::backgammon::nn::encode::{Encoding, Inputs};
use tabula_ai::nn::net::{Net, OUTPUTS};
use tabula_tables::Position;

/// The rows a fit reads: each kept position's hidden activations (with a last column of 1
/// for the bias), its outcome and which outputs its net chose freely.
#[derive(Debug, Clone, Default)]
pub struct Design {
    /// Columns a row: the net's hidden units and the bias's 1.
    pub dims: usize,
    /// The rows, `dims` values each.
    pub x: Vec<f32>,
    /// Each row's outcome (each term 0 or 1, or a chance in `0..=1`).
    pub y: Vec<[f32; OUTPUTS]>,
    /// Whether each output of each row takes part in that output's fit.
    pub free: Vec<[bool; OUTPUTS]>,
}

impl Design {
    /// An empty design for rows of `net`'s hidden layer.
    pub fn new(net: &Net) -> Design {
        Design {
            dims: net.hidden + 1,
            ..Design::default()
        }
    }

    /// Appends `pos`, as `net` reads it through `encoding`, with its outcome.
    pub fn push(
        &mut self,
        net: &Net,
        encoding: Encoding,
        pos: &Position,
        outcome: [f32; OUTPUTS],
        free: [bool; OUTPUTS],
    ) {
        let mut inputs = Inputs::new();
        encoding.encode(pos, &mut inputs);
        let mut h = vec![0.0; net.hidden];
        net.hidden_layer(&inputs, &mut h);
        self.push_row(&h, outcome, free);
    }

    /// Appends a row of hidden activations (the bias's 1 is added here).
    pub fn push_row(&mut self, hidden: &[f32], outcome: [f32; OUTPUTS], free: [bool; OUTPUTS]) {
        assert_eq!(hidden.len() + 1, self.dims, "a row of the wrong width");
        self.x.extend_from_slice(hidden);
        self.x.push(1.0);
        self.y.push(outcome);
        self.free.push(free);
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.y.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.y.is_empty()
    }

    fn row(&self, i: usize) -> &[f32] {
        &self.x[i * self.dims..(i + 1) * self.dims]
    }
}

/// Output `k`'s row of `net` with its bias last: the weights a fit starts from.
pub fn row_of(net: &Net, k: usize) -> Vec<f64> {
    let mut w: Vec<f64> = net.w2[k * net.hidden..(k + 1) * net.hidden]
        .iter()
        .map(|&v| f64::from(v))
        .collect();
    w.push(f64::from(net.b2[k]));
    w
}

/// Writes `w` (as [`row_of`] orders it) into `net`'s output `k`.
pub fn set_row(net: &mut Net, k: usize, w: &[f64]) {
    assert_eq!(w.len(), net.hidden + 1, "a row of the wrong width");
    for (dst, &v) in net.w2[k * net.hidden..(k + 1) * net.hidden]
        .iter_mut()
        .zip(w)
    {
        *dst = v as f32;
    }
    net.b2[k] = w[net.hidden] as f32;
}

/// Rows a chunk of the parallel sums: fixed, so the sums are the same on any thread count.
const CHUNK: usize = 4096;

fn dot(x: &[f32], w: &[f64]) -> f64 {
    x.iter().zip(w).map(|(&a, &b)| f64::from(a) * b).sum()
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// The cross-entropy of one row: `-(y ln q + (1 - y) ln (1 - q))` for `q = sigmoid(z)`,
/// computed stably from `z`.
fn cross_entropy(z: f64, y: f64) -> f64 {
    // ln(1 + e^z) - y z, with ln(1 + e^z) = max(z, 0) + ln(1 + e^-|z|).
    z.max(0.0) + (-z.abs()).exp().ln_1p() - y * z
}

/// The rows of `design` free at output `k`.
fn free_rows(design: &Design, k: usize) -> Vec<usize> {
    (0..design.len()).filter(|&i| design.free[i][k]).collect()
}

/// The sum over `rows` of what `f` adds for a chunk of them into a vector of `width`: the
/// chunks are fixed and their sums added in order, so the result does not depend on the
/// number of threads.
fn sum_chunks(rows: &[usize], width: usize, f: impl Fn(&[usize], &mut [f64]) + Sync) -> Vec<f64> {
    let parts: Vec<Vec<f64>> = rows
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut acc = vec![0.0; width];
            f(chunk, &mut acc);
            acc
        })
        .collect();
    parts.into_iter().fold(vec![0.0; width], add)
}

/// The mean cross-entropy of output `k` with row `w` over the rows free at `k`, and how many
/// there are.
pub fn mean_loss(design: &Design, k: usize, w: &[f64]) -> (f64, usize) {
    let rows = free_rows(design, k);
    (loss_over(design, k, w, &rows), rows.len())
}

/// The mean cross-entropy of output `k` with row `w` over `rows` (0 for none).
fn loss_over(design: &Design, k: usize, w: &[f64], rows: &[usize]) -> f64 {
    let sum = sum_chunks(rows, 1, |chunk, acc| {
        for &i in chunk {
            acc[0] += cross_entropy(dot(design.row(i), w), f64::from(design.y[i][k]));
        }
    })[0];
    if rows.is_empty() {
        0.0
    } else {
        sum / rows.len() as f64
    }
}

/// How a row is fitted.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FitConfig {
    /// The ridge's weight on the squared distance from the starting row (on the mean loss).
    pub ridge: f64,
    /// The most Newton steps.
    pub steps: usize,
    /// The Hessian is counted on every `hessian_stride`-th free row.
    pub hessian_stride: usize,
}

impl Default for FitConfig {
    fn default() -> FitConfig {
        FitConfig {
            ridge: 1e-5,
            steps: 12,
            hessian_stride: 8,
        }
    }
}

/// The objective over the free rows `rows`: the mean loss plus the ridge.
fn objective(design: &Design, k: usize, rows: &[usize], w: &[f64], w0: &[f64], ridge: f64) -> f64 {
    let dist: f64 = w.iter().zip(w0).map(|(a, b)| (a - b) * (a - b)).sum();
    loss_over(design, k, w, rows) + 0.5 * ridge * dist
}

/// Output `k`'s row refitted from `w0` to the rows of `design` free at `k`. A design with no
/// such row gives `w0` back.
pub fn fit_row(design: &Design, k: usize, w0: &[f64], config: FitConfig) -> Vec<f64> {
    let d = design.dims;
    assert_eq!(w0.len(), d, "a row of the wrong width");
    let free = free_rows(design, k);
    if free.is_empty() {
        return w0.to_vec();
    }
    let n = free.len() as f64;
    let mut w = w0.to_vec();
    let mut current = objective(design, k, &free, &w, w0, config.ridge);
    for _ in 0..config.steps {
        // The gradient of the mean loss over every free row.
        let grad = sum_chunks(&free, d, |chunk, g| {
            for &i in chunk {
                let x = design.row(i);
                let r = sigmoid(dot(x, &w)) - f64::from(design.y[i][k]);
                for (gj, &xj) in g.iter_mut().zip(x) {
                    *gj += r * f64::from(xj);
                }
            }
        });
        let mut g: Vec<f64> = grad.iter().map(|v| v / n).collect();
        for j in 0..d {
            g[j] += config.ridge * (w[j] - w0[j]);
        }
        // The Hessian of the mean loss on the subsample (upper triangle, mirrored).
        let sub: Vec<usize> = free
            .iter()
            .copied()
            .step_by(config.hessian_stride.max(1))
            .collect();
        let m = sub.len() as f64;
        let mut h = sum_chunks(&sub, d * d, |chunk, h| {
            for &i in chunk {
                let x = design.row(i);
                let q = sigmoid(dot(x, &w));
                let s = q * (1.0 - q);
                for a in 0..d {
                    let xa = s * f64::from(x[a]);
                    let row = &mut h[a * d..a * d + a + 1];
                    for (hb, &xb) in row.iter_mut().zip(&x[..=a]) {
                        *hb += xa * f64::from(xb);
                    }
                }
            }
        });
        for a in 0..d {
            for b in 0..=a {
                h[a * d + b] /= m;
                h[b * d + a] = h[a * d + b];
            }
            h[a * d + a] += config.ridge + 1e-9;
        }
        let Some(step) = cholesky_solve(&mut h, &g, d) else {
            break;
        };
        // Backtracking: the full Newton step, halved until the objective falls.
        let mut t = 1.0;
        let mut moved = false;
        for _ in 0..20 {
            let trial: Vec<f64> = w.iter().zip(&step).map(|(a, s)| a - t * s).collect();
            let value = objective(design, k, &free, &trial, w0, config.ridge);
            if value < current {
                let gain = current - value;
                w = trial;
                current = value;
                moved = true;
                if gain < 1e-12 {
                    return w;
                }
                break;
            }
            t *= 0.5;
        }
        if !moved {
            break;
        }
    }
    w
}

fn add(mut a: Vec<f64>, b: Vec<f64>) -> Vec<f64> {
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
    a
}

/// Solves `h s = g` for a symmetric positive definite `h` (`d` by `d`, overwritten by its
/// Cholesky factor); `None` if it is not positive definite.
fn cholesky_solve(h: &mut [f64], g: &[f64], d: usize) -> Option<Vec<f64>> {
    for j in 0..d {
        let mut diag = h[j * d + j];
        for p in 0..j {
            diag -= h[j * d + p] * h[j * d + p];
        }
        if diag <= 0.0 {
            return None;
        }
        let diag = diag.sqrt();
        h[j * d + j] = diag;
        for i in j + 1..d {
            let mut v = h[i * d + j];
            for p in 0..j {
                v -= h[i * d + p] * h[j * d + p];
            }
            h[i * d + j] = v / diag;
        }
    }
    // L y = g, then L^T s = y.
    let mut y = g.to_vec();
    for i in 0..d {
        for p in 0..i {
            y[i] -= h[i * d + p] * y[p];
        }
        y[i] /= h[i * d + i];
    }
    for i in (0..d).rev() {
        for p in i + 1..d {
            y[i] -= h[p * d + i] * y[p];
        }
        y[i] /= h[i * d + i];
    }
    Some(y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A design of `n` rows of 3 random activations whose outcomes are the chances
    /// `sigmoid(x . w)` themselves (soft targets: the maximum likelihood is `w` exactly).
    fn design(n: usize, w: &[f64; 4]) -> Design {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut d = Design {
            dims: 4,
            ..Design::default()
        };
        for _ in 0..n {
            let h: [f32; 3] = std::array::from_fn(|_| rng.gen_range(0.0..1.0));
            let z = f64::from(h[0]) * w[0] + f64::from(h[1]) * w[1] + f64::from(h[2]) * w[2] + w[3];
            let q = sigmoid(z) as f32;
            d.push_row(&h, [q; OUTPUTS], [true, true, false, true, true]);
        }
        d
    }

    #[test]
    fn a_refitted_row_recovers_the_weights_that_made_the_outcomes() {
        let truth = [1.5, -2.0, 0.5, -0.7];
        let d = design(20_000, &truth);
        let config = FitConfig {
            ridge: 0.0,
            steps: 30,
            hessian_stride: 3,
        };
        let w = fit_row(&d, 1, &[0.0; 4], config);
        for (a, b) in w.iter().zip(truth) {
            assert!((a - b).abs() < 1e-4, "{w:?}");
        }
        // An output no row is free at keeps its row.
        assert_eq!(fit_row(&d, 2, &[0.3; 4], config), vec![0.3; 4]);
    }

    #[test]
    fn the_ridge_holds_the_row_and_the_fit_never_raises_the_objective() {
        let d = design(5_000, &[1.0, 1.0, -1.0, 0.2]);
        let w0 = [0.0, 0.5, 0.0, 0.0];
        let held = fit_row(
            &d,
            0,
            &w0,
            FitConfig {
                ridge: 1e6,
                ..FitConfig::default()
            },
        );
        for (a, b) in held.iter().zip(w0) {
            assert!((a - b).abs() < 1e-5, "{held:?}");
        }
        let config = FitConfig {
            ridge: 1e-3,
            ..FitConfig::default()
        };
        let fitted = fit_row(&d, 0, &w0, config);
        let (before, after) = (
            objective(&d, 0, &free_rows(&d, 0), &w0, &w0, config.ridge),
            objective(&d, 0, &free_rows(&d, 0), &fitted, &w0, config.ridge),
        );
        assert!(after < before, "{after} >= {before}");
        // Deterministic.
        assert_eq!(fitted, fit_row(&d, 0, &w0, config));
    }

    #[test]
    fn a_net_s_row_goes_out_and_back_unchanged() {
        let mut net = Net::random_with_inputs(10, 16, 3);
        let w = row_of(&net, 2);
        assert_eq!(w.len(), 17);
        let before = net.clone();
        set_row(&mut net, 2, &w);
        assert_eq!(net.w2, before.w2);
        assert_eq!(net.b2, before.b2);
        let moved: Vec<f64> = w.iter().map(|v| v + 0.25).collect();
        set_row(&mut net, 2, &moved);
        assert_eq!(net.b2[2], before.b2[2] + 0.25);
        assert_eq!(net.w2[..32], before.w2[..32]);
    }
}
