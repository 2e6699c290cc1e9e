//! Text notations: a position ([`position_text`]) and a move ([`move_text`]), each
//! round-tripping, with the grammar in `docs/notation.md` (section "Grasshopper").

pub mod move_text;
pub mod position_text;

pub use move_text::{parse_move, MoveText, MoveTextError, ParseMoveError};
pub use position_text::{format_position, parse_position, PositionTextError};
