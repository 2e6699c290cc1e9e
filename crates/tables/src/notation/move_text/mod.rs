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

mod matching;
mod parse;
#[cfg(test)]
mod tests;

pub use matching::{match_play, IllegalMove, MoveTextError};
pub use parse::{parse_play, Landing, MoveParseError, WrittenMove};

use crate::movegen::Play;
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
