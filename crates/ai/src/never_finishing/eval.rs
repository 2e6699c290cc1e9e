//! The Never-Finishing evaluator: cubeless chances of the player on roll from a net trained
//! by self-play in the coach (`tabula-coach`), with what is known without it answered
//! exactly or by the backgammon race net.
//!
//! - Finished boards: their result (a gammon when the loser bore off none; there are no
//!   backgammons in this game, so those outputs are always 0).
//! - No checker trapped and no contact (`Position::is_race`): nothing can ever be hit or
//!   trapped again, and moving and bearing off follow backgammon's rules exactly (Plakoto's
//!   bearing off is backgammon's), as does the gammon (the loser bore off none). Such a
//!   position is a backgammon race, so the bear-off database answers it exactly when both
//!   sides are home.
//! - Everything else, other races included: the Never-Finishing net on [`super::encode`]'s
//!   inputs. (The backgammon race net would be valid in principle, but Never-Finishing's
//!   races are far from its training: stacks of ten or more checkers, pip counts up to 360.
//!   Bootstrapping self-play from it made the first runs worse against the heuristic with
//!   every checkpoint, so it is not used.)

use super::encode::{encode, INPUTS};
use crate::backgammon::{BearoffDb, Evaluator, Probabilities};
use crate::nn::file::{self, WeightsError};
use crate::nn::inputs::Inputs;
use crate::nn::net::{Net, OUTPUTS};
use tabula_tables::{Position, CHECKERS};

/// The evaluator on the Never-Finishing net.
#[derive(Debug, Clone)]
pub struct NfEvaluator {
    /// The net for every position with contact or a trapped checker.
    pub net: Net,
}

/// The shipped weights (`crates/ai/weights/never-finishing.tnn`), trained by
/// `crates/coach/examples/train_nf.rs` (docs/training.md, "The Never-Finishing net").
const SHIPPED: &[u8] = include_bytes!("../../weights/never-finishing.tnn");

/// The name of the net in the weights file.
pub const NET_NAME: &str = "nf";

impl NfEvaluator {
    /// The shipped net, parsed once and shared.
    pub fn shipped() -> &'static NfEvaluator {
        static NET: std::sync::OnceLock<NfEvaluator> = std::sync::OnceLock::new();
        NET.get_or_init(|| {
            NfEvaluator::from_bytes(SHIPPED).expect("the shipped weights are checked by a test")
        })
    }

    /// A fresh net of small random weights (the start of training).
    pub fn random(hidden: usize, seed: u64) -> NfEvaluator {
        NfEvaluator {
            net: Net::random_with_inputs(INPUTS, hidden, seed),
        }
    }

    /// The net read from a weights file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<NfEvaluator, WeightsError> {
        let weights = file::read_for(bytes, INPUTS)?;
        let net = weights
            .nets
            .into_iter()
            .find(|(n, _)| n == NET_NAME)
            .map(|(_, net)| net)
            .ok_or_else(|| WeightsError::MissingNet(NET_NAME.to_string()))?;
        Ok(NfEvaluator { net })
    }

    /// The chances known without the Never-Finishing net: a finished board, or a backgammon
    /// race in the bear-off database (both sides home, nothing trapped).
    pub fn known(pos: &Position) -> Option<Probabilities> {
        if pos.opponent_off() == CHECKERS {
            return Some(finished(pos));
        }
        if pos.mover_off() == CHECKERS {
            return Some(finished(&pos.flip()).flip());
        }
        // The database's positions are races (both sides home) with nothing trapped.
        BearoffDb::get().chances(pos)
    }

    /// The net's chances for `inputs`, the encoding of `pos`.
    pub fn net_chances(&self, inputs: &Inputs, pos: &Position) -> Probabilities {
        probabilities(self.net.forward(inputs), pos)
    }
}

impl Evaluator for NfEvaluator {
    fn evaluate(&self, pos: &Position) -> Probabilities {
        if let Some(p) = NfEvaluator::known(pos) {
            return p;
        }
        let mut inputs = Inputs::new();
        encode(pos, &mut inputs);
        self.net_chances(&inputs, pos)
    }
}

/// The result of a board the opponent has borne off: lost, a gammon if the mover bore off
/// none.
fn finished(pos: &Position) -> Probabilities {
    Probabilities {
        lose_gammon: if pos.mover_off() == 0 { 1.0 } else { 0.0 },
        ..Probabilities::default()
    }
}

/// A net's five outputs made consistent: probabilities, gammons within wins, no gammon
/// against a side that has borne off a checker, no backgammons.
pub fn probabilities(out: [f32; OUTPUTS], pos: &Position) -> Probabilities {
    let win = out[0].clamp(0.0, 1.0);
    let mut wg = out[1].clamp(0.0, win);
    let mut lg = out[3].clamp(0.0, 1.0 - win);
    if pos.opponent_off() > 0 {
        wg = 0.0;
    }
    if pos.mover_off() > 0 {
        lg = 0.0;
    }
    Probabilities {
        win,
        win_gammon: wg,
        win_backgammon: 0.0,
        lose_gammon: lg,
        lose_backgammon: 0.0,
    }
}
