//! TD(lambda) self-play for the Never-Finishing net: the method of [`super::td`] (same
//! [`TdConfig`](super::td::TdConfig), [`train_batch`]) on [`NfRules`], one net instead of two.
//!
//! Each game starts from Never-Finishing's start (fifteen checkers a side on the opponent's
//! one-point) and is played by the current net at 0-ply on the trapping move generator; the
//! dice are the only exploration. Every position the player on roll faces is a training
//! example whose target is its lambda-return, walked back from the end as in [`super::td`].
//!
//! A game ends for training at the first position the net is not asked about
//! ([`NfEvaluator::known`]): a finished board, or a race with nothing trapped and both sides
//! home, which the bear-off database answers exactly; that value is the game's result and
//! the bear-off that would follow is not played. A game also ends as a **draw** (target: win
//! 0.5, no gammons) when the position is dead (no roll moves either side, the rules' draw)
//! or after [`MAX_PLIES`] plies without an end (never seen in practice; kept so that a
//! pathological game cannot stall a run). Draws are trained on, not dropped.

use super::rules::NfRules;
use super::td::{flip, to_array, TdNets};
use tabula_ai::backgammon::Probabilities;
use tabula_ai::never_finishing::encode::encode;
use tabula_ai::never_finishing::NfEvaluator;
use tabula_ai::nn::inputs::Inputs;
use tabula_ai::nn::net::{Net, OUTPUTS};
use tabula_tables::Position;

pub use super::rules::NF_MAX_PLIES as MAX_PLIES;
pub use super::td::{train_batch, BatchReport, DRAW};

/// The Never-Finishing net (0), asked about every position a game meets before its end.
impl TdNets for NfEvaluator {
    type Rules = NfRules;
    const MAX_PLIES: usize = MAX_PLIES;

    fn nets(&self) -> Vec<&Net> {
        vec![&self.net]
    }

    fn nets_mut(&mut self) -> Vec<&mut Net> {
        vec![&mut self.net]
    }

    fn example(&self, pos: &Position) -> Option<(Inputs, usize)> {
        let mut inputs = Inputs::new();
        encode(pos, &mut inputs);
        Some((inputs, 0))
    }

    fn chances_of(&self, _net: usize, inputs: &Inputs, pos: &Position) -> Probabilities {
        self.net_chances(inputs, pos)
    }

    fn result(&self, after: &Position) -> Option<[f32; OUTPUTS]> {
        NfEvaluator::known(&after.flip()).map(|known| flip(&to_array(&known)))
    }
}
