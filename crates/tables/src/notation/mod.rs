//! Text formats of the backgammon board and its plays, each with round-trip tests:
//! gnubg Position ID and Match ID, XGID, and move text as gnubg writes it.

mod base64;
pub mod position_id;

pub use position_id::PositionIdError;
