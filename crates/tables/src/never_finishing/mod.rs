//! Never-Finishing backgammon (Nicholas Frantzis): every checker starts on the opponent's
//! one-point, and a blot landed on may be hit or trapped. It shares the tables board
//! ([`Position`](crate::Position), whose trapped-checker mask exists for this game) and the
//! move generators: backgammon's fast generator in its trapping mode while no checker is
//! trapped, the general [`SequenceGen`](crate::SequenceGen) otherwise (both behind
//! [`TablesGen`](crate::TablesGen)). One game is a [`NfGame`]; a match or money session
//! around it is [`NeverFinishing`], which implements [`tabula_core::Game`]. Every rule
//! decision is recorded in `docs/rules/never-finishing.md`.

mod game;
mod session;
#[cfg(test)]
mod tests;

pub use game::{start_position, Action, NfError, NfGame, NfPhase, NfResult};
pub use session::{BadLength, NeverFinishing, NfEvent, NfOptions, Scoring};
