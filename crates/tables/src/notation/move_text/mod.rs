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
//!
//! Never-Finishing backgammon adds the trap: a checker landing on a blot may stay on top of
//! it instead of hitting it. Its mark is `^` after the point where the blot stays trapped
//! (`13/8^`, `bar/20^`, `13/8^(2)`), written by one more rule:
//!
//! 6. A point where the play leaves a newly trapped blot gets `^` once, on the first move in
//!    the order of rule 1 that ends there. A trap on a point the checker then leaves is
//!    released (the blot is as if passed over) and is not written; `^` is never written on an
//!    intermediate point, and text with one there is refused.
//!
//! [`match_play_nf`] (and [`match_play_with`], for either rule set) reads text with `^` against
//! the Never-Finishing plays: `13/8` onto a blot that could be hit or trapped is ambiguous and
//! the error lists both (`13/8* or 13/8^`); an unmarked intermediate point with a blot reads as
//! a hit, as in backgammon.

mod matching;
mod parse;
#[cfg(test)]
mod tests;

pub use matching::{match_play, match_play_nf, match_play_with, IllegalMove, MoveTextError};
pub use parse::{parse_play, Landing, MoveParseError, WrittenMove};

use crate::movegen::{Play, SequenceGen, Step, Trapping};
use crate::position::Position;
use tabula_core::Dice;

/// The name of a point in move text: `bar` for 25, `off` for 0, else the number.
pub fn point_name(point: u8) -> String {
    match point {
        25 => "bar".to_string(),
        0 => "off".to_string(),
        p => p.to_string(),
    }
}

/// What a point of a move is marked with.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    None,
    Hit,
    Trap,
}

/// One checker's journey after chaining: its points, start first, with their marks.
struct Chain {
    points: Vec<(u8, Mark)>,
}

impl Chain {
    fn ends(&self) -> (u8, u8) {
        (self.points[0].0, self.points[self.points.len() - 1].0)
    }

    fn text(&self) -> String {
        let last = self.points.len() - 1;
        let mut out = point_name(self.points[0].0);
        for (i, &(point, mark)) in self.points.iter().enumerate().skip(1) {
            if mark != Mark::None || i == last {
                out.push('/');
                out.push_str(&point_name(point));
                match mark {
                    Mark::Hit => out.push('*'),
                    Mark::Trap => out.push('^'),
                    Mark::None => {}
                }
            }
        }
        out
    }
}

/// The points where a blot trapped during the play is still trapped at its end, from the
/// steps in the order they were made: a trap lasts while a checker of the mover stays on top.
fn kept_traps(steps: &[Step]) -> [bool; 26] {
    let mut kept = [false; 26];
    let mut on_top = [0u8; 26];
    for s in steps {
        let (from, to) = (s.from as usize, s.to as usize);
        if kept[from] {
            on_top[from] -= 1;
            kept[from] = on_top[from] > 0;
        }
        if s.trap {
            kept[to] = true;
            on_top[to] = 1;
        } else if kept[to] {
            on_top[to] += 1;
        }
    }
    kept
}

/// gnubg's text of a play (see the module documentation for the rules), with `^` for the
/// blots it leaves trapped. The steps must be in the order they were made, as the generators
/// give them (it decides which traps last).
pub fn format_play(play: &Play) -> String {
    let steps = play.steps();
    let mut trap = kept_traps(steps);
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
        let mut points = vec![(sorted[i].0, Mark::None), (sorted[i].1, Mark::None)];
        loop {
            let end = points[points.len() - 1].0;
            let next = (i + 1..sorted.len()).find(|&j| !used[j] && sorted[j].0 == end && end != 0);
            match next {
                Some(j) => {
                    used[j] = true;
                    points.push((sorted[j].1, Mark::None));
                }
                None => break,
            }
        }
        for (point, mark) in points.iter_mut().skip(1) {
            if hit[*point as usize] {
                hit[*point as usize] = false;
                *mark = Mark::Hit;
            }
        }
        if let Some((point, mark)) = points.last_mut() {
            if trap[*point as usize] {
                trap[*point as usize] = false;
                *mark = Mark::Trap;
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

/// The text of the play that takes `before` to `after` (both seen from the mover) with `dice`
/// under `trapping`, traps marked `^`; `None` when no legal play does. An empty string when
/// no move is possible and `after == before`. With trapping off on a board without trapped
/// checkers this is [`format_move`].
pub fn format_move_with(
    before: &Position,
    after: &Position,
    dice: Dice,
    trapping: Trapping,
) -> Option<String> {
    if trapping == Trapping::Off && before.trapped_mask() == 0 {
        return format_move(before, after, dice);
    }
    let mut gen = SequenceGen::new();
    let (positions, plays) = gen.plays(before, dice, trapping);
    if plays.is_empty() {
        return (before == after).then(String::new);
    }
    positions
        .iter()
        .zip(plays)
        .find(|(p, _)| *p == after)
        .map(|(_, play)| format_play(play))
}

/// The Never-Finishing text of the play that takes `before` to `after` (both seen from the
/// mover) with `dice`: [`format_move_with`] with [`Trapping::On`].
pub fn format_move_nf(before: &Position, after: &Position, dice: Dice) -> Option<String> {
    format_move_with(before, after, dice, Trapping::On)
}
