//! One factory per game: the bot of a named level, as the CLI, the harness and the server
//! build them. A level a game does not have is refused with [`NoSuchBot`]; today every game
//! has all four levels, and the error stays for levels added above them.

use crate::backgammon::BackgammonBot;
use crate::bot::{Bot, RandomBot};
use crate::never_finishing::NfBot;
use crate::Level;
use tabula_core::{Game, GameId};
use tabula_grasshopper::Grasshopper;
use tabula_halma::HalmaGrasshopper;
use tabula_tables::backgammon::{Action, Backgammon};
use tabula_tables::never_finishing::{Action as NfAction, NeverFinishing};
use thiserror::Error;

/// A level that the game has no bot for (yet).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{game} has no {level} bot yet (available: {available})")]
pub struct NoSuchBot {
    /// The game.
    pub game: GameId,
    /// The level asked for.
    pub level: Level,
    /// The levels the game has, comma-separated.
    pub available: String,
}

impl Bot<Backgammon> for BackgammonBot {
    fn choose(&mut self, game: &Backgammon) -> Option<Action> {
        match game.status() {
            tabula_core::Status::Decide { .. } => Some(BackgammonBot::choose(self, game)),
            _ => None,
        }
    }
}

impl Bot<NeverFinishing> for NfBot {
    fn choose(&mut self, game: &NeverFinishing) -> Option<NfAction> {
        NfBot::choose(self, game)
    }
}

/// A backgammon bot (every level).
pub fn backgammon(level: Level, seed: u64) -> Result<Box<dyn Bot<Backgammon> + Send>, NoSuchBot> {
    Ok(Box::new(BackgammonBot::new(level, seed)))
}

/// A Never-Finishing bot (every level).
pub fn never_finishing(
    level: Level,
    seed: u64,
) -> Result<Box<dyn Bot<NeverFinishing> + Send>, NoSuchBot> {
    Ok(Box::new(NfBot::new(level, seed)))
}

/// A Grasshopper bot.
pub fn grasshopper(level: Level, seed: u64) -> Result<Box<dyn Bot<Grasshopper> + Send>, NoSuchBot> {
    match level {
        Level::Random => Ok(Box::new(RandomBot::<Grasshopper>::new(seed, |_| true))),
        _ => Ok(Box::new(crate::grasshopper::GrasshopperBot::new(
            level, seed,
        ))),
    }
}

/// A Grasshopper (Halma) bot.
pub fn halma(level: Level, seed: u64) -> Result<Box<dyn Bot<HalmaGrasshopper> + Send>, NoSuchBot> {
    use tabula_halma::Action as H;
    match level {
        Level::Random => Ok(Box::new(RandomBot::<HalmaGrasshopper>::new(seed, |a| {
            matches!(a, H::Move(_) | H::Pass)
        }))),
        _ => Ok(Box::new(crate::halma::HalmaBot::new(level, seed))),
    }
}
