//! The position: who holds which points, the hands, the score, who scored last, the side to
//! move, and whether the previous turn was a pass.
//!
//! [`Setup`] has public fields and may be nonsense; [`Position`] is reachable only through
//! [`Position::from_setup`] (or the start and legal play), whose [`PositionError`] lists every
//! reason a setup was refused. A position is `Copy` (28 bytes): one bitboard of singles and
//! one of walls per colour, bit `n - 1` standing for point `n`.

use crate::{Point, Quadrant};
use std::fmt;
use tabula_core::{ByColor, Color};
use thiserror::Error;

/// The number of checkers each player has: even, 2..=14, 14 by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Checkers(u8);

/// A checker count the game does not allow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("each player has an even number of checkers from 2 to 14, not {0}")]
pub struct CheckersError(pub u32);

impl Checkers {
    /// The full game's fourteen checkers each.
    pub const FULL: Checkers = Checkers(14);

    /// `n` checkers each, refused unless even and in 2..=14.
    pub fn new(n: u32) -> Result<Checkers, CheckersError> {
        if (2..=14).contains(&n) && n & 1 == 0 {
            Ok(Checkers(n as u8))
        } else {
            Err(CheckersError(n))
        }
    }

    /// The count.
    pub fn get(self) -> u8 {
        self.0
    }
}

impl Default for Checkers {
    fn default() -> Checkers {
        Checkers::FULL
    }
}

impl fmt::Display for Checkers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// What stands on a point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Nothing: the point is vacant.
    Empty,
    /// One checker of this colour.
    Single(Color),
    /// Two checkers of this colour.
    Wall(Color),
}

/// An unchecked position, as read from text or built by hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Checkers per player (the game option).
    pub checkers: u32,
    /// Points 1..=24, index 0 being point 1.
    pub cells: [Cell; 24],
    /// Checkers not yet entered.
    pub hands: ByColor<u8>,
    /// Points scored (walls borne off).
    pub score: ByColor<u8>,
    /// The player who scored the previous point.
    pub last_scorer: Option<Color>,
    /// Set once the last scorer has scored again: the game is won.
    pub won: bool,
    /// The side to move.
    pub turn: Color,
    /// Whether the previous turn was a pass.
    pub passed: bool,
}

/// One reason a setup is not a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum Problem {
    /// The checker count is not allowed.
    #[error("{0}")]
    Checkers(CheckersError),
    /// Walls are built on `from + 6`, never in A.
    #[error("a wall on {0} is in A, where no wall can be built")]
    WallInA(Point),
    /// More checkers in hand, on the board and borne off than the player has.
    #[error(
        "{color} has {count} checkers in hand, on the board and borne off, more than {checkers}"
    )]
    TooManyCheckers {
        /// Whose.
        color: Color,
        /// How many were counted.
        count: u32,
        /// How many the player has.
        checkers: u32,
    },
    /// Checkers were discarded although the player still has some in hand, outside D, or in
    /// a wall; after a discard the player only ever has singles in D.
    #[error("{0} has discarded checkers but still has checkers that are not singles in D")]
    DiscardTooEarly(Color),
    /// Scores alternate until a win, so the last scorer and the score must agree.
    #[error("the score {white}-{black} cannot have {last} as last scorer{won}", last = last.map_or("nobody", Color::name), won = if *won { " and winner" } else { "" })]
    Score {
        /// White's points.
        white: u8,
        /// Black's points.
        black: u8,
        /// The claimed last scorer.
        last: Option<Color>,
        /// Whether the game is claimed won.
        won: bool,
    },
    /// A finished game's last turn was a bear-off, not a pass.
    #[error("the game is won, so the previous turn was not a pass")]
    PassAfterWin,
    /// The previous turn cannot have been a pass: the player who passed has a legal action.
    #[error("{0} did not have to pass: a legal action exists")]
    NeedlessPass(Color),
}

/// A setup refused, with every reason found.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("not a grasshopper position: {}", .problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
pub struct PositionError {
    /// The refused setup.
    pub setup: Setup,
    /// Every reason, in the order checked.
    pub problems: Vec<Problem>,
}

/// A legal Grasshopper position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) singles: ByColor<u32>,
    pub(crate) walls: ByColor<u32>,
    pub(crate) hands: ByColor<u8>,
    pub(crate) score: ByColor<u8>,
    pub(crate) last: Option<Color>,
    pub(crate) turn: Color,
    pub(crate) passed: bool,
    pub(crate) won: bool,
    pub(crate) checkers: u8,
}

/// All 24 points.
pub(crate) const BOARD: u32 = (1 << 24) - 1;

impl Position {
    /// The start: every checker in hand, White to move.
    pub fn start(checkers: Checkers) -> Position {
        Position {
            singles: ByColor::default(),
            walls: ByColor::default(),
            hands: ByColor {
                white: checkers.0,
                black: checkers.0,
            },
            score: ByColor::default(),
            last: None,
            turn: Color::White,
            passed: false,
            won: false,
            checkers: checkers.0,
        }
    }

    /// Validates a setup, listing every problem found.
    pub fn from_setup(setup: Setup) -> Result<Position, PositionError> {
        let mut problems = Vec::new();
        let checkers = Checkers::new(setup.checkers).unwrap_or_else(|e| {
            problems.push(Problem::Checkers(e));
            Checkers::FULL
        });
        let mut pos = Position {
            singles: ByColor::default(),
            walls: ByColor::default(),
            hands: setup.hands,
            score: setup.score,
            last: setup.last_scorer,
            turn: setup.turn,
            passed: setup.passed,
            won: setup.won,
            checkers: checkers.0,
        };
        for (i, cell) in setup.cells.iter().enumerate() {
            let point = Point::from_index(i as u32);
            match *cell {
                Cell::Empty => {}
                Cell::Single(c) => pos.singles[c] |= point.bit(),
                Cell::Wall(c) => {
                    if point.quadrant() == Quadrant::A {
                        problems.push(Problem::WallInA(point));
                    }
                    pos.walls[c] |= point.bit();
                }
            }
        }
        for color in Color::ALL {
            let count =
                u32::from(pos.hands[color]) + pos.on_board(color) + 2 * u32::from(pos.score[color]);
            if count > setup.checkers {
                problems.push(Problem::TooManyCheckers {
                    color,
                    count,
                    checkers: setup.checkers,
                });
            } else if count < setup.checkers
                && (pos.hands[color] > 0
                    || pos.walls[color] != 0
                    || pos.singles[color] & !Quadrant::D.mask() != 0)
            {
                problems.push(Problem::DiscardTooEarly(color));
            }
        }
        if !score_is_consistent(&setup) {
            problems.push(Problem::Score {
                white: setup.score.white,
                black: setup.score.black,
                last: setup.last_scorer,
                won: setup.won,
            });
        }
        if setup.won && setup.passed {
            problems.push(Problem::PassAfterWin);
        }
        if problems.is_empty() && setup.passed && !setup.won {
            let mut before = pos;
            before.turn = pos.turn.other();
            if before.has_action() {
                problems.push(Problem::NeedlessPass(before.turn));
            }
        }
        if problems.is_empty() {
            Ok(pos)
        } else {
            Err(PositionError { setup, problems })
        }
    }

    /// The unchecked form, for editing and printing.
    pub fn to_setup(&self) -> Setup {
        let mut cells = [Cell::Empty; 24];
        for (i, cell) in cells.iter_mut().enumerate() {
            *cell = self.cell(Point::from_index(i as u32));
        }
        Setup {
            checkers: self.checkers.into(),
            cells,
            hands: self.hands,
            score: self.score,
            last_scorer: self.last,
            won: self.won,
            turn: self.turn,
            passed: self.passed,
        }
    }

    /// What stands on `point`.
    pub fn cell(&self, point: Point) -> Cell {
        let bit = point.bit();
        for c in Color::ALL {
            if self.singles[c] & bit != 0 {
                return Cell::Single(c);
            }
            if self.walls[c] & bit != 0 {
                return Cell::Wall(c);
            }
        }
        Cell::Empty
    }

    /// Checkers per player.
    pub fn checkers(&self) -> Checkers {
        Checkers(self.checkers)
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Checkers of `color` not yet entered.
    pub fn hand(&self, color: Color) -> u8 {
        self.hands[color]
    }

    /// Points scored by `color`.
    pub fn score(&self, color: Color) -> u8 {
        self.score[color]
    }

    /// Who scored the previous point, if anyone has scored.
    pub fn last_scorer(&self) -> Option<Color> {
        self.last
    }

    /// Whether the previous turn was a pass.
    pub fn passed(&self) -> bool {
        self.passed
    }

    /// The winner, once a player has scored twice in succession.
    pub fn winner(&self) -> Option<Color> {
        if self.won {
            self.last
        } else {
            None
        }
    }

    /// Checkers of `color` on the board.
    pub fn on_board(&self, color: Color) -> u32 {
        self.singles[color].count_ones() + 2 * self.walls[color].count_ones()
    }

    /// Checkers of `color` borne off (two per point scored).
    pub fn borne_off(&self, color: Color) -> u32 {
        2 * u32::from(self.score[color])
    }

    /// Checkers of `color` removed without scoring.
    pub fn discarded(&self, color: Color) -> u32 {
        u32::from(self.checkers)
            - u32::from(self.hands[color])
            - self.on_board(color)
            - self.borne_off(color)
    }

    /// Checkers `color` still has, in hand and on the board.
    pub fn remaining(&self, color: Color) -> u32 {
        u32::from(self.hands[color]) + self.on_board(color)
    }

    /// The points of `color`'s singles, as a bitboard (bit `n - 1` is point `n`).
    pub fn singles(&self, color: Color) -> u32 {
        self.singles[color]
    }

    /// The points of `color`'s walls, as a bitboard.
    pub fn walls(&self, color: Color) -> u32 {
        self.walls[color]
    }
}

/// Scores alternate until one player scores twice in succession, which ends the game.
fn score_is_consistent(s: &Setup) -> bool {
    let (w, b) = (s.score.white, s.score.black);
    let mine = |c: Color| s.score[c];
    match (s.last_scorer, s.won) {
        (None, false) => w == 0 && b == 0,
        (None, true) => false,
        (Some(c), false) => {
            let (m, o) = (mine(c), mine(c.other()));
            m >= 1 && (m == o || m == o + 1)
        }
        // The winner's last two points came in succession after an alternating run.
        (Some(c), true) => {
            let (m, o) = (mine(c), mine(c.other()));
            m >= 2 && (m == o + 1 || m == o + 2)
        }
    }
}
