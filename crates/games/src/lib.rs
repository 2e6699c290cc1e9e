//! The face of every game, written once beside its rules: what the front ends (the CLI, the
//! server, the fuzzing harness) need of a game that the rules crates do not give, because it
//! is text, JSON, a command-line option or a bot.
//!
//! - [`GameArgs`]: the game and its options on the command line, declared once for every
//!   command that takes them.
//! - [`Face`]: a game's actions in canonical text (read to their typed value, written for the
//!   one action applied), its JSON view, its notation and its bots; one folder per game
//!   ([`backgammon`], [`never_finishing`], [`grasshopper`], [`halma`]) implements it and
//!   makes the game from its options.
//! - [`Terminal`]: what a game adds to its face to be played at a text terminal (narration,
//!   status line, the board drawn from a player's side, help, reading typed plays and
//!   commands), written in the same folder; the drawings are each game's `drawing` module.
//! - [`GameOptionsFace`]: a game's options as the server takes them in JSON, in its folder
//!   beside its face ([`backgammon::Options`], ...): defaults, the defaults a created game
//!   stores, the description in words and the game they make; [`AnyOptions`] is any of them
//!   behind one object type, and with the `openapi` feature [`tagged_schema`] gives one
//!   game's shape in the OpenAPI schema.
//! - [`AnyFace`]: any game behind one object type, for a front end that holds games of every
//!   kind side by side (the server's tables).
//! - [`OptionsError`] and [`ActionError`]: why options or action text are refused.
#![deny(missing_docs)]

mod args;
pub mod backgammon;
mod dynamic;
mod error;
mod face;
pub mod grasshopper;
pub mod halma;
pub mod never_finishing;
mod options;
pub mod terminal;
mod time_out;

pub use args::{GameArgs, GameIdParser};
pub use dynamic::AnyFace;
pub use error::{ActionError, OptionsError};
pub use face::{apply_text, bot_text, Face, Finished};
#[cfg(feature = "openapi")]
pub use options::tagged_schema;
pub use options::{AnyOptions, GameOptionsFace};
pub use terminal::Terminal;
