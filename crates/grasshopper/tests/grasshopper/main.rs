//! Integration tests of the Grasshopper crate, one binary: the rules (a test per rule and per
//! worked example of the seeds), the notations, invariants under random play, and the solver
//! against a plain minimax.

mod notation;
mod properties;
mod rules;
mod solver;

use tabula_grasshopper::notation::parse_position;
use tabula_grasshopper::{Action, Point, Position};

/// A position from its text, which must be valid.
pub fn pos(text: &str) -> Position {
    parse_position(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Point `n`.
pub fn pt(n: u8) -> Point {
    Point::new(n).unwrap()
}

/// The legal actions as move text, in generation order.
pub fn moves(p: &Position) -> Vec<String> {
    p.legal_actions().iter().map(Action::to_string).collect()
}

/// Plays a sequence of move texts.
pub fn play(mut p: Position, texts: &[&str]) -> Position {
    for t in texts {
        let a = p
            .parse_move(t)
            .unwrap_or_else(|e| panic!("{t} in {p}: {e}"));
        p = p.play(a).unwrap();
    }
    p
}
