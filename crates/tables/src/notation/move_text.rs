//! Move text as GNU Backgammon writes it (`24/18 13/8`, `bar/22*`, `8/2(2)`, `24/18*/13`),
//! and reading what a user types against the legal plays.
//!
//! Points are numbered from the mover's side; `bar` is the mover's bar and `off` bears a
//! checker off. [`format_play`] reproduces gnubg's text exactly (checked against every play
//! gnubg's `hint` lists for 381 positions, see `tests/fixtures/gnubg_move_text.txt`). gnubg's
//! rules, as observed:
//!
//! 1. The checker steps are sorted by starting point, highest first, and for equal starting
//!    points by landing point, highest first.
//! 2. In that order each step is extended by the first unused step that starts where it
//!    ends, as often as possible: `24/18 18/13` becomes `24/13`.
//! 3. A point where a blot was hit gets `*` once, on the first move in that order landing or
//!    passing there; an intermediate point is written only when it has a `*`
//!    (`24/18*/13`).
//! 4. Consecutive moves with the same start and end are written once with `(n)`; the first
//!    one's `*` marks are kept (`10/8*(2)`: two checkers to 8, the first hit).
//! 5. Moves are separated by one space; a play without steps is the empty string.
//!
//! The text depends only on the steps' start and landing points and on which points were
//! hit, so every step sequence that reaches the same position gives the same text.
//!
//! [`parse_play`] reads user input (case-insensitive): `bar`, `b` or `25` for the bar;
//! `off`, `o` or `0` to bear off; chained points `24/18/13`; a `*` after any point;
//! repetitions `(2)`; moves separated by spaces or commas; `pass` or nothing for no move.
//! [`match_play`] then finds the legal play meant, or says why there is none.

use crate::movegen::{Play, Step};
use crate::position::{Position, BAR, OPP_BAR};
use std::fmt;
use tabula_core::Dice;
use thiserror::Error;

/// The name of a point in move text: `bar` for 25, `off` for 0, else the number.
pub fn point_name(point: u8) -> String {
    match point {
        25 => "bar".to_string(),
        0 => "off".to_string(),
        p => p.to_string(),
    }
}

/// One checker's journey after chaining: its points, start first, with hit marks.
struct Chain {
    points: Vec<(u8, bool)>,
}

impl Chain {
    fn ends(&self) -> (u8, u8) {
        (self.points[0].0, self.points[self.points.len() - 1].0)
    }

    fn text(&self) -> String {
        let last = self.points.len() - 1;
        let mut out = point_name(self.points[0].0);
        for (i, &(point, hit)) in self.points.iter().enumerate().skip(1) {
            if hit || i == last {
                out.push('/');
                out.push_str(&point_name(point));
                if hit {
                    out.push('*');
                }
            }
        }
        out
    }
}

/// gnubg's text of a play (see the module documentation for the rules).
pub fn format_play(play: &Play) -> String {
    let steps = play.steps();
    let mut hit = [false; 26];
    for s in steps.iter().filter(|s| s.hit) {
        hit[s.to as usize] = true;
    }
    let mut sorted: Vec<(u8, u8)> = steps.iter().map(|s| (s.from, s.to)).collect();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    let mut used = vec![false; sorted.len()];
    let mut chains: Vec<Chain> = Vec::with_capacity(sorted.len());
    for i in 0..sorted.len() {
        if used[i] {
            continue;
        }
        used[i] = true;
        let mut points = vec![(sorted[i].0, false), (sorted[i].1, false)];
        loop {
            let end = points[points.len() - 1].0;
            let next = (i + 1..sorted.len()).find(|&j| !used[j] && sorted[j].0 == end && end != 0);
            match next {
                Some(j) => {
                    used[j] = true;
                    points.push((sorted[j].1, false));
                }
                None => break,
            }
        }
        for (point, mark) in points.iter_mut().skip(1) {
            if hit[*point as usize] {
                hit[*point as usize] = false;
                *mark = true;
            }
        }
        chains.push(Chain { points });
    }
    let mut parts: Vec<String> = Vec::with_capacity(chains.len());
    let mut i = 0;
    while i < chains.len() {
        let n = chains[i..]
            .iter()
            .take_while(|c| c.ends() == chains[i].ends())
            .count();
        let mut text = chains[i].text();
        if n > 1 {
            text.push_str(&format!("({n})"));
        }
        parts.push(text);
        i += n;
    }
    parts.join(" ")
}

/// gnubg's text of the play that takes `before` to `after` (both seen from the mover) with
/// `dice`; `None` when no legal play does. An empty string when no move is possible and
/// `after == before`.
pub fn format_move(before: &Position, after: &Position, dice: Dice) -> Option<String> {
    let plays = before.legal_plays(dice);
    if plays.is_empty() {
        return (before == after).then(String::new);
    }
    plays
        .iter()
        .find(|(_, p)| p == after)
        .map(|(play, _)| format_play(play))
}

/// A point a written move lands on or passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Landing {
    /// The point (1..=24), or 0 for off.
    pub point: u8,
    /// Marked with `*`.
    pub hit: bool,
}

/// One move as written: a checker (or `count` checkers) from a point through the landings.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct WrittenMove {
    /// Starting point (1..=24), or 25 for the bar.
    pub from: u8,
    /// The points written after the start, in order; the last is the destination.
    pub landings: Vec<Landing>,
    /// How many checkers make this move (the `(n)` suffix; 1 without).
    pub count: u8,
}

impl WrittenMove {
    /// The destination (0 = off).
    pub fn to(&self) -> u8 {
        self.landings[self.landings.len() - 1].point
    }
}

/// Why move text could not be read (before looking at any position).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum MoveParseError {
    /// A number that is no point.
    #[error("point {0} does not exist (points are 1 to 24, bar and off)")]
    NoSuchPoint(u32),
    /// Something that is not a point at all.
    #[error("{0:?} is not a point (points are 1 to 24, bar and off)")]
    NotAPoint(String),
    /// A move without a `/`.
    #[error("{0:?} is not a move: write it from/to, like 24/18")]
    NotAMove(String),
    /// A move to the bar.
    #[error("{0:?}: a checker cannot move to the bar")]
    ToBar(String),
    /// A move starting off the board.
    #[error("{0:?}: a checker cannot move from off the board")]
    FromOff(String),
    /// A move that goes backwards or stays.
    #[error("{0:?}: checkers move from higher points to lower ones")]
    Backwards(String),
    /// A move continuing after `off`, or a hit mark on `off`.
    #[error("{0:?}: off ends a move and hits nothing")]
    AfterOff(String),
    /// A repetition outside 1..=4 or badly written.
    #[error("{0:?}: the repetition (n) is 1 to 4")]
    BadCount(String),
    /// More than four checker moves.
    #[error("a play moves at most four checkers, not {0}")]
    TooMany(usize),
}

fn parse_point(text: &str, token: &str) -> Result<u8, MoveParseError> {
    match text {
        "bar" | "b" => Ok(25),
        "off" | "o" => Ok(0),
        _ if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) => {
            let n: u32 = text.parse().unwrap_or(u32::MAX);
            if n <= 25 {
                Ok(n as u8)
            } else {
                Err(MoveParseError::NoSuchPoint(n))
            }
        }
        _ if text.is_empty() => Err(MoveParseError::NotAMove(token.to_string())),
        _ => Err(MoveParseError::NotAPoint(text.to_string())),
    }
}

fn parse_move(token: &str) -> Result<WrittenMove, MoveParseError> {
    let (body, count) = match token.find('(') {
        Some(open) => {
            let bad = || MoveParseError::BadCount(token.to_string());
            let inner = token[open + 1..].strip_suffix(')').ok_or_else(bad)?;
            let n: u8 = inner.trim().parse().map_err(|_| bad())?;
            if !(1..=4).contains(&n) {
                return Err(bad());
            }
            (&token[..open], n)
        }
        None => (token, 1),
    };
    let parts: Vec<&str> = body.split('/').collect();
    if parts.len() < 2 {
        return Err(MoveParseError::NotAMove(token.to_string()));
    }
    let first = parts[0].trim_end_matches('*');
    let from = parse_point(first, token)?;
    if from == 0 {
        return Err(MoveParseError::FromOff(token.to_string()));
    }
    let mut landings = Vec::with_capacity(parts.len() - 1);
    let mut previous = from;
    for part in &parts[1..] {
        let hit = part.ends_with('*');
        let point = parse_point(part.trim_end_matches('*'), token)?;
        if point == 25 {
            return Err(MoveParseError::ToBar(token.to_string()));
        }
        if previous == 0 || (point == 0 && hit) {
            return Err(MoveParseError::AfterOff(token.to_string()));
        }
        if point >= previous {
            return Err(MoveParseError::Backwards(token.to_string()));
        }
        landings.push(Landing { point, hit });
        previous = point;
    }
    Ok(WrittenMove {
        from,
        landings,
        count,
    })
}

/// Reads move text into the moves written, without a position. `pass`, `-` and empty text
/// give no moves.
pub fn parse_play(text: &str) -> Result<Vec<WrittenMove>, MoveParseError> {
    let lower = text.to_ascii_lowercase().replace(',', " ");
    // Glue a separated repetition or hit mark (`8/2 (2)`, `13/7 *`) to its move.
    let mut tokens: Vec<String> = Vec::new();
    for word in lower.split_whitespace() {
        match tokens.last_mut() {
            Some(last) if word.starts_with('(') || word.starts_with('*') || last.ends_with('/') => {
                last.push_str(word)
            }
            Some(last) if word.starts_with('/') => last.push_str(word),
            _ => tokens.push(word.to_string()),
        }
    }
    if tokens.len() == 1 && matches!(tokens[0].as_str(), "pass" | "-") {
        return Ok(Vec::new());
    }
    let moves = tokens
        .iter()
        .map(|t| parse_move(t))
        .collect::<Result<Vec<_>, _>>()?;
    let checkers: usize = moves.iter().map(|m| usize::from(m.count)).sum();
    if checkers > 4 {
        return Err(MoveParseError::TooMany(checkers));
    }
    Ok(moves)
}

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
                if allowed.as_slice() == [1] { "pip" } else { "pips" }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn dice(a: u8, b: u8) -> Dice {
        Dice::new(a, b).unwrap()
    }

    fn step(from: u8, to: u8, hit: bool) -> Step {
        Step { from, to, hit }
    }

    #[test]
    fn formatting_follows_gnubgs_conventions() {
        let cases: [(&[Step], &str); 7] = [
            (&[step(24, 18, false), step(18, 13, false)], "24/13"),
            (&[step(13, 8, false), step(24, 18, false)], "24/18 13/8"),
            (&[step(13, 7, false), step(13, 8, false)], "13/8 13/7"),
            (&[step(24, 18, true), step(18, 13, false)], "24/18*/13"),
            (
                &[
                    step(13, 11, false),
                    step(13, 11, false),
                    step(13, 11, false),
                    step(11, 9, false),
                ],
                "13/9 13/11(2)",
            ),
            (
                &[
                    step(25, 24, false),
                    step(25, 24, false),
                    step(24, 23, true),
                    step(23, 22, true),
                ],
                "bar/23*/22* bar/24",
            ),
            (
                &[
                    step(10, 8, true),
                    step(10, 8, false),
                    step(6, 0, false),
                    step(6, 0, false),
                ],
                "10/8*(2) 6/off(2)",
            ),
        ];
        for (steps, text) in cases {
            assert_eq!(format_play(&Play::from_steps(steps)), text);
        }
        assert_eq!(format_play(&Play::default()), "");
    }

    #[test]
    fn parsing_accepts_the_usual_spellings() {
        let m = parse_play("  BAR/22*, 6/Off 24/18/13  8/2 (1) ").unwrap();
        assert_eq!(m.len(), 4);
        assert_eq!(m[0].from, 25);
        assert_eq!(
            m[0].landings,
            vec![Landing {
                point: 22,
                hit: true
            }]
        );
        assert_eq!((m[1].to(), m[1].count), (0, 1));
        assert_eq!(m[2].landings.len(), 2);
        assert_eq!(m[3].count, 1);
        assert_eq!(parse_play("6/off(2) 5/3 (2)").unwrap()[1].count, 2);
        assert_eq!(
            parse_play("b/20 o").unwrap_err(),
            MoveParseError::NotAMove("o".into())
        );
        assert_eq!(parse_play("25/20 3/0").unwrap()[1].to(), 0);
        assert!(parse_play("pass").unwrap().is_empty());
        assert!(parse_play("").unwrap().is_empty());
    }

    #[test]
    fn malformed_text_says_what_is_wrong() {
        let cases = [
            ("27/21", MoveParseError::NoSuchPoint(27)),
            ("13/x", MoveParseError::NotAPoint("x".into())),
            ("13", MoveParseError::NotAMove("13".into())),
            ("6/bar", MoveParseError::ToBar("6/bar".into())),
            ("off/3", MoveParseError::FromOff("off/3".into())),
            ("13/18", MoveParseError::Backwards("13/18".into())),
            ("6/off/2", MoveParseError::AfterOff("6/off/2".into())),
            ("6/2(5)", MoveParseError::BadCount("6/2(5)".into())),
            ("6/2(3) 8/4(2)", MoveParseError::TooMany(5)),
        ];
        for (text, error) in cases {
            assert_eq!(parse_play(text), Err(error), "{text}");
        }
    }

    #[test]
    fn plays_are_matched_in_any_spelling() {
        let start = Position::START;
        for text in ["24/18 13/8", "13/8 24/18", "24/18,13/8", "13/8   24/18 "] {
            let (play, _) = match_play(&start, dice(6, 5), text).unwrap();
            assert_eq!(format_play(&play), "24/18 13/8");
        }
        for text in ["24/13", "24/18/13", "24/19/13", "24/18 18/13"] {
            let (play, _) = match_play(&start, dice(6, 5), text).unwrap();
            assert_eq!(format_play(&play), "24/13", "{text}");
        }
        let (play, _) = match_play(&start, dice(3, 3), "8/5(2) 6/3(2)").unwrap();
        assert_eq!(format_play(&play), "8/5(2) 6/3(2)");
    }

    #[test]
    fn a_distance_the_dice_cannot_make_is_reported_before_blocked_points() {
        let err = match_play(&Position::START, dice(6, 1), "24/18 13/9").unwrap_err();
        assert!(err.to_string().contains("13/9"), "{err}");
        let err = match_play(&Position::START, dice(6, 1), "24/13").unwrap_err();
        assert!(err.to_string().contains("24/13"), "{err}");
    }

    #[test]
    fn illegal_plays_say_why() {
        let start = Position::START;
        let reason = |d: Dice, text: &str| match match_play(&start, d, text) {
            Err(MoveTextError::Illegal { reason, .. }) => reason,
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(
            reason(dice(6, 5), "24/18 13/9"),
            IllegalMove::Distance {
                from: 13,
                to: 9,
                allowed: vec![5],
                dice: dice(6, 5)
            }
        );
        assert_eq!(
            reason(dice(6, 5), "24/18 13/9").to_string(),
            "13/9 is not a move of 5 pips (dice are 6-5)"
        );
        assert_eq!(
            reason(dice(6, 5), "24/18"),
            IllegalMove::MustUseMoreDice {
                used: 1,
                possible: 2,
                dice: dice(6, 5)
            }
        );
        assert_eq!(reason(dice(6, 5), "12/6 8/3"), IllegalMove::NoChecker(12));
        assert_eq!(reason(dice(6, 5), "bar/20 8/3"), IllegalMove::NothingOnBar);
        assert_eq!(reason(dice(6, 5), "24/19 13/7"), IllegalMove::Blocked(19));
        assert_eq!(reason(dice(6, 5), "6/off 6/1"), IllegalMove::NotAllHome);
        assert_eq!(reason(dice(6, 5), "24/18* 13/8"), IllegalMove::NoBlot(18));
        assert_eq!(
            reason(dice(6, 5), "24/18 13/8 8/2"),
            IllegalMove::TooManyMoves(dice(6, 5))
        );
        assert_eq!(reason(dice(6, 5), "pass"), IllegalMove::MustMove);
    }

    #[test]
    fn a_closed_board_means_pass() {
        // The mover is on the bar against a closed board: only passing is legal.
        let mut mover = [0u8; 25];
        mover[24] = 1;
        mover[5] = 14;
        let mut opponent = [0u8; 25];
        for count in opponent.iter_mut().take(6) {
            *count = 2;
        }
        let pos = Position::from_counts(&mover, &opponent).unwrap();
        assert_eq!(match_play(&pos, dice(6, 5), "").unwrap().1, pos);
        assert!(matches!(
            match_play(&pos, dice(6, 5), "bar/20"),
            Err(MoveTextError::Illegal {
                reason: IllegalMove::NoMovePossible(_),
                ..
            })
        ));
    }

    #[test]
    fn ambiguous_text_lists_the_candidates() {
        // Blots on the mover's 18 and 19 points: 24/13 with 6-5 hits one or the other.
        let mut mover = [0u8; 25];
        mover[23] = 1;
        mover[5] = 14;
        let mut opponent = [0u8; 25];
        opponent[6] = 1; // the mover's 18
        opponent[5] = 1; // the mover's 19
        opponent[1] = 13;
        let pos = Position::from_counts(&mover, &opponent).unwrap();
        match match_play(&pos, dice(6, 5), "24/13") {
            Err(MoveTextError::Ambiguous { candidates, .. }) => {
                assert_eq!(candidates, vec!["24/18*/13", "24/19*/13"]);
            }
            other => panic!("{other:?}"),
        }
        let (play, _) = match_play(&pos, dice(6, 5), "24/18*/13").unwrap();
        assert_eq!(format_play(&play), "24/18*/13");
    }
}
