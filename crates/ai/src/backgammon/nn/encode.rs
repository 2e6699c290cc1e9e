//! The net's inputs: each side seen from its own end of the board, point by point, in the
//! truncated unary code of TD-Gammon and gnubg (a point's first three checkers one unit each,
//! the rest as `(n - 3) / 2`), then its checkers on the bar (`n / 2`), borne off (`n / 15`)
//! and its pip count (`pips / 100`). The player on roll comes first, so the same board with
//! the other side on roll is the mirror of these inputs ([`mirror_index`]).
//!
//! Most inputs are zero (a side occupies a few points), so the encoding is sparse: the
//! indices and values of the non-zero inputs, which the first layer adds up as rows.

use super::features;
pub use crate::nn::inputs::Inputs;
use crate::nn::inputs::CAPACITY;
use tabula_tables::Position;

/// Units per point.
pub const PER_POINT: usize = 4;
/// Inputs of one side: 24 points, the bar, the checkers off, the pip count.
pub const PER_SIDE: usize = 24 * PER_POINT + 3;
/// All inputs of the per-point encoding.
pub const INPUTS: usize = 2 * PER_SIDE;
/// All inputs with the hand-crafted features: the per-point inputs, then the mover's
/// features, then the opponent's ([`super::features`]).
pub const INPUTS_WITH_FEATURES: usize = INPUTS + 2 * features::PER_SIDE;
/// All inputs of the extended encoding: those with the features, then the mover's further
/// features, then the opponent's ([`features::both_extended`]).
pub const INPUTS_EXTENDED: usize = INPUTS_WITH_FEATURES + 2 * features::EXTRA_PER_SIDE;
// The shared inputs hold exactly the widest backgammon encoding (`Inputs::dense`'s length).
const _: () = assert!(CAPACITY == INPUTS_EXTENDED);

/// Which inputs a net reads; a weights file says it by its input count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// The per-point code and the counts ([`INPUTS`]).
    Points,
    /// The same and the hand-crafted features ([`INPUTS_WITH_FEATURES`]).
    Features,
    /// The same and three further features a side ([`INPUTS_EXTENDED`]).
    Extended,
}

impl Encoding {
    /// Its number of inputs.
    pub fn inputs(self) -> usize {
        match self {
            Encoding::Points => INPUTS,
            Encoding::Features => INPUTS_WITH_FEATURES,
            Encoding::Extended => INPUTS_EXTENDED,
        }
    }

    /// The encoding of nets that read `inputs` inputs.
    pub fn of_inputs(inputs: usize) -> Option<Encoding> {
        [Encoding::Points, Encoding::Features, Encoding::Extended]
            .into_iter()
            .find(|e| e.inputs() == inputs)
    }

    /// Writes the inputs of `pos` (seen from the player on roll) into `out`.
    pub fn encode(self, pos: &Position, out: &mut Inputs) {
        match self {
            Encoding::Points => encode(pos, out),
            Encoding::Features => encode_with_features(pos, out),
            Encoding::Extended => encode_extended(pos, out),
        }
    }
}

/// The index of the same input for the other side (mover and opponent swapped).
pub fn mirror_index(i: usize) -> usize {
    const F: usize = features::PER_SIDE;
    const X: usize = features::EXTRA_PER_SIDE;
    match i {
        _ if i < PER_SIDE => i + PER_SIDE,
        _ if i < INPUTS => i - PER_SIDE,
        _ if i < INPUTS + F => i + F,
        _ if i < INPUTS_WITH_FEATURES => i - F,
        _ if i < INPUTS_WITH_FEATURES + X => i + X,
        _ => i - X,
    }
}

/// One side's inputs from its checkers on its own points 1..=24 (`counts[0]` is point 1),
/// its bar and its checkers off.
fn side(out: &mut Inputs, base: usize, counts: &[u8; 24], bar: u8, off: u8) {
    let mut pips = u32::from(bar) * 25;
    for (p, &n) in counts.iter().enumerate() {
        let at = base + p * PER_POINT;
        out.push(at, f32::from(u8::from(n >= 1)));
        out.push(at + 1, f32::from(u8::from(n >= 2)));
        out.push(at + 2, f32::from(u8::from(n >= 3)));
        if n > 3 {
            out.push(at + 3, f32::from(n - 3) / 2.0);
        }
        pips += u32::from(n) * (p as u32 + 1);
    }
    out.push(base + 24 * PER_POINT, f32::from(bar) / 2.0);
    out.push(base + 24 * PER_POINT + 1, f32::from(off) / 15.0);
    out.push(base + 24 * PER_POINT + 2, pips as f32 / 100.0);
}

/// Each side's checkers on its own points 1..=24: the mover's, the opponent's.
fn sides(pos: &Position) -> ([u8; 24], [u8; 24]) {
    let mut mine = [0u8; 24];
    let mut theirs = [0u8; 24];
    for (i, (m, t)) in mine.iter_mut().zip(theirs.iter_mut()).enumerate() {
        // The mover's point i + 1; the opponent's own point i + 1 is the mover's 24 - i.
        *m = pos.mover_on(i + 1);
        *t = pos.opponent_on(24 - i);
    }
    (mine, theirs)
}

/// Writes the per-point inputs of `pos` (seen from the player on roll) into `out`
/// ([`Encoding::Points`]).
pub fn encode(pos: &Position, out: &mut Inputs) {
    encode_points(pos, out);
}

/// The per-point inputs, and each side's checkers on its own points (which the features
/// count too).
fn encode_points(pos: &Position, out: &mut Inputs) -> ([u8; 24], [u8; 24]) {
    out.clear();
    let (mine, theirs) = sides(pos);
    side(out, 0, &mine, pos.mover_on(25), pos.mover_off());
    side(
        out,
        PER_SIDE,
        &theirs,
        pos.opponent_on(0),
        pos.opponent_off(),
    );
    (mine, theirs)
}

/// Writes the per-point inputs of `pos` and the hand-crafted features into `out`
/// ([`Encoding::Features`]).
pub fn encode_with_features(pos: &Position, out: &mut Inputs) {
    let (mine, theirs) = encode_points(pos, out);
    let f = features::both(&mine, pos.mover_on(25), &theirs, pos.opponent_on(0));
    for k in 0..features::PER_SIDE {
        out.push(INPUTS + k, f[k]);
        out.push(INPUTS + features::PER_SIDE + k, f[features::PER_SIDE + k]);
    }
}

/// Writes the per-point inputs of `pos`, the hand-crafted features and the further ones into
/// `out` ([`Encoding::Extended`]).
pub fn encode_extended(pos: &Position, out: &mut Inputs) {
    let (mine, theirs) = encode_points(pos, out);
    let f = features::both_extended(&mine, pos.mover_on(25), &theirs, pos.opponent_on(0));
    for (k, &v) in f.iter().enumerate() {
        out.push(INPUTS + k, v);
    }
}
