//! The face of every game, written once beside its rules: what the front ends (the CLI, the
//! server, the fuzzing harness) need of a game that the rules crates do not give, because it
//! is text, JSON, a command-line option or a bot.
//!
//! - [`GameArgs`]: the game and its options on the command line, declared once for every
//!   command that takes them.
#![deny(missing_docs)]

mod args;

pub use args::{GameArgs, GameIdParser};
