//! Bots for the Tabula games: evaluators behind a trait, search on top, named levels.
//!
//! Every game's bots implement [`Bot`] and are built by the factories in [`bots`] from a
//! [`Level`] and a seed. Backgammon and Never-Finishing share a hand-made evaluator (with an
//! exact one-sided bear-off database for races) and a 0/1/2-ply play search, with match-aware
//! cube decisions from a match equity table; Grasshopper and Grasshopper (Halma) have
//! alpha-beta searches with their own evaluations. [`selfplay`] measures bots against each
//! other. A neural evaluator can replace the hand-made one behind the `Evaluator` trait; its
//! nets are the shared library [`nn`], trained apart from this runtime by the coach
//! (`tabula-coach`), on which no runtime crate depends.
#![deny(missing_docs)]

pub mod backgammon;
mod bot;
pub mod bots;
pub mod grasshopper;
pub mod halma;
mod level;
pub mod never_finishing;
pub mod nn;
pub mod search;
pub mod selfplay;
pub mod study;

pub use bot::{Bot, Budget, RandomBot};
pub use level::{Level, UnknownLevel};
