//! Text formats of the backgammon board and its plays, each with round-trip tests:
//! gnubg Position ID and Match ID, XGID, move text as gnubg writes it (with Never-Finishing's
//! trap mark), and Tabula's tables position notation for the whole family.

mod base64;
pub mod ids;
pub use ids::{session_ids, PositionIds};
pub mod position_id;

pub use position_id::PositionIdError;
pub mod mat;
pub mod match_id;
pub mod move_text;
pub mod setup;
pub mod sgf;
pub mod tables;
pub mod xgid;
pub use match_id::{GameState, MatchId, MatchIdError};
pub use move_text::{
    format_move, format_play, match_play, parse_play, IllegalMove, MoveParseError, MoveTextError,
};
pub use move_text::{format_move_nf, format_move_with, match_play_nf, match_play_with};
pub use setup::{session_from_notation, SetupError};
pub use tables::{TablesPosition, TablesPositionError};
pub use xgid::{Xgid, XgidError};
