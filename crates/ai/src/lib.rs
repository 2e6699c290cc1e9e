//! Bots for the Tabula games: evaluators behind a trait, search on top, named levels.
//!
//! This is the baseline of issue 2: a hand-made backgammon evaluator with 0- and 1-ply
//! search and simple cube rules. Stronger evaluators replace it behind the same traits.
#![deny(missing_docs)]

pub mod backgammon;
mod bot;
pub mod bots;
pub mod grasshopper;
pub mod halma;
mod level;
pub mod never_finishing;
pub mod search;
pub mod selfplay;

pub use bot::{Bot, Budget, RandomBot};
pub use level::{Level, UnknownLevel};
