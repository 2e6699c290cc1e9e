//! Reading move text into written moves, refusing text that is not move text.

use thiserror::Error;

/// A point a written move lands on or passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Landing {
    /// The point (1..=24), or 0 for off.
    pub point: u8,
    /// Marked with `*`.
    pub hit: bool,
    /// Marked with `^` (Never-Finishing: the blot there is trapped).
    pub trap: bool,
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
    /// A move continuing after `off`, or a hit or trap mark on `off`.
    #[error("{0:?}: off ends a move and hits or traps nothing")]
    AfterOff(String),
    /// Both `*` and `^` on one point.
    #[error("{0:?}: a blot is either hit (*) or trapped (^), not both")]
    HitAndTrap(String),
    /// A `^` on a point the checker moves on from, which releases the trapped blot.
    #[error(
        "{0:?}: a checker that moves on releases the blot it trapped; write ^ only where it stops"
    )]
    TrapPassed(String),
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
    let last = parts.len() - 1;
    for (i, part) in parts.iter().enumerate().skip(1) {
        let name = part.trim_end_matches(['*', '^']);
        let marks = &part[name.len()..];
        let (hit, trap) = (marks.contains('*'), marks.contains('^'));
        let point = parse_point(name, token)?;
        if point == 25 {
            return Err(MoveParseError::ToBar(token.to_string()));
        }
        if previous == 0 || (point == 0 && (hit || trap)) {
            return Err(MoveParseError::AfterOff(token.to_string()));
        }
        if hit && trap {
            return Err(MoveParseError::HitAndTrap(token.to_string()));
        }
        if trap && i < last {
            return Err(MoveParseError::TrapPassed(token.to_string()));
        }
        if point >= previous {
            return Err(MoveParseError::Backwards(token.to_string()));
        }
        landings.push(Landing { point, hit, trap });
        previous = point;
    }
    Ok(WrittenMove {
        from,
        landings,
        count,
    })
}

/// Reads move text into the moves written, without a position. `pass`, `-` and empty text
/// give no moves. `^` after a destination marks a trap (Never-Finishing); whether trapping is
/// allowed is decided when matching against a position.
pub fn parse_play(text: &str) -> Result<Vec<WrittenMove>, MoveParseError> {
    let lower = text.to_ascii_lowercase().replace(',', " ");
    // Glue a separated repetition, hit or trap mark (`8/2 (2)`, `13/7 *`) to its move.
    let mut tokens: Vec<String> = Vec::new();
    for word in lower.split_whitespace() {
        match tokens.last_mut() {
            Some(last) if word.starts_with(['(', '*', '^']) || last.ends_with('/') => {
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
