//! The neural evaluator: multilayer perceptrons trained by the coach (`tabula-coach`),
//! one per game phase (contact, race, and optionally crashed), that give the five cubeless
//! chances of the player on roll. Exact bear-off positions keep the one-sided database,
//! finished boards their result.
//!
//! - [`encode`]: the inputs, a per-point encoding of both sides plus a few counts, and
//!   optionally the hand-crafted [`features`];
//! - [`file`]: the contact, race and (optional) crashed nets in the shared weights file;
//! - [`batch`]: many positions at once, the first layer updated incrementally;
//! - [`NeuralEvaluator`]: the [`Evaluator`] on top.
//!
//! The perceptron, its forward pass and the file format are the net library both dice games
//! share ([`crate::nn`]); [`net`] and [`simd`] are re-exported here under their old paths.

pub mod batch;
pub mod encode;
pub mod features;
pub mod file;

pub use crate::nn::{net, simd};

use super::bearoff::BearoffDb;
use super::chances::finished;
use super::chances::{Evaluator, Probabilities};
use net::Net;
use tabula_tables::{Position, CHECKERS};

/// Which net judges a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Some checkers of the two sides must still pass each other, neither side crashed.
    Contact,
    /// Contact, and a side has crashed: 8 or more of its checkers off or on its own one- and
    /// two-points ([`crate::backgammon::efficiency::crashed`]). Judged by the crashed net
    /// where the weights have one, by the contact net otherwise.
    Crashed,
    /// A pure race, not yet in the bear-off database.
    Race,
}

impl Phase {
    /// The phase of a position that is neither finished nor in the bear-off database.
    pub fn of(pos: &Position) -> Phase {
        Phase::knowing_race(pos, pos.is_race())
    }

    /// [`Phase::of`] where the caller has already asked [`Position::is_race`] (`race`).
    pub fn knowing_race(pos: &Position, race: bool) -> Phase {
        if race {
            Phase::Race
        } else if crate::backgammon::efficiency::crashed(pos) {
            Phase::Crashed
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
    /// The crashed net, where the weights have one (crashed positions go to the contact net
    /// otherwise).
    pub crashed: Option<Net>,
    /// The inputs the nets read.
    pub encoding: encode::Encoding,
    /// A second evaluator whose chances are averaged with these nets' (an ensemble of two
    /// sets of nets, for measurements: no level uses one; `None`: these nets alone). Training reads and
    /// writes only this evaluator's own nets.
    pub partner: Option<Box<NeuralEvaluator>>,
}

impl Net {
    /// A net of small random weights for the backgammon encoding (the start of training),
    /// from `seed`.
    pub fn random(hidden: usize, seed: u64) -> Net {
        Net::random_with_inputs(encode::INPUTS, hidden, seed)
    }
}

/// The weights shipped with Tabula (`crates/ai/weights/backgammon.tnn`), trained by
/// `crates/coach/examples/train.rs` (docs/training.md).
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
        let crashed = take("crashed").ok();
        let encoding = encode::Encoding::of_inputs(contact.inputs())
            .expect("file::read admits only the backgammon encodings");
        Ok(NeuralEvaluator {
            contact,
            race,
            crashed,
            encoding,
            partner: None,
        })
    }

    /// Fresh nets of small random weights (the start of training) of the given sizes,
    /// reading `encoding`; the race net's seed is `seed + 1`.
    pub fn random(
        encoding: encode::Encoding,
        contact_hidden: usize,
        race_hidden: usize,
        seed: u64,
    ) -> NeuralEvaluator {
        let n = encoding.inputs();
        NeuralEvaluator {
            contact: Net::random_with_inputs(n, contact_hidden, seed),
            race: Net::random_with_inputs(n, race_hidden, seed.wrapping_add(1)),
            crashed: None,
            encoding,
            partner: None,
        }
    }

    /// These nets with `partner`'s: every evaluation is the mean of the two evaluators'
    /// chances ([`Probabilities::mean`]; exact positions stay exact).
    pub fn with_partner(mut self, partner: NeuralEvaluator) -> NeuralEvaluator {
        self.partner = Some(Box::new(partner));
        self
    }

    /// The same nets with a crashed net of their own, a copy of the contact net (the start
    /// of its training: it begins as the same function).
    pub fn with_crashed_net(mut self) -> NeuralEvaluator {
        self.crashed = Some(self.contact.clone());
        self
    }

    /// The net for `phase`.
    pub fn net(&self, phase: Phase) -> &Net {
        match phase {
            Phase::Contact => &self.contact,
            Phase::Crashed => self.crashed.as_ref().unwrap_or(&self.contact),
            Phase::Race => &self.race,
        }
    }

    /// The net for `phase`, to be trained.
    pub fn net_mut(&mut self, phase: Phase) -> &mut Net {
        match phase {
            Phase::Contact => &mut self.contact,
            Phase::Crashed => self.crashed.as_mut().unwrap_or(&mut self.contact),
            Phase::Race => &mut self.race,
        }
    }

    /// Which of [`NeuralEvaluator::named_nets`] judges `phase`: 0 contact, 1 race, 2 crashed
    /// (0 where there is no crashed net).
    pub fn slot(&self, phase: Phase) -> usize {
        match phase {
            Phase::Contact => 0,
            Phase::Race => 1,
            Phase::Crashed => 2 * usize::from(self.crashed.is_some()),
        }
    }

    /// The nets with their names in the weights file, in slot order ([`NeuralEvaluator::slot`]).
    pub fn named_nets(&self) -> Vec<(&'static str, &Net)> {
        let mut nets = vec![("contact", &self.contact), ("race", &self.race)];
        nets.extend(self.crashed.as_ref().map(|n| ("crashed", n)));
        nets
    }

    /// The nets in slot order, to be trained.
    pub fn nets_mut(&mut self) -> Vec<&mut Net> {
        let mut nets = vec![&mut self.contact, &mut self.race];
        nets.extend(self.crashed.as_mut());
        nets
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
        let own = probabilities(out, pos);
        match &self.partner {
            Some(partner) => own.mean(&partner.evaluate(pos)),
            None => own,
        }
    }

    fn evaluate_batch(&self, positions: &[Position], out: &mut Vec<Probabilities>) {
        NeuralEvaluator::evaluate_batch(self, positions, out);
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
