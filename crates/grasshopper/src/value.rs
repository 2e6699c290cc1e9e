//! The game-theoretic value of a position (loss, draw or win for the side to move), shared
//! by the exact [`crate::solver`] and the retrograde [`crate::endgame`] tables.

use tabula_core::Color;

/// A game-theoretic value, from the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    /// The side to move loses against best play.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move wins against any defence.
    Win,
}

impl Value {
    pub(crate) fn from_score(v: i8) -> Value {
        match v {
            1 => Value::Win,
            0 => Value::Draw,
            _ => Value::Loss,
        }
    }

    /// The winner under best play when `mover` is to move; `None` for a draw.
    pub fn winner(self, mover: Color) -> Option<Color> {
        match self {
            Value::Win => Some(mover),
            Value::Draw => None,
            Value::Loss => Some(mover.other()),
        }
    }
}
