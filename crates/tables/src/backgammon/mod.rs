//! Backgammon: one game with its doubling cube and resignations ([`GameState`]), and the
//! session around it, a match or money play ([`Backgammon`], which implements
//! [`tabula_core::Game`]). Every rule decision is recorded in `docs/rules/backgammon.md`.

mod action;
mod cube;
mod error;
mod game;
mod options;
mod session;
#[cfg(test)]
mod tests;

pub use action::{Action, Ending, GameResult, ResignLevel};
pub use cube::Cube;
pub use error::BackgammonError;
pub use game::{GameState, Phase};
pub use options::{Mode, Options, OptionsError, MAX_CUBE};
pub use session::{Backgammon, Event};
