//! The neural evaluator: multilayer perceptrons trained here by self-play (`crate::train`),
//! one per game phase (contact and race), that give the five cubeless chances of the player
//! on roll. Exact bear-off positions keep the one-sided database, finished boards their
//! result.
//!
//! - [`encode`]: the inputs, a per-point encoding of both sides plus a few counts, and
//!   optionally the hand-crafted [`features`];
//! - [`net`]: one perceptron (one hidden layer of sigmoids, five sigmoid outputs), its sparse
//!   forward pass and the gradient the trainer needs;
//! - [`simd`]: the forward pass in AVX2/FMA intrinsics, chosen at run time;
//! - [`file`]: the weights file, a small versioned and checksummed format of our own;
//! - [`NeuralEvaluator`]: the [`Evaluator`] on top.

pub mod encode;
pub mod features;
pub mod file;
pub mod net;
pub mod simd;

use super::bearoff::BearoffDb;
use super::eval::{finished, Evaluator, Probabilities};
use net::Net;
use tabula_tables::{Position, CHECKERS};

/// Which net judges a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Some checkers of the two sides must still pass each other.
    Contact,
    /// A pure race, not yet in the bear-off database.
    Race,
}

impl Phase {
    /// The phase of a position that is neither finished nor in the bear-off database.
    pub fn of(pos: &Position) -> Phase {
        if pos.is_race() {
            Phase::Race
        } else {
            Phase::Contact
        }
    }
}

/// The evaluator on the trained nets.
#[derive(Debug, Clone)]
pub struct NeuralEvaluator {
    /// The contact net.
    pub contact: Net,
    /// The race net.
    pub race: Net,
    /// The inputs both nets read.
    pub encoding: encode::Encoding,
}

/// The weights shipped with Tabula (`crates/ai/weights/backgammon.tnn`), trained by
/// `crates/ai/examples/train.rs` (docs/training.md).
const SHIPPED: &[u8] = include_bytes!("../../../weights/backgammon.tnn");

impl NeuralEvaluator {
    /// The shipped nets, parsed once and shared.
    pub fn shipped() -> &'static NeuralEvaluator {
        static NETS: std::sync::OnceLock<NeuralEvaluator> = std::sync::OnceLock::new();
        NETS.get_or_init(|| {
            NeuralEvaluator::from_bytes(SHIPPED).expect("the shipped weights are checked by a test")
        })
    }

    /// Nets read from a weights file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<NeuralEvaluator, file::WeightsError> {
        let weights = file::read(bytes)?;
        let take = |name: &str| {
            weights
                .nets
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, net)| net.clone())
                .ok_or_else(|| file::WeightsError::MissingNet(name.to_string()))
        };
        let contact = take("contact")?;
        let race = take("race")?;
        let encoding = encode::Encoding::of_inputs(contact.inputs())
            .expect("file::read admits only the backgammon encodings");
        Ok(NeuralEvaluator {
            contact,
            race,
            encoding,
        })
    }

    /// The net for `phase`.
    pub fn net(&self, phase: Phase) -> &Net {
        match phase {
            Phase::Contact => &self.contact,
            Phase::Race => &self.race,
        }
    }

    /// The exact chances where they are known without a net: a finished board, or a race
    /// in the bear-off database.
    pub fn exact(pos: &Position) -> Option<Probabilities> {
        if pos.opponent_off() == CHECKERS {
            return Some(finished(pos));
        }
        if pos.mover_off() == CHECKERS {
            return Some(finished(&pos.flip()).flip());
        }
        BearoffDb::get().chances(pos)
    }
}

impl Evaluator for NeuralEvaluator {
    fn evaluate(&self, pos: &Position) -> Probabilities {
        if let Some(p) = NeuralEvaluator::exact(pos) {
            return p;
        }
        let mut inputs = encode::Inputs::new();
        self.encoding.encode(pos, &mut inputs);
        let out = self.net(Phase::of(pos)).forward(&inputs);
        probabilities(out, pos)
    }
}

/// The five outputs made consistent: each a probability, gammons within wins, backgammons
/// within gammons, and no gammon either way once the side that would suffer it has borne off
/// a checker.
pub fn probabilities(out: [f32; 5], pos: &Position) -> Probabilities {
    let win = out[0].clamp(0.0, 1.0);
    let (mut wg, mut lg) = (out[1].clamp(0.0, win), out[3].clamp(0.0, 1.0 - win));
    if pos.opponent_off() > 0 {
        wg = 0.0;
    }
    if pos.mover_off() > 0 {
        lg = 0.0;
    }
    Probabilities {
        win,
        win_gammon: wg,
        win_backgammon: out[2].clamp(0.0, wg),
        lose_gammon: lg,
        lose_backgammon: out[4].clamp(0.0, lg),
    }
}

#[cfg(test)]
mod tests;
