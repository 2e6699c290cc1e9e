//! Legal actions, playing an action, and the end of the game.
//!
//! Generation works on bitboards. A single checker on `p` may not pass a wall of either
//! colour, so it reaches only the points below the first wall after `p`; the top checker of a
//! wall reaches every point. Targets are then the vacant points of the next quadrant within
//! reach, and a build needs an own single on `p + 6` within reach. Checking one action
//! ([`Position::play`]) does not generate the others: it says the first rule the action
//! breaks, as an [`IllegalMove`].

use crate::position::BOARD;
use crate::{Action, Point, Position, Quadrant};
use std::ops::Deref;
use tabula_core::{Color, EndReason, Outcome};
use thiserror::Error;

/// The most actions a position can have: six entries, six sources times six targets in each
/// of three quadrants (a build takes one of those targets' places), six bear-offs.
pub const MAX_ACTIONS: usize = 6 + 3 * 36 + 6;

/// The legal actions of a position, without a heap allocation.
#[derive(Clone, Copy)]
pub struct MoveList {
    len: usize,
    actions: [Action; MAX_ACTIONS],
}

impl MoveList {
    fn new() -> MoveList {
        MoveList {
            len: 0,
            actions: [Action::Pass; MAX_ACTIONS],
        }
    }

    #[inline]
    fn push(&mut self, a: Action) {
        self.actions[self.len] = a;
        self.len += 1;
    }
}

impl std::ops::DerefMut for MoveList {
    fn deref_mut(&mut self) -> &mut [Action] {
        &mut self.actions[..self.len]
    }
}

impl Deref for MoveList {
    type Target = [Action];
    fn deref(&self) -> &[Action] {
        &self.actions[..self.len]
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Why an action is refused in a position; the position is unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum IllegalMove {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// A pass while some action is legal.
    #[error("you cannot pass: a legal action exists")]
    PassNotAllowed,
    /// An entry with an empty hand.
    #[error("you have no checker in hand to enter")]
    EmptyHand,
    /// Checkers enter on A only.
    #[error("checkers enter on 1-6 (A1-A6), not on {0}")]
    EnterOutsideA(Point),
    /// The landing point holds a checker.
    #[error("{0} is not vacant")]
    Occupied(Point),
    /// Nothing of the mover's on the point.
    #[error("you have no checker on {0}")]
    NoChecker(Point),
    /// Checkers in D leave only by bear-off or discard.
    #[error("checkers in D (19-24) never move; the checker on {0} can only be borne off in a wall or discarded")]
    MoveFromD(Point),
    /// An advance lands in the next quadrant.
    #[error("a checker on {from} moves to the next quadrant ({first}-{last}), not to {to}", first = next_first(*.from), last = next_first(*.from) + 5)]
    NotNextQuadrant {
        /// The point left.
        from: Point,
        /// The point asked for.
        to: Point,
    },
    /// A single checker may not pass a wall.
    #[error("the wall on {wall} blocks the single checker on {from} from reaching {to}")]
    Blocked {
        /// The point left.
        from: Point,
        /// The point asked for.
        to: Point,
        /// The first wall in between.
        wall: Point,
    },
    /// A build needs an own single six points on.
    #[error("building from {from} needs a single checker of yours on {}", .from.number() + 6)]
    NothingToBuildOn {
        /// The point left.
        from: Point,
    },
    /// Only walls are borne off, and only from D.
    #[error("only a wall of yours in D (19-24) is borne off, and {0} is not one")]
    NotAWallInD(Point),
    /// Only singles in D are discarded.
    #[error("only a single checker of yours in D (19-24) is discarded, and {0} is not one")]
    NotASingleInD(Point),
    /// A discard while some checker is in hand, outside D or in a wall.
    #[error("a single is discarded only when every checker you have left is a single in D")]
    DiscardTooEarly,
}

/// The first point of the quadrant after `from`'s (for messages).
fn next_first(from: Point) -> u8 {
    from.quadrant()
        .next()
        .map_or(25, |q| 6 * q.index() as u8 + 1)
}

/// Bits strictly above `index`.
#[inline]
fn above(index: u32) -> u32 {
    BOARD & !((2u32 << index) - 1)
}

impl Position {
    /// Every point with a wall, of either colour.
    #[inline]
    fn all_walls(&self) -> u32 {
        self.walls.white | self.walls.black
    }

    /// Every vacant point.
    #[inline]
    fn vacant(&self) -> u32 {
        BOARD & !(self.singles.white | self.singles.black | self.all_walls())
    }

    /// The points a checker leaving bit `index` may land on, as far as walls are concerned: a
    /// single stops below the first wall after it, the top of a wall jumps them all.
    #[inline]
    fn reach(&self, index: u32, top_of_wall: bool) -> u32 {
        let ahead = self.all_walls() & above(index);
        if top_of_wall || ahead == 0 {
            BOARD
        } else {
            (1 << ahead.trailing_zeros()) - 1
        }
    }

    /// Whether the player may discard: all their remaining checkers are singles in D.
    #[inline]
    fn may_discard(&self, me: Color) -> bool {
        self.hands[me] == 0 && self.walls[me] == 0 && self.singles[me] & !Quadrant::D.mask() == 0
    }

    /// Pushes every action other than the pass.
    fn generate(&self, list: &mut MoveList) {
        let me = self.turn;
        let vacant = self.vacant();
        if self.hands[me] > 0 {
            let mut t = vacant & Quadrant::A.mask();
            while t != 0 {
                list.push(Action::Enter {
                    to: Point::from_index(t.trailing_zeros()),
                });
                t &= t - 1;
            }
        }
        let (singles, walls) = (self.singles[me], self.walls[me]);
        let mut src = (singles | walls) & !Quadrant::D.mask();
        while src != 0 {
            let i = src.trailing_zeros();
            src &= src - 1;
            let from = Point::from_index(i);
            let reach = self.reach(i, walls & (1 << i) != 0);
            let next = Quadrant::mask(Quadrant::ALL[i as usize / 6 + 1]);
            let mut t = vacant & next & reach;
            while t != 0 {
                list.push(Action::Advance {
                    from,
                    to: Point::from_index(t.trailing_zeros()),
                });
                t &= t - 1;
            }
            if singles & reach & (1 << (i + 6)) != 0 {
                list.push(Action::Build { from });
            }
        }
        let mut w = walls & Quadrant::D.mask();
        while w != 0 {
            list.push(Action::BearOff {
                at: Point::from_index(w.trailing_zeros()),
            });
            w &= w - 1;
        }
        if self.may_discard(me) {
            let mut s = singles;
            while s != 0 {
                list.push(Action::Discard {
                    at: Point::from_index(s.trailing_zeros()),
                });
                s &= s - 1;
            }
        }
    }

    /// Whether the side to move has an action other than the pass (the game not being won).
    pub(crate) fn has_action(&self) -> bool {
        let mut list = MoveList::new();
        self.generate(&mut list);
        !list.is_empty()
    }

    /// The actions other than the pass, ignoring whether the game is over (for search, which
    /// checks the end itself).
    pub(crate) fn moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list
    }

    /// Every legal action: empty when the game is over, the single [`Action::Pass`] when
    /// nothing else is legal.
    pub fn legal_actions(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.won || self.both_empty() {
            return list;
        }
        self.generate(&mut list);
        if list.is_empty() && !self.passed {
            list.push(Action::Pass);
        }
        list
    }

    /// Neither player has a checker left, in hand or on the board.
    #[inline]
    pub(crate) fn both_empty(&self) -> bool {
        self.hands.white == 0
            && self.hands.black == 0
            && (self.singles.white | self.singles.black | self.all_walls()) == 0
    }

    /// The result once the game is over: a player scored twice in succession (1 point), or a
    /// draw because nobody has a checker left or because a pass meets a player who must pass
    /// too.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.won {
            return Some(match self.last {
                Some(winner) => Outcome::win(winner, 1, EndReason::ScoredTwice),
                None => Outcome::draw(EndReason::ScoredTwice),
            });
        }
        if self.both_empty() {
            return Some(Outcome::draw(EndReason::NoCheckersLeft));
        }
        if self.passed && !self.has_action() {
            return Some(Outcome::draw(EndReason::BothPassed));
        }
        None
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// The position after `action`, or why it is illegal.
    pub fn play(&self, action: Action) -> Result<Position, IllegalMove> {
        self.check(action)?;
        Ok(self.play_unchecked(action))
    }

    /// The first rule `action` breaks, if any.
    pub fn check(&self, action: Action) -> Result<(), IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        let me = self.turn;
        let mine = self.singles[me] | self.walls[me];
        match action {
            Action::Pass => {
                if self.has_action() {
                    return Err(IllegalMove::PassNotAllowed);
                }
            }
            Action::Enter { to } => {
                if self.hands[me] == 0 {
                    return Err(IllegalMove::EmptyHand);
                }
                if to.quadrant() != Quadrant::A {
                    return Err(IllegalMove::EnterOutsideA(to));
                }
                if self.vacant() & to.bit() == 0 {
                    return Err(IllegalMove::Occupied(to));
                }
            }
            Action::Advance { from, .. } | Action::Build { from } => {
                if mine & from.bit() == 0 {
                    return Err(IllegalMove::NoChecker(from));
                }
                if from.quadrant() == Quadrant::D {
                    return Err(IllegalMove::MoveFromD(from));
                }
                let to = match action {
                    Action::Advance { to, .. } => {
                        if Some(to.quadrant()) != from.quadrant().next() {
                            return Err(IllegalMove::NotNextQuadrant { from, to });
                        }
                        if self.vacant() & to.bit() == 0 {
                            return Err(IllegalMove::Occupied(to));
                        }
                        to
                    }
                    _ => {
                        let to = from.plus_six().expect("from is outside D");
                        if self.singles[me] & to.bit() == 0 {
                            return Err(IllegalMove::NothingToBuildOn { from });
                        }
                        to
                    }
                };
                let top_of_wall = self.walls[me] & from.bit() != 0;
                if self.reach(from.index(), top_of_wall) & to.bit() == 0 {
                    let wall = self.all_walls() & above(from.index());
                    return Err(IllegalMove::Blocked {
                        from,
                        to,
                        wall: Point::from_index(wall.trailing_zeros()),
                    });
                }
            }
            Action::BearOff { at } => {
                if at.quadrant() != Quadrant::D || self.walls[me] & at.bit() == 0 {
                    return Err(IllegalMove::NotAWallInD(at));
                }
            }
            Action::Discard { at } => {
                if at.quadrant() != Quadrant::D || self.singles[me] & at.bit() == 0 {
                    return Err(IllegalMove::NotASingleInD(at));
                }
                if !self.may_discard(me) {
                    return Err(IllegalMove::DiscardTooEarly);
                }
            }
        }
        Ok(())
    }

    /// Plays a legal action (unchecked: an illegal one gives an invalid position).
    pub(crate) fn play_unchecked(&self, action: Action) -> Position {
        let me = self.turn;
        let mut next = *self;
        next.turn = me.other();
        next.passed = false;
        match action {
            Action::Pass => next.passed = true,
            Action::Enter { to } => {
                next.hands[me] -= 1;
                next.singles[me] |= to.bit();
            }
            Action::Advance { from, to } => {
                next.lift(me, from);
                next.singles[me] |= to.bit();
            }
            Action::Build { from } => {
                next.lift(me, from);
                let to = from.bit() << 6;
                next.singles[me] &= !to;
                next.walls[me] |= to;
            }
            Action::BearOff { at } => {
                next.walls[me] &= !at.bit();
                next.score[me] += 1;
                if self.last == Some(me) {
                    next.won = true;
                } else {
                    next.last = Some(me);
                }
            }
            Action::Discard { at } => next.singles[me] &= !at.bit(),
        }
        next
    }

    /// Takes the top checker off `from`: a wall leaves a single, a single leaves nothing.
    #[inline]
    fn lift(&mut self, me: Color, from: Point) {
        let bit = from.bit();
        if self.walls[me] & bit != 0 {
            self.walls[me] &= !bit;
            self.singles[me] |= bit;
        } else {
            self.singles[me] &= !bit;
        }
    }
}
