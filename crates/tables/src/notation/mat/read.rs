//! Reading a Jellyfish `.mat` file into its games and column entries, without the rules: what
//! [`read_mat`] checks is the text (every line known, dice, cube values, move text), and
//! [`replay_mat`](super::replay_mat) then plays it through the rules engine.
//!
//! Leniencies, so that Tabula's, gnubg's and eXtreme Gammon's files all read:
//!
//! - blank lines and surrounding spaces are ignored; tabs count as spaces to the next multiple
//!   of 8; keywords (`Game`, `Doubles`, `Takes`, `Drops`, `Beavers`, `Wins`, `point match`)
//!   in any case;
//! - `;` lines are comments; of their `[Tag "Value"]` forms `Crawford`, `Jacoby` and `Beaver`
//!   (`On`/`Off`) are kept, `Variation` other than `Backgammon` is refused, others are skipped;
//! - an entry's column is where it starts: a line's first entry is the second column (Black)
//!   when it starts at character 20 or later, else the first (White); a second entry on the line
//!   is the second column. The move numbers are not checked;
//! - plays are gnubg move text: `8/5 6/5`, `25/22` or `bar/22`, `6/0` or `6/off`, `*` hits,
//!   chained `24/18*/13`, repeated `6/1(2)`; dice with nothing after them are a roll without a
//!   play; `Doubles => 2` and `Beavers => 4` with or without the arrow; `Wins 1 point`, with
//!   `and the match` or not.

use super::error::{MatError, MatErrorKind};
use crate::notation::move_text::{parse_play, WrittenMove};
use std::fmt;
use tabula_core::{ByColor, Color, Dice};

/// Where a line's first entry must start (in characters) to be in the second column.
const SECOND_COLUMN_FROM: usize = 20;

/// A `.mat` file as read: the header and the games with their entries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatSession {
    /// The match length, 0 for a money session.
    pub length: u32,
    /// `; [Crawford "On"]` or `"Off"`, where written.
    pub crawford: Option<bool>,
    /// `; [Jacoby "On"]` or `"Off"`, where written.
    pub jacoby: Option<bool>,
    /// `; [Beaver "On"]` or `"Off"`, where written.
    pub beavers: Option<bool>,
    /// The games, in the order written.
    pub games: Vec<MatGame>,
}

/// One ` Game N` with its score line and entries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatGame {
    /// The number written after `Game`.
    pub number: u32,
    /// The line of ` Game N`.
    pub line: usize,
    /// The names on the score line: White the first, Black the second.
    pub names: ByColor<String>,
    /// The score before the game (in money: each player's winnings so far).
    pub score: ByColor<u32>,
    /// The entries, in the order written (line by line, first column first).
    pub entries: Vec<MatEntry>,
}

/// One column entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatEntry {
    /// Its line.
    pub line: usize,
    /// Its column: White the first, Black the second.
    pub player: Color,
    /// What it says.
    pub item: MatItem,
}

/// What a column entry says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MatItem {
    /// Dice and the play (no moves: the roll was not played).
    Roll {
        /// The dice.
        dice: Dice,
        /// The moves as parsed.
        moves: Vec<WrittenMove>,
        /// The play as written (words joined by one space).
        text: String,
    },
    /// ` Doubles => N`: the cube's value after the double.
    Double(u32),
    /// ` Takes`.
    Take,
    /// ` Drops`.
    Drop,
    /// ` Beavers => N`: the cube's value after the beaver.
    Beaver(u32),
    /// `Wins N point(s)`: the entry's player won the game and N points.
    Wins(u32),
}

impl fmt::Display for MatItem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatItem::Roll { dice, text, .. } if text.is_empty() => {
                write!(f, "{}{}:", dice.big(), dice.small())
            }
            MatItem::Roll { dice, text, .. } => {
                write!(f, "{}{}: {text}", dice.big(), dice.small())
            }
            MatItem::Double(v) => write!(f, "Doubles => {v}"),
            MatItem::Take => f.write_str("Takes"),
            MatItem::Drop => f.write_str("Drops"),
            MatItem::Beaver(v) => write!(f, "Beavers => {v}"),
            MatItem::Wins(1) => f.write_str("Wins 1 point"),
            MatItem::Wins(n) => write!(f, "Wins {n} points"),
        }
    }
}

/// Reads a `.mat` file (see the module documentation for what is accepted). Nothing is checked
/// against the rules: [`replay_mat`](super::replay_mat) does that.
pub fn read_mat(text: &str) -> Result<MatSession, MatError> {
    let mut reader = Reader::default();
    for (i, raw) in text.lines().enumerate() {
        reader.line(i + 1, &expand_tabs(raw))?;
    }
    if let Some(game) = reader.games.last().filter(|_| reader.awaiting_score) {
        return Err(MatError::new(
            game.line + 1,
            Some(game.number),
            MatErrorKind::ScoreLine(String::new()),
        ));
    }
    Ok(MatSession {
        length: reader.length.unwrap_or(0),
        crawford: reader.crawford,
        jacoby: reader.jacoby,
        beavers: reader.beavers,
        games: reader.games,
    })
}

fn expand_tabs(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut width = 0;
    for c in line.chars() {
        if c == '\t' {
            let n = 8 - width % 8;
            out.extend(std::iter::repeat_n(' ', n));
            width += n;
        } else {
            out.push(c);
            width += 1;
        }
    }
    out
}

#[derive(Default)]
struct Reader {
    length: Option<u32>,
    crawford: Option<bool>,
    jacoby: Option<bool>,
    beavers: Option<bool>,
    games: Vec<MatGame>,
    awaiting_score: bool,
}

impl Reader {
    fn err(&self, line: usize, kind: MatErrorKind) -> MatError {
        let game = self.games.last().map(|g| g.number);
        MatError::new(line, game, kind)
    }

    fn line(&mut self, n: usize, line: &str) -> Result<(), MatError> {
        let trimmed = line.trim();
        let lower = trimmed.to_ascii_lowercase();
        if trimmed.is_empty() {
            return Ok(());
        }
        if let Some(comment) = trimmed.strip_prefix(';') {
            return self.tag(n, comment);
        }
        if self.awaiting_score {
            return self.score_line(n, trimmed);
        }
        if let Some(length) = lower.strip_suffix("point match") {
            if !self.games.is_empty() || self.length.is_some() {
                return Err(self.err(n, MatErrorKind::Unreadable(trimmed.to_string())));
            }
            let length = length.trim();
            match length.parse::<u32>() {
                Ok(l) if l <= 64 => self.length = Some(l),
                _ => return Err(self.err(n, MatErrorKind::MatchLength(length.to_string()))),
            }
            return Ok(());
        }
        if let Some(number) = lower.strip_prefix("game") {
            if self.length.is_none() {
                return Err(self.err(n, MatErrorKind::NoMatchLine));
            }
            let Ok(number) = number.trim().parse::<u32>() else {
                return Err(self.err(n, MatErrorKind::GameLine(trimmed.to_string())));
            };
            self.games.push(MatGame {
                number,
                line: n,
                names: ByColor::new_with(|_| String::new()),
                score: ByColor::default(),
                entries: Vec::new(),
            });
            self.awaiting_score = true;
            return Ok(());
        }
        if self.games.is_empty() {
            return Err(self.err(n, MatErrorKind::Unreadable(trimmed.to_string())));
        }
        // `  1) 31: 8/5 6/5 ...`, or a `Wins` line of its own.
        let digits = trimmed.chars().take_while(char::is_ascii_digit).count();
        let body_from = if digits > 0 && trimmed[digits..].starts_with(')') {
            let lead = line.chars().take_while(|c| c.is_whitespace()).count();
            lead + digits + 1
        } else if lower.starts_with("wins") {
            0
        } else {
            return Err(self.err(n, MatErrorKind::Unreadable(trimmed.to_string())));
        };
        let entries = self.entries(n, line, body_from)?;
        if let Some(game) = self.games.last_mut() {
            game.entries.extend(entries);
        }
        Ok(())
    }

    /// `[Name "Value"]` after the `;`.
    fn tag(&mut self, n: usize, comment: &str) -> Result<(), MatError> {
        let Some(inner) = comment
            .trim()
            .strip_prefix('[')
            .and_then(|t| t.strip_suffix(']'))
        else {
            return Ok(());
        };
        let (name, value) = inner.split_once(' ').unwrap_or((inner, ""));
        let value = value.trim().trim_matches('"');
        let flag = match value.to_ascii_lowercase().as_str() {
            "on" => Some(true),
            "off" => Some(false),
            _ => None,
        };
        match name.to_ascii_lowercase().as_str() {
            "crawford" => self.crawford = flag.or(self.crawford),
            "jacoby" => self.jacoby = flag.or(self.jacoby),
            "beaver" | "beavers" => self.beavers = flag.or(self.beavers),
            "variation" if !value.eq_ignore_ascii_case("backgammon") => {
                return Err(self.err(
                    n,
                    MatErrorKind::Unsupported(format!("the variation {value:?}")),
                ))
            }
            _ => {}
        }
        Ok(())
    }

    /// `Alice : 0                      Bob : 0`.
    fn score_line(&mut self, n: usize, trimmed: &str) -> Result<(), MatError> {
        let bad = || MatErrorKind::ScoreLine(trimmed.to_string());
        let parts: Vec<&str> = trimmed.split(':').collect();
        let [white, middle, black_score] = parts[..] else {
            return Err(self.err(n, bad()));
        };
        let middle = middle.trim_start();
        let digits = middle.chars().take_while(char::is_ascii_digit).count();
        let white_score = middle[..digits].parse::<u32>();
        let black = middle[digits..].trim();
        let black_score = black_score.trim().parse::<u32>();
        let (Ok(white_score), Ok(black_score)) = (white_score, black_score) else {
            return Err(self.err(n, bad()));
        };
        if black.is_empty() || (digits < middle.len() && !middle[digits..].starts_with(' ')) {
            return Err(self.err(n, bad()));
        }
        if let Some(game) = self.games.last_mut() {
            game.names = ByColor {
                white: white.trim().to_string(),
                black: black.to_string(),
            };
            game.score = ByColor {
                white: white_score,
                black: black_score,
            };
        }
        self.awaiting_score = false;
        Ok(())
    }

    /// The entries of a line from character `from` on, with their columns.
    fn entries(&self, n: usize, line: &str, from: usize) -> Result<Vec<MatEntry>, MatError> {
        let words = words(line, from);
        let err = |kind| self.err(n, kind);
        let mut out: Vec<MatEntry> = Vec::new();
        let mut i = 0;
        while i < words.len() {
            let (at, word) = &words[i];
            let lower = word.to_ascii_lowercase();
            let player = match out.len() {
                0 if *at >= SECOND_COLUMN_FROM => Color::Black,
                0 => Color::White,
                1 if out[0].player == Color::White => Color::Black,
                _ => return Err(err(MatErrorKind::ThreeEntries)),
            };
            i += 1;
            let item = match lower.as_str() {
                "takes" => MatItem::Take,
                "drops" => MatItem::Drop,
                "doubles" | "beavers" => {
                    if words.get(i).is_some_and(|(_, w)| w == "=>") {
                        i += 1;
                    }
                    let value = words.get(i).and_then(|(_, w)| w.parse::<u32>().ok());
                    let Some(value) = value.filter(|v| *v >= 2) else {
                        return Err(err(MatErrorKind::BadCube(line.trim().to_string())));
                    };
                    i += 1;
                    if lower == "doubles" {
                        MatItem::Double(value)
                    } else {
                        MatItem::Beaver(value)
                    }
                }
                "wins" => {
                    let points = words.get(i).and_then(|(_, w)| w.parse::<u32>().ok());
                    let Some(points) = points.filter(|p| *p >= 1) else {
                        return Err(err(MatErrorKind::BadWins(line.trim().to_string())));
                    };
                    i += 1;
                    while words.get(i).is_some_and(|(_, w)| {
                        let w = w.to_ascii_lowercase();
                        ["point", "points", "and", "the", "match"].contains(&w.as_str())
                    }) {
                        i += 1;
                    }
                    MatItem::Wins(points)
                }
                _ => {
                    let Some((dice, rest)) = dice_word(word) else {
                        return Err(err(MatErrorKind::Unreadable(word.clone())));
                    };
                    let dice = dice.ok_or_else(|| err(MatErrorKind::BadDice(word.clone())))?;
                    let mut play: Vec<&str> = Vec::new();
                    if !rest.is_empty() {
                        play.push(rest);
                    }
                    while let Some((_, w)) = words.get(i).filter(|(_, w)| !starts_entry(w)) {
                        play.push(w);
                        i += 1;
                    }
                    let text = play.join(" ");
                    let moves = parse_play(&text).map_err(|source| {
                        err(MatErrorKind::Move {
                            text: text.clone(),
                            source,
                        })
                    })?;
                    MatItem::Roll { dice, moves, text }
                }
            };
            out.push(MatEntry {
                line: n,
                player,
                item,
            });
        }
        Ok(out)
    }
}

/// The words of `line` from character `from` on, with the character where each starts.
fn words(line: &str, from: usize) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (i, c) in line.chars().enumerate().skip(from) {
        if c.is_whitespace() {
            out.extend(current.take());
        } else {
            current.get_or_insert_with(|| (i, String::new())).1.push(c);
        }
    }
    out.extend(current);
    out
}

/// Whether a word begins a new entry.
fn starts_entry(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    ["takes", "drops", "doubles", "beavers", "wins"].contains(&lower.as_str())
        || dice_word(word).is_some()
}

/// `31:` (or `31:8/5`): `Some` when the word has the shape of dice, with the dice when they are
/// faces 1 to 6 and the text after the colon.
fn dice_word(word: &str) -> Option<(Option<Dice>, &str)> {
    let (head, rest) = word.split_once(':')?;
    let bytes = head.as_bytes();
    if bytes.len() != 2 || !bytes.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some((Dice::new(bytes[0] - b'0', bytes[1] - b'0').ok(), rest))
}
