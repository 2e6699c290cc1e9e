//! A player's action, with its text: a move, a pass, or a draw offer and its acceptance.

use crate::notation::{MoveError, MoveText};
use crate::position::Position;
use crate::Move;
use std::fmt;

/// What the player to move does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// A step or a chain of jumps, identified by its start and end squares.
    Move(Move),
    /// Pass the turn: legal only when the player has no move.
    Pass,
    /// Offer a draw. The player still moves (or passes) afterwards; the offer stands for the
    /// opponent's next turn, who may accept it instead of moving, or decline it by moving.
    OfferDraw,
    /// Accept the opponent's standing draw offer: the game is drawn by agreement.
    AcceptDraw,
}

impl fmt::Display for Action {
    /// `c3-e5`, `pass`, `offer-draw`, `accept-draw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Move(mv) => write!(f, "{mv}"),
            Action::Pass => f.write_str("pass"),
            Action::OfferDraw => f.write_str("offer-draw"),
            Action::AcceptDraw => f.write_str("accept-draw"),
        }
    }
}

impl Action {
    /// Reads `pass`, `offer-draw`, `accept-draw` (either case), or move text checked against
    /// `position` (see [`Position::parse_move`]). Whether the action is legal in the game
    /// (a pass with a move available, an offer already standing) is for the game to say.
    pub fn parse(position: &Position, text: &str) -> Result<Action, MoveError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "pass" => Ok(Action::Pass),
            "offer-draw" => Ok(Action::OfferDraw),
            "accept-draw" => Ok(Action::AcceptDraw),
            _ => Ok(Action::Move(
                position.check_move(&text.parse::<MoveText>()?)?,
            )),
        }
    }
}
