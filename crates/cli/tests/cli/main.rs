//! The `tabula` binary, run for real: output formats, exit codes, and whole sessions, one
//! module per game.

mod backgammon;
mod common;
mod grasshopper;
mod halma;
mod never_finishing;
mod selfplay;
mod study;
