//! Text forms: the position notation ([`position`]) and move text ([`move_text`]). Both are
//! documented with grammar and examples in `docs/notation.md` ("Grasshopper (Halma)") and
//! round-trip: what is written reads back to the same value.

pub mod move_text;
pub mod position;

pub use move_text::{format_move, MoveError, MoveParseError, MoveText, PathStyle};
pub use position::{PositionParseError, RankProblem};
