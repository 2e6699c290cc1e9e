//! Matching written moves against the legal plays, and saying why none fits.

use super::parse::{parse_play, MoveParseError, WrittenMove};
use super::{format_play, point_name};
use crate::movegen::{Play, Step};
use crate::position::{Position, BAR, OPP_BAR};
use std::fmt;
use tabula_core::Dice;
use thiserror::Error;

/// Why a well-formed play is not legal in the position.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum IllegalMove {
    /// Empty text or `pass` while a move is possible.
    MustMove,
    /// Moves written while no move is possible.
    NoMovePossible(Dice),
    /// A move from the bar without checkers there.
    NothingOnBar,
    /// A move from a point while checkers wait on the bar.
    EnterFirst,
    /// No checker of the mover on the starting point.
    NoChecker(u8),
    /// A distance no remaining die or dice sum makes.
    Distance {
        /// Start.
        from: u8,
        /// Destination.
        to: u8,
        /// The distances the remaining dice allow.
        allowed: Vec<u8>,
        /// The roll.
        dice: Dice,
    },
    /// The destination, or every way there, is blocked.
    Blocked(u8),
    /// Bearing off while checkers are outside the home board.
    NotAllHome,
    /// A `*` where there is no blot.
    NoBlot(u8),
    /// Fewer dice used than possible.
    MustUseMoreDice {
        /// Dice the text uses.
        used: usize,
        /// Dice a legal play uses.
        possible: usize,
        /// The roll.
        dice: Dice,
    },
    /// Only one die can be played, and it must be the larger.
    MustPlayLarger(u8),
    /// More moves than the dice give.
    TooManyMoves(Dice),
    /// Not a legal play, for a reason not identified more precisely.
    NotLegal(Dice),
}

fn or_list(values: &[u8]) -> String {
    let names: Vec<String> = values.iter().map(u8::to_string).collect();
    match names.len() {
        0 => "nothing".to_string(),
        1 => names[0].clone(),
        n => format!("{} or {}", names[..n - 1].join(", "), names[n - 1]),
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::MustMove => write!(f, "a move is possible, so you must move"),
            IllegalMove::NoMovePossible(d) => {
                write!(f, "no move is possible with {d}: the only play is to pass")
            }
            IllegalMove::NothingOnBar => write!(f, "you have no checker on the bar"),
            IllegalMove::EnterFirst => {
                write!(f, "you have checkers on the bar: enter them first")
            }
            IllegalMove::NoChecker(p) => write!(f, "no checker on {}", point_name(*p)),
            IllegalMove::Distance {
                from,
                to,
                allowed,
                dice,
            } => write!(
                f,
                "{}/{} is not a move of {} {} (dice are {dice})",
                point_name(*from),
                point_name(*to),
                or_list(allowed),
                if allowed.as_slice() == [1] {
                    "pip"
                } else {
                    "pips"
                }
            ),
            IllegalMove::Blocked(p) => write!(f, "point {p} is blocked"),
            IllegalMove::NotAllHome => write!(
                f,
                "you cannot bear off until all your checkers are in your home board"
            ),
            IllegalMove::NoBlot(p) => write!(f, "there is no blot to hit on {p}"),
            IllegalMove::MustUseMoreDice {
                used,
                possible,
                dice,
            } => {
                if !dice.is_double() && *possible == 2 {
                    write!(f, "you must use both dice")
                } else {
                    write!(f, "you must play {possible} of the {dice} dice, not {used}")
                }
            }
            IllegalMove::MustPlayLarger(d) => write!(
                f,
                "only one die can be played, so it must be the larger one, the {d}"
            ),
            IllegalMove::TooManyMoves(d) => write!(f, "that is more than {d} lets you move"),
            IllegalMove::NotLegal(d) => write!(f, "that is not a legal play with {d}"),
        }
    }
}

/// Why move text does not name exactly one legal play.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum MoveTextError {
    /// The text is not move text.
    #[error(transparent)]
    Malformed(#[from] MoveParseError),
    /// The text is a play, but not a legal one here.
    #[error("{text}: {reason}")]
    Illegal {
        /// The text, as given.
        text: String,
        /// Why.
        reason: IllegalMove,
    },
    /// Several legal plays fit the text.
    #[error("{text} is ambiguous: it could be {}", candidates.join(" or "))]
    Ambiguous {
        /// The text, as given.
        text: String,
        /// The fitting plays in gnubg notation, sorted.
        candidates: Vec<String>,
    },
}

/// The mover's checker count changes, index 0 off, 1..=24 points, 25 bar.
fn delta_of_moves(moves: &[WrittenMove]) -> [i16; 26] {
    let mut d = [0i16; 26];
    for m in moves {
        d[m.from as usize] -= i16::from(m.count);
        d[m.to() as usize] += i16::from(m.count);
    }
    d
}

fn delta_of_positions(before: &Position, after: &Position) -> [i16; 26] {
    let mut d = [0i16; 26];
    for (i, v) in d.iter_mut().enumerate().skip(1) {
        *v = i16::from(after.mover_on(i)) - i16::from(before.mover_on(i));
    }
    d[0] = i16::from(after.mover_off()) - i16::from(before.mover_off());
    d
}

/// The points where the play from `before` to `after` hit a blot.
fn hits_of(before: &Position, after: &Position) -> [bool; 25] {
    let mut h = [false; 25];
    for (p, v) in h.iter_mut().enumerate().skip(1) {
        *v = before.opponent_on(p) == 1 && after.opponent_on(p) == 0;
    }
    h
}

/// The legal play `text` names in `pos` with `dice`, with the resulting position (seen from
/// the mover). The text may chain or split moves, omit or give `*` marks and order moves
/// freely; among plays reaching different positions with the same checker movements (which
/// differ in the blots hit on the way), a play hitting exactly the blots the text implies is
/// preferred: those marked `*` and those on points the text lands on.
pub fn match_play(
    pos: &Position,
    dice: Dice,
    text: &str,
) -> Result<(Play, Position), MoveTextError> {
    let moves = parse_play(text)?;
    let illegal = |reason| MoveTextError::Illegal {
        text: text.trim().to_string(),
        reason,
    };
    let legal = pos.legal_plays(dice);
    if moves.is_empty() {
        return if legal.is_empty() {
            Ok((Play::default(), *pos))
        } else {
            Err(illegal(IllegalMove::MustMove))
        };
    }
    if legal.is_empty() {
        return Err(illegal(IllegalMove::NoMovePossible(dice)));
    }
    let wanted = delta_of_moves(&moves);
    let mut implied = [false; 25];
    for m in &moves {
        for l in &m.landings {
            let p = l.point as usize;
            if p > 0 && (l.hit || pos.opponent_on(p) == 1) {
                implied[p] = true;
            }
        }
    }
    let fits: Vec<&(Play, Position)> = legal
        .iter()
        .filter(|(_, after)| {
            let hits = hits_of(pos, after);
            delta_of_positions(pos, after) == wanted
                && implied.iter().zip(hits).all(|(&want, got)| !want || got)
        })
        .collect();
    let chosen = match fits.len() {
        0 => None,
        1 => Some(fits[0]),
        _ => {
            let exact: Vec<_> = fits
                .iter()
                .filter(|(_, after)| hits_of(pos, after) == implied)
                .collect();
            if exact.len() == 1 {
                Some(*exact[0])
            } else {
                let mut candidates: Vec<String> =
                    fits.iter().map(|(play, _)| format_play(play)).collect();
                candidates.sort();
                return Err(MoveTextError::Ambiguous {
                    text: text.trim().to_string(),
                    candidates,
                });
            }
        }
    };
    match chosen {
        Some(&(play, after)) => Ok((play, after)),
        None => Err(illegal(diagnose(pos, dice, &moves, &legal))),
    }
}

/// What a route from one point to another would be: the dice used, or why none.
enum Route {
    Ok(Vec<u8>),
    Blocked(u8),
    NoFit,
}

/// A board being played on, to find the first thing wrong with a written play.
struct Sim {
    pos: Position,
    pool: Vec<u8>,
}

impl Sim {
    fn all_home(&self) -> bool {
        (7..=25).all(|p| self.pos.mover_on(p) == 0)
    }

    fn any_above(&self, point: u8) -> bool {
        (point as usize + 1..=25).any(|p| self.pos.mover_on(p) > 0)
    }

    /// Moves one checker one die, hitting a blot.
    fn step(&mut self, from: u8, to: u8) {
        self.pos.pips[from as usize] -= 1;
        if to == 0 {
            self.pos.x_off += 1;
        } else {
            let t = to as usize;
            if self.pos.pips[t] == -1 {
                self.pos.pips[t] = 0;
                self.pos.pips[OPP_BAR] -= 1;
            }
            self.pos.pips[t] += 1;
        }
    }

    /// Finds dice from the pool taking a checker from `from` to `to`, on a copy.
    fn route(&self, from: u8, to: u8) -> Route {
        let mut best = Route::NoFit;
        let mut tried = Vec::new();
        for (i, &die) in self.pool.iter().enumerate() {
            if tried.contains(&die) {
                continue;
            }
            tried.push(die);
            let next = i16::from(from) - i16::from(die);
            let landing = if next <= 0 { 0 } else { next as u8 };
            // Bearing off with a larger die needs every checker home and none further back.
            let bad_bear_off =
                landing == 0 && !(self.all_home() && (next == 0 || !self.any_above(from)));
            let outcome = if landing < to || bad_bear_off {
                Route::NoFit
            } else if landing > 0 && self.pos.opponent_on(landing as usize) >= 2 {
                Route::Blocked(landing)
            } else if landing == to {
                Route::Ok(vec![die])
            } else {
                let mut rest = Sim {
                    pos: self.pos,
                    pool: self.pool.clone(),
                };
                rest.pool.remove(i);
                rest.step(from, landing);
                match rest.route(landing, to) {
                    Route::Ok(mut dice) => {
                        dice.insert(0, die);
                        Route::Ok(dice)
                    }
                    other => other,
                }
            };
            match outcome {
                Route::Ok(dice) => return Route::Ok(dice),
                Route::Blocked(p) => best = Route::Blocked(p),
                Route::NoFit => {}
            }
        }
        best
    }

    /// Whether some of the remaining dice add up to exactly `distance`.
    fn can_make(&self, distance: u8) -> bool {
        let n = self.pool.len();
        (1u32..1 << n).any(|mask| {
            let sum: u8 = (0..n)
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| self.pool[i])
                .sum();
            sum == distance
        })
    }

    /// Distances the remaining dice can make, ascending.
    fn distances(&self) -> Vec<u8> {
        let mut out: Vec<u8> = Vec::new();
        if self.pool.windows(2).all(|w| w[0] == w[1]) {
            let die = self.pool.first().copied().unwrap_or(0);
            out.extend((1..=self.pool.len() as u8).map(|k| k * die));
        } else {
            out.extend(self.pool.iter().copied());
            out.push(self.pool.iter().sum());
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// The first reason a written play fails, found by playing it out on the board.
fn diagnose(
    pos: &Position,
    dice: Dice,
    moves: &[WrittenMove],
    legal: &[(Play, Position)],
) -> IllegalMove {
    let pool = match dice {
        Dice::Double(d) => vec![d.value(); 4],
        Dice::Mixed { big, small } => vec![big.value(), small.value()],
    };
    let mut sim = Sim { pos: *pos, pool };
    let mut used: Vec<u8> = Vec::new();
    for m in moves {
        for _ in 0..m.count {
            let mut at = m.from;
            for l in &m.landings {
                if sim.pool.is_empty() {
                    return IllegalMove::TooManyMoves(dice);
                }
                if at as usize == BAR {
                    if sim.pos.mover_on(BAR) == 0 {
                        return IllegalMove::NothingOnBar;
                    }
                } else if sim.pos.mover_on(BAR) > 0 {
                    return IllegalMove::EnterFirst;
                }
                if sim.pos.mover_on(at as usize) == 0 {
                    return IllegalMove::NoChecker(at);
                }
                let to = l.point;
                if to == 0 && !sim.all_home() {
                    return IllegalMove::NotAllHome;
                }
                if to > 0 && sim.pos.opponent_on(to as usize) >= 2 {
                    return IllegalMove::Blocked(to);
                }
                if l.hit && sim.pos.opponent_on(to as usize) != 1 {
                    return IllegalMove::NoBlot(to);
                }
                // A distance no combination of the remaining dice makes is the clearest
                // reason, whatever stands on the points in between.
                if to > 0 && !sim.can_make(at - to) {
                    return IllegalMove::Distance {
                        from: at,
                        to,
                        allowed: sim.distances(),
                        dice,
                    };
                }
                match sim.route(at, to) {
                    Route::Ok(dice_used) => {
                        let mut from = at;
                        for die in dice_used {
                            let landing = from.saturating_sub(die);
                            sim.step(from, landing);
                            let i = sim.pool.iter().position(|&d| d == die).unwrap();
                            sim.pool.remove(i);
                            used.push(die);
                            from = landing;
                        }
                    }
                    Route::Blocked(p) => return IllegalMove::Blocked(p),
                    Route::NoFit => {
                        return IllegalMove::Distance {
                            from: at,
                            to,
                            allowed: sim.distances(),
                            dice,
                        }
                    }
                }
                at = to;
            }
        }
    }
    let possible = legal
        .iter()
        .map(|(p, _)| p.steps().len())
        .max()
        .unwrap_or(0);
    if used.len() < possible {
        return IllegalMove::MustUseMoreDice {
            used: used.len(),
            possible,
            dice,
        };
    }
    if possible == 1 && !dice.is_double() && used.first() != Some(&dice.big()) {
        let larger_possible = legal.iter().any(|(p, _)| {
            p.steps()
                .iter()
                .all(|s: &Step| s.from.saturating_sub(s.to) >= dice.big() || s.to == 0)
        });
        if larger_possible {
            return IllegalMove::MustPlayLarger(dice.big());
        }
    }
    IllegalMove::NotLegal(dice)
}
