//! Matching written moves against the legal plays, and saying why none fits.

use super::parse::{parse_play, MoveParseError, WrittenMove};
use super::{format_play, point_name};
use crate::movegen::{Play, SequenceGen, Step, Trapping};
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
    /// A `^` in a game without trapping.
    NoTrapping,
    /// A `^` where there is no blot to trap.
    NoBlotToTrap(u8),
    /// A move of a checker that is trapped (Never-Finishing).
    Trapped(u8),
    /// A point owned by a single opposing checker that traps one of the mover's.
    HeldByTrapper(u8),
    /// Bearing off while one of the mover's checkers is trapped.
    TrappedCannotBearOff(u8),
    /// A trap marked where the checker then moves on, releasing the blot.
    TrapReleased(u8),
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
            IllegalMove::NoTrapping => {
                write!(f, "blots cannot be trapped (^) in this game, only hit (*)")
            }
            IllegalMove::NoBlotToTrap(p) => write!(f, "there is no blot to trap on {p}"),
            IllegalMove::Trapped(p) => write!(f, "your checker on {p} is trapped"),
            IllegalMove::HeldByTrapper(p) => write!(f, "point {p} is held by a trapper"),
            IllegalMove::TrappedCannotBearOff(p) => write!(
                f,
                "you cannot bear off while your checker on {p} is trapped"
            ),
            IllegalMove::TrapReleased(p) => write!(
                f,
                "the checker trapping the blot on {p} moves on, which releases it"
            ),
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

/// What a play did to the opposing checker that could be taken on a point, as a set: bit
/// [`UNTOUCHED`], [`HIT`], [`TRAPPED`].
type Outcomes = u8;
const UNTOUCHED: Outcomes = 1;
const HIT: Outcomes = 2;
const TRAPPED: Outcomes = 4;
const ANY: Outcomes = UNTOUCHED | HIT | TRAPPED;

/// An opposing blot the mover may hit or trap on point `p`.
fn is_blot(pos: &Position, p: usize) -> bool {
    pos.pip(p) == -1 && !pos.is_trapped(p)
}

/// An opposing checker the mover traps on point `p`.
fn traps_there(pos: &Position, p: usize) -> bool {
    pos.pip(p) > 0 && pos.is_trapped(p)
}

/// What the play from `before` to `after` did on each point: a blot (or a checker the mover
/// held trapped, which the play may release and take again) is hit when gone, trapped when
/// newly under the mover's checkers; a checker held trapped before and after may have been
/// released and trapped again, which is the same position, so both readings fit.
fn outcomes_of(before: &Position, after: &Position) -> [Outcomes; 25] {
    let mut out = [UNTOUCHED; 25];
    for (p, o) in out.iter_mut().enumerate().skip(1) {
        let (blot, held) = (is_blot(before, p), traps_there(before, p));
        if !blot && !held {
            continue;
        }
        *o = if traps_there(after, p) {
            if held {
                UNTOUCHED | TRAPPED
            } else {
                TRAPPED
            }
        } else if after.pip(p) < 0 {
            UNTOUCHED
        } else {
            HIT
        };
    }
    out
}

/// What the text says about each point: `(allowed, preferred)` outcomes. A `*` or `^` asks
/// for that, whatever else lands there; an unmarked point the text lands on with a blot there
/// is a hit in backgammon; in Never-Finishing a destination is a hit or a trap (both
/// preferred: ambiguous when both are legal) and an intermediate point a hit (or a touch-down
/// trap released at once, which is the same as passing); a point the text does not name is
/// preferably untouched.
fn reading(
    pos: &Position,
    moves: &[WrittenMove],
    trapping: Trapping,
) -> ([Outcomes; 25], [Outcomes; 25]) {
    // Per point: written with `*`, with `^`, as an unmarked destination, as any landing.
    let mut hit = [false; 25];
    let mut trap = [false; 25];
    let mut destination = [false; 25];
    let mut written = [false; 25];
    for m in moves {
        let last = m.landings.len() - 1;
        for (i, l) in m.landings.iter().enumerate() {
            let p = l.point as usize;
            hit[p] |= l.hit;
            trap[p] |= l.trap;
            destination[p] |= i == last;
            written[p] = true;
        }
    }
    let mut allowed = [ANY; 25];
    let mut preferred = [UNTOUCHED; 25];
    for p in 1..25 {
        (allowed[p], preferred[p]) = if hit[p] && trap[p] {
            (0, 0)
        } else if hit[p] {
            (HIT, HIT)
        } else if trap[p] {
            (TRAPPED, TRAPPED)
        } else if !written[p] || !(is_blot(pos, p) || traps_there(pos, p)) {
            (ANY, UNTOUCHED)
        } else if traps_there(pos, p) {
            // The mover's own point: landing or passing there keeps the trap.
            (ANY, UNTOUCHED | TRAPPED)
        } else if trapping == Trapping::Off {
            (HIT, HIT)
        } else if destination[p] {
            (HIT | TRAPPED, HIT | TRAPPED)
        } else {
            (HIT | UNTOUCHED, HIT)
        };
    }
    (allowed, preferred)
}

fn within(got: &[Outcomes; 25], wanted: &[Outcomes; 25]) -> bool {
    got.iter().zip(wanted).all(|(g, w)| g & w != 0)
}

/// The legal play `text` names in `pos` with `dice`, with the resulting position (seen from
/// the mover). The text may chain or split moves, omit or give `*` marks and order moves
/// freely; among plays reaching different positions with the same checker movements (which
/// differ in the blots hit on the way), a play hitting exactly the blots the text implies is
/// preferred: those marked `*` and those on points the text lands on. A `^` is refused: there
/// is no trapping in backgammon.
pub fn match_play(
    pos: &Position,
    dice: Dice,
    text: &str,
) -> Result<(Play, Position), MoveTextError> {
    match_against(pos, dice, text, Trapping::Off, || pos.legal_plays(dice))
}

/// [`match_play`] under the given rules: with [`Trapping::On`] (Never-Finishing) a blot landed
/// on may be hit (`*`) or trapped (`^`), and an unmarked destination on a blot is ambiguous
/// when both are legal. Trapped checkers in `pos` are respected either way.
pub fn match_play_with(
    pos: &Position,
    dice: Dice,
    text: &str,
    trapping: Trapping,
) -> Result<(Play, Position), MoveTextError> {
    if trapping == Trapping::Off && pos.trapped_mask() == 0 {
        return match_play(pos, dice, text);
    }
    match_against(pos, dice, text, trapping, || {
        let mut gen = SequenceGen::new();
        let (positions, plays) = gen.plays(pos, dice, trapping);
        plays
            .iter()
            .copied()
            .zip(positions.iter().copied())
            .collect()
    })
}

/// The Never-Finishing play `text` names: [`match_play_with`] with [`Trapping::On`].
pub fn match_play_nf(
    pos: &Position,
    dice: Dice,
    text: &str,
) -> Result<(Play, Position), MoveTextError> {
    match_play_with(pos, dice, text, Trapping::On)
}

fn match_against(
    pos: &Position,
    dice: Dice,
    text: &str,
    trapping: Trapping,
    legal_plays: impl FnOnce() -> Vec<(Play, Position)>,
) -> Result<(Play, Position), MoveTextError> {
    let moves = parse_play(text)?;
    let illegal = |reason| MoveTextError::Illegal {
        text: text.trim().to_string(),
        reason,
    };
    let any_trap = moves.iter().flat_map(|m| &m.landings).any(|l| l.trap);
    if trapping == Trapping::Off && any_trap {
        return Err(illegal(IllegalMove::NoTrapping));
    }
    let legal = legal_plays();
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
    let (allowed, preferred) = reading(pos, &moves, trapping);
    let fits: Vec<(&(Play, Position), [Outcomes; 25])> = legal
        .iter()
        .filter(|(_, after)| delta_of_positions(pos, after) == wanted)
        .map(|entry| (entry, outcomes_of(pos, &entry.1)))
        .filter(|(_, got)| within(got, &allowed))
        .collect();
    let chosen = match fits.len() {
        0 => None,
        1 => Some(fits[0].0),
        _ => {
            let exact: Vec<_> = fits
                .iter()
                .filter(|(_, got)| within(got, &preferred))
                .collect();
            if exact.len() == 1 {
                Some(exact[0].0)
            } else {
                // Several plays read the text equally well: name those; else every fit.
                let listed: Vec<&(Play, Position)> = if exact.len() > 1 {
                    exact.iter().map(|(entry, _)| *entry).collect()
                } else {
                    fits.iter().map(|(entry, _)| *entry).collect()
                };
                let mut candidates: Vec<String> =
                    listed.iter().map(|(play, _)| format_play(play)).collect();
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

    /// The first of the mover's checkers held trapped, if any (it forbids bearing off).
    fn own_trapped(&self) -> Option<u8> {
        (1..=24)
            .find(|&p| self.pos.pip(p) < 0 && self.pos.is_trapped(p))
            .map(|p| p as u8)
    }

    /// Why the mover cannot land on `point`, if it cannot.
    fn closed(&self, point: u8) -> Option<IllegalMove> {
        let p = point as usize;
        match self.pos.opponent_on(p) {
            _ if p == 0 => None,
            0 => None,
            1 if self.pos.is_trapped(p) => Some(IllegalMove::HeldByTrapper(point)),
            1 => None,
            _ => Some(IllegalMove::Blocked(point)),
        }
    }

    /// Moves one checker one die, hitting a blot, or trapping it with `trap`; the last
    /// checker leaving a point where it trapped a blot frees it.
    fn step(&mut self, from: u8, to: u8, trap: bool) {
        let f = from as usize;
        self.pos.pips[f] -= 1;
        if self.pos.pips[f] == 0 && self.pos.is_trapped(f) {
            self.pos.pips[f] = -1;
            self.pos.trapped &= !(1 << f);
        }
        if to == 0 {
            self.pos.x_off += 1;
        } else {
            let t = to as usize;
            if self.pos.pips[t] == -1 && !self.pos.is_trapped(t) {
                self.pos.pips[t] = 0;
                if trap {
                    self.pos.trapped |= 1 << t;
                } else {
                    self.pos.pips[OPP_BAR] -= 1;
                }
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
            } else if self.closed(landing).is_some() {
                Route::Blocked(landing)
            } else if landing == to {
                Route::Ok(vec![die])
            } else {
                let mut rest = Sim {
                    pos: self.pos,
                    pool: self.pool.clone(),
                };
                rest.pool.remove(i);
                rest.step(from, landing, false);
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
                    if sim.pos.pip(at as usize) < 0 && sim.pos.is_trapped(at as usize) {
                        return IllegalMove::Trapped(at);
                    }
                    return IllegalMove::NoChecker(at);
                }
                let to = l.point;
                if to == 0 {
                    if let Some(p) = sim.own_trapped() {
                        return IllegalMove::TrappedCannotBearOff(p);
                    }
                    if !sim.all_home() {
                        return IllegalMove::NotAllHome;
                    }
                }
                if let Some(reason) = sim.closed(to) {
                    return reason;
                }
                let blot = to > 0 && is_blot(&sim.pos, to as usize);
                if l.hit && !blot {
                    return IllegalMove::NoBlot(to);
                }
                if l.trap && !blot {
                    return IllegalMove::NoBlotToTrap(to);
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
                        let last = dice_used.len() - 1;
                        for (k, die) in dice_used.into_iter().enumerate() {
                            let landing = from.saturating_sub(die);
                            sim.step(from, landing, l.trap && k == last);
                            let i = sim.pool.iter().position(|&d| d == die).unwrap();
                            sim.pool.remove(i);
                            used.push(die);
                            from = landing;
                        }
                    }
                    Route::Blocked(p) => {
                        return sim.closed(p).unwrap_or(IllegalMove::Blocked(p));
                    }
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
    for l in moves.iter().flat_map(|m| &m.landings).filter(|l| l.trap) {
        if !traps_there(&sim.pos, l.point as usize) {
            return IllegalMove::TrapReleased(l.point);
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
