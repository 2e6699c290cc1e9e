//! What every backgammon-family evaluator gives: the cubeless chances of the player on roll
//! ([`Probabilities`]), behind the [`Evaluator`] trait so that the hand-made baseline can be
//! swapped for a neural evaluator.

use tabula_tables::Position;

/// Cubeless chances of the player on roll. `win` includes gammons and backgammons;
/// `win_gammon` includes backgammons.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Probabilities {
    /// Chance to win.
    pub win: f32,
    /// Chance to win a gammon or backgammon.
    pub win_gammon: f32,
    /// Chance to win a backgammon.
    pub win_backgammon: f32,
    /// Chance to lose a gammon or backgammon.
    pub lose_gammon: f32,
    /// Chance to lose a backgammon.
    pub lose_backgammon: f32,
}

/// The five chances and their cubeless equity as the study tools report them (the CLI's
/// `--json` and the server's study endpoints write the same object).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = ChancesView))]
pub struct ChancesReport {
    /// Chance to win (gammons and backgammons included).
    pub win: f32,
    /// Chance to win a gammon or backgammon.
    pub win_gammon: f32,
    /// Chance to win a backgammon.
    pub win_backgammon: f32,
    /// Chance to lose a gammon or backgammon.
    pub lose_gammon: f32,
    /// Chance to lose a backgammon.
    pub lose_backgammon: f32,
    /// Cubeless money equity per cube unit ([`Probabilities::equity`]).
    pub cubeless_equity: f32,
}

impl From<&Probabilities> for ChancesReport {
    fn from(p: &Probabilities) -> ChancesReport {
        ChancesReport {
            win: p.win,
            win_gammon: p.win_gammon,
            win_backgammon: p.win_backgammon,
            lose_gammon: p.lose_gammon,
            lose_backgammon: p.lose_backgammon,
            cubeless_equity: p.equity(),
        }
    }
}

impl Probabilities {
    /// Cubeless money equity per cube unit: +1 per single, +2 per gammon, +3 per backgammon.
    pub fn equity(&self) -> f32 {
        2.0 * self.win - 1.0 + self.win_gammon - self.lose_gammon + self.win_backgammon
            - self.lose_backgammon
    }

    /// The mean of these chances and `other`'s, output by output (a mean of consistent
    /// chances is consistent).
    pub fn mean(&self, other: &Probabilities) -> Probabilities {
        Probabilities {
            win: 0.5 * self.win + 0.5 * other.win,
            win_gammon: 0.5 * self.win_gammon + 0.5 * other.win_gammon,
            win_backgammon: 0.5 * self.win_backgammon + 0.5 * other.win_backgammon,
            lose_gammon: 0.5 * self.lose_gammon + 0.5 * other.lose_gammon,
            lose_backgammon: 0.5 * self.lose_backgammon + 0.5 * other.lose_backgammon,
        }
    }

    /// The same chances seen by the other player.
    pub fn flip(&self) -> Probabilities {
        Probabilities {
            win: 1.0 - self.win,
            win_gammon: self.lose_gammon,
            win_backgammon: self.lose_backgammon,
            lose_gammon: self.win_gammon,
            lose_backgammon: self.win_backgammon,
        }
    }
}

/// Judges a position seen from the player on roll.
pub trait Evaluator {
    /// The cubeless chances of the player on roll.
    fn evaluate(&self, pos: &Position) -> Probabilities;

    /// The chances of each of `positions` into `out` (cleared first). Evaluators that can
    /// share work between similar positions (the neural nets' incremental first layer)
    /// override it; the answers are [`Evaluator::evaluate`]'s, within rounding.
    fn evaluate_batch(&self, positions: &[Position], out: &mut Vec<Probabilities>) {
        out.clear();
        out.extend(positions.iter().map(|p| self.evaluate(p)));
    }
}

/// The result of a finished game from the side of the player on roll, who has lost because
/// the opponent has borne off everything.
pub(crate) fn finished(pos: &Position) -> Probabilities {
    let mut p = Probabilities::default();
    if pos.mover_off() == 0 {
        p.lose_gammon = 1.0;
        let back = pos.mover_on(25) > 0 || (19..=24).any(|i| pos.mover_on(i) > 0);
        if back {
            p.lose_backgammon = 1.0;
        }
    }
    p
}
