//! The game as the CLI, the bots and the server drive it: a [`Position`] behind
//! [`tabula_core::Game`]. Grasshopper has no dice, so [`Game::roll`] always refuses.

use crate::{Action, Checkers, IllegalMove, Position};
use tabula_core::{Decision, DiceRoll, Game, GameId, Status};
use thiserror::Error;

/// A refused action or roll; the game is unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum GrasshopperError {
    /// The action breaks a rule.
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
    /// Dice were offered to a game without dice.
    #[error("grasshopper is played without dice")]
    NoDice,
}

/// One game of Grasshopper.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grasshopper {
    position: Position,
}

impl Grasshopper {
    /// A new game with `checkers` each, all in hand, White to move.
    pub fn new(checkers: Checkers) -> Grasshopper {
        Grasshopper {
            position: Position::start(checkers),
        }
    }

    /// A game continuing from `position`.
    pub fn from_position(position: Position) -> Grasshopper {
        Grasshopper { position }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }
}

impl Default for Grasshopper {
    fn default() -> Grasshopper {
        Grasshopper::new(Checkers::default())
    }
}

impl Game for Grasshopper {
    type Action = Action;
    type Error = GrasshopperError;

    fn id(&self) -> GameId {
        GameId::Grasshopper
    }

    fn status(&self) -> Status {
        match self.position.outcome() {
            Some(outcome) => Status::Over(outcome),
            None => Status::Decide {
                player: self.position.turn(),
                decision: Decision::Move,
            },
        }
    }

    fn legal_actions(&self) -> Vec<Action> {
        self.position.legal_actions().to_vec()
    }

    fn apply(&mut self, action: &Action) -> Result<(), GrasshopperError> {
        self.position = self.position.play(*action)?;
        Ok(())
    }

    fn roll(&mut self, _dice: DiceRoll) -> Result<(), GrasshopperError> {
        Err(GrasshopperError::NoDice)
    }
}
