//! A player's action: one per turn.
//!
//! The pass is an action of its own: it is the single legal action when nothing else is
//! legal, so that a game's log records every turn and replays without guessing.

use crate::Point;

/// One turn's action. The build's target is always `from + 6`, so it is not stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Put a checker from the hand on a vacant point of A.
    Enter {
        /// The vacant point of A.
        to: Point,
    },
    /// Move the top checker of an own point of A, B or C to a vacant point of the next
    /// quadrant.
    Advance {
        /// The point left.
        from: Point,
        /// The vacant point reached.
        to: Point,
    },
    /// Move the top checker of an own point of A, B or C onto an own single six points on,
    /// making a wall there.
    Build {
        /// The point left; the wall is made on `from + 6`.
        from: Point,
    },
    /// Remove an own wall from D and score a point.
    BearOff {
        /// The wall's point in D.
        at: Point,
    },
    /// Remove an own single from D without scoring (only when every checker left is one).
    Discard {
        /// The single's point in D.
        at: Point,
    },
    /// No other action is legal: the turn goes to the opponent.
    Pass,
}

impl Action {
    /// The point a checker leaves (none for an entry or a pass).
    pub fn from(self) -> Option<Point> {
        match self {
            Action::Advance { from, .. } | Action::Build { from } => Some(from),
            Action::BearOff { at } | Action::Discard { at } => Some(at),
            Action::Enter { .. } | Action::Pass => None,
        }
    }

    /// The point a checker lands on (none for a bear-off, a discard or a pass).
    pub fn to(self) -> Option<Point> {
        match self {
            Action::Enter { to } | Action::Advance { to, .. } => Some(to),
            Action::Build { from } => from.plus_six(),
            Action::BearOff { .. } | Action::Discard { .. } | Action::Pass => None,
        }
    }
}
