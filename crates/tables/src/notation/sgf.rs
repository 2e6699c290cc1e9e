//! Reading GNU Backgammon's SGF files (`save match`), so that `tabula analyse` reads them as
//! it reads `.mat` files: the games become a [`MatSession`] and are replayed through the
//! rules by [`replay_session`], with the same checks.
//!
//! What is read (docs/notation.md, "gnubg SGF"):
//!
//! - The file is a sequence of game trees `(;FF[4]GM[6]...;B[..];W[..]...)`, one per game;
//!   a variation inside a game is not a move played, and only the main line (the first child)
//!   is followed. Property values may hold `\]` and `\\` escapes. Properties other than those
//!   below (gnubg's analysis `A[...]`, `DA`, comments, ...) are ignored.
//! - Each game's first node: `GM[6]` (backgammon), `MI[length:N][game:G][ws:W][bs:B]` (match
//!   length, 0 for money; the game's number from 0; the score before it, White's and
//!   Black's), `PW` and `PB` (the names), `RU` (`Crawford`, `Crawford:CrawfordGame`,
//!   `Jacoby`, as gnubg writes its rules; beavers are always allowed, gnubg does not record
//!   them), `RE[W+2]` (the winner and the points).
//! - Move nodes: `W[...]` is White (`PW`), `B[...]` Black. A roll and its play are two dice
//!   digits followed by one pair of letters per checker step: `a` to `x` are the 24 points
//!   numbered from White's side (`a` White's 1-point, Black's 24-point), `y` the mover's bar,
//!   `z` off; dice alone are a roll that could not be played. `double`, `take`, `drop` and
//!   `beaver` are the cube actions; gnubg writes a beaver as a `double` of the player just
//!   doubled.
//! - The Crawford rule: a match whose games never name it (`RU`) is replayed without it; one
//!   that names it with it and, if that replay fails, without (gnubg names the rule on a match
//!   it imported from a `.mat` file whatever rule the match was played under).
//! - The game's end: its `RE` is written as the winner's `Wins N points`, so a game that
//!   ended by resignation is replayed as one, as in a `.mat` file.
//! - Refused, with the line: a file that is not SGF, a game of another game type (`GM` other
//!   than 6), a position set up in the file (`AB`, `AW`, `AE`), a move node that cannot be
//!   read.

use super::mat::{MatEntry, MatGame, MatItem, MatSession};
use super::move_text::parse_play;
use tabula_core::{ByColor, Color, Dice};
use thiserror::Error;

/// Why an SGF file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}: {reason}")]
pub struct SgfError {
    /// The line (from 1) of the problem.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

/// One node: its properties, each with its values, and its line.
#[derive(Debug, Clone, Default)]
struct Node {
    line: usize,
    props: Vec<(String, Vec<String>)>,
}

impl Node {
    fn get(&self, name: &str) -> Option<&[String]> {
        self.props
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_slice())
    }

    fn first(&self, name: &str) -> Option<&str> {
        self.get(name).and_then(|v| v.first()).map(String::as_str)
    }
}

/// A tiny SGF reader: the main line of each top-level game tree, as nodes.
struct Reader<'a> {
    text: &'a [u8],
    at: usize,
    line: usize,
}

impl<'a> Reader<'a> {
    fn err(&self, reason: impl Into<String>) -> SgfError {
        SgfError {
            line: self.line,
            reason: reason.into(),
        }
    }

    fn skip_space(&mut self) {
        while let Some(&c) = self.text.get(self.at) {
            if !c.is_ascii_whitespace() {
                break;
            }
            if c == b'\n' {
                self.line += 1;
            }
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.text.get(self.at).copied()
    }

    fn games(&mut self) -> Result<Vec<Vec<Node>>, SgfError> {
        let mut games = Vec::new();
        while let Some(c) = self.peek() {
            if c != b'(' {
                return Err(self.err(format!(
                    "expected '(' to begin a game, found {:?}",
                    c as char
                )));
            }
            games.push(self.tree(true)?);
        }
        if games.is_empty() {
            return Err(self.err("no game in the file (an SGF file begins with '(;')"));
        }
        Ok(games)
    }

    /// A game tree from its '('; keeps the nodes when `keep` (the main line).
    fn tree(&mut self, keep: bool) -> Result<Vec<Node>, SgfError> {
        self.at += 1; // '('
        let mut nodes = Vec::new();
        let mut child_taken = false;
        loop {
            match self.peek() {
                Some(b';') => {
                    self.at += 1;
                    let node = self.node()?;
                    if keep && !child_taken {
                        nodes.push(node);
                    }
                }
                Some(b'(') => {
                    // The first variation continues the main line; the others are skipped.
                    let sub = self.tree(keep && !child_taken)?;
                    if keep && !child_taken {
                        nodes.extend(sub);
                    }
                    child_taken = true;
                }
                Some(b')') => {
                    self.at += 1;
                    return Ok(nodes);
                }
                Some(c) => return Err(self.err(format!("unexpected {:?}", c as char))),
                None => return Err(self.err("the file ends inside a game (a ')' is missing)")),
            }
        }
    }

    fn node(&mut self) -> Result<Node, SgfError> {
        let mut node = Node {
            line: self.line,
            props: Vec::new(),
        };
        while let Some(c) = self.peek() {
            if !c.is_ascii_alphabetic() {
                break;
            }
            let start = self.at;
            while self.text.get(self.at).is_some_and(u8::is_ascii_alphabetic) {
                self.at += 1;
            }
            let name = String::from_utf8_lossy(&self.text[start..self.at]).into_owned();
            let mut values = Vec::new();
            while self.peek() == Some(b'[') {
                values.push(self.value()?);
            }
            if values.is_empty() {
                return Err(self.err(format!("property {name} has no value")));
            }
            node.props.push((name, values));
        }
        Ok(node)
    }

    fn value(&mut self) -> Result<String, SgfError> {
        self.at += 1; // '['
        let mut out = Vec::new();
        loop {
            match self.text.get(self.at) {
                None => return Err(self.err("the file ends inside a value (a ']' is missing)")),
                Some(b']') => {
                    self.at += 1;
                    return Ok(String::from_utf8_lossy(&out).into_owned());
                }
                Some(b'\\') => {
                    if let Some(&c) = self.text.get(self.at + 1) {
                        out.push(c);
                        if c == b'\n' {
                            self.line += 1;
                        }
                    }
                    self.at += 2;
                }
                Some(&c) => {
                    if c == b'\n' {
                        self.line += 1;
                    }
                    out.push(c);
                    self.at += 1;
                }
            }
        }
    }
}

/// The point a letter names, in the mover's numbering (25 the bar, 0 off).
fn point(letter: u8, mover: Color) -> Option<u8> {
    match letter {
        b'y' => Some(25),
        b'z' => Some(0),
        b'a'..=b'x' => {
            let i = letter - b'a';
            Some(match mover {
                Color::White => i + 1,
                Color::Black => 24 - i,
            })
        }
        _ => None,
    }
}

/// A move node's value as an entry item; `cube` is the cube's value before it.
fn item(value: &str, mover: Color, cube: &mut u32) -> Result<MatItem, String> {
    match value {
        "double" => {
            *cube *= 2;
            return Ok(MatItem::Double(*cube));
        }
        "take" => return Ok(MatItem::Take),
        "drop" => return Ok(MatItem::Drop),
        "beaver" => {
            *cube *= 2;
            return Ok(MatItem::Beaver(*cube));
        }
        _ => {}
    }
    let bytes = value.as_bytes();
    let bad = || format!("{value:?} is not a move (two dice, then a pair of letters a step)");
    if bytes.len() < 2 || !bytes.len().is_multiple_of(2) {
        return Err(bad());
    }
    let die = |b: u8| b.is_ascii_digit().then(|| b - b'0');
    let dice = match (die(bytes[0]), die(bytes[1])) {
        (Some(a), Some(b)) => Dice::new(a, b).map_err(|e| format!("{value:?}: {e}"))?,
        _ => return Err(bad()),
    };
    let mut steps = Vec::new();
    for pair in bytes[2..].chunks(2) {
        let (Some(from), Some(to)) = (point(pair[0], mover), point(pair[1], mover)) else {
            return Err(bad());
        };
        steps.push(format!("{from}/{to}"));
    }
    let text = steps.join(" ");
    let moves = if text.is_empty() {
        Vec::new()
    } else {
        parse_play(&text).map_err(|e| format!("{value:?}: {e}"))?
    };
    Ok(MatItem::Roll { dice, moves, text })
}

/// `key:value` fields of `MI`.
fn match_info(root: &Node, key: &str) -> Option<u32> {
    root.get("MI")?.iter().find_map(|v| {
        let (k, n) = v.split_once(':')?;
        (k == key).then(|| n.trim().parse().ok()).flatten()
    })
}

/// The result `W+2` / `B+4R` as (winner, points).
fn result(value: &str) -> Option<(Color, u32)> {
    let (who, rest) = value.split_once('+')?;
    let winner = match who {
        "W" => Color::White,
        "B" => Color::Black,
        _ => return None,
    };
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    Some((winner, digits.parse().ok()?))
}

/// Reads a gnubg SGF file into the games of a [`MatSession`] (see the module docs).
pub fn read_sgf(text: &str) -> Result<MatSession, SgfError> {
    let trees = Reader {
        text: text.as_bytes(),
        at: 0,
        line: 1,
    }
    .games()?;
    let mut session = MatSession {
        length: 0,
        crawford: None,
        jacoby: None,
        beavers: None,
        games: Vec::new(),
    };
    let mut crawford_named = false;
    for (index, nodes) in trees.iter().enumerate() {
        let Some(root) = nodes.first() else { continue };
        let err = |line: usize, reason: String| SgfError { line, reason };
        if root.first("GM").is_some_and(|g| g.trim() != "6") {
            return Err(err(root.line, "not a backgammon game (GM is not 6)".into()));
        }
        let length = match_info(root, "length").unwrap_or(0);
        if index == 0 {
            session.length = length;
        }
        let rules = root.first("RU").unwrap_or("");
        if rules.contains("Crawford") {
            crawford_named = true;
        }
        // gnubg writes `Jacoby` when the rule is on and never writes beavers: the replay
        // allows beavers, and tries the Jacoby rule off then on when the file does not
        // name it (as for a .mat file).
        if length == 0 && rules.contains("Jacoby") {
            session.jacoby = Some(true);
        }
        let name = |prop: &str, c: Color| {
            root.first(prop)
                .map(str::to_string)
                .unwrap_or_else(|| format!("{c:?}"))
        };
        let mut game = MatGame {
            number: match_info(root, "game").map_or(index as u32 + 1, |g| g + 1),
            line: root.line,
            names: ByColor {
                white: name("PW", Color::White),
                black: name("PB", Color::Black),
            },
            score: ByColor {
                white: match_info(root, "ws").unwrap_or(0),
                black: match_info(root, "bs").unwrap_or(0),
            },
            entries: Vec::new(),
        };
        let mut cube = 1;
        for node in nodes {
            for setup in ["AB", "AW", "AE"] {
                if node.get(setup).is_some() {
                    return Err(err(
                        node.line,
                        "the file sets up a position (AB/AW/AE); only games played from the start are read"
                            .into(),
                    ));
                }
            }
            for (prop, player) in [("W", Color::White), ("B", Color::Black)] {
                if let Some(value) = node.first(prop) {
                    // gnubg writes a beaver as the doubled player's `double`.
                    let doubled = game.entries.last().is_some_and(|e| {
                        e.player != player && matches!(e.item, MatItem::Double(_))
                    });
                    let value = match value.trim() {
                        "double" if doubled => "beaver",
                        v => v,
                    };
                    let item =
                        item(value, player, &mut cube).map_err(|reason| err(node.line, reason))?;
                    game.entries.push(MatEntry {
                        line: node.line,
                        player,
                        item,
                    });
                }
            }
        }
        if let Some((winner, points)) = root.first("RE").and_then(result) {
            let line = nodes.last().map_or(root.line, |n| n.line);
            game.entries.push(MatEntry {
                line,
                player: winner,
                item: MatItem::Wins(points),
            });
        }
        session.games.push(game);
    }
    // gnubg names the Crawford rule whenever it is on, also when it imported a match played
    // without it: a match that names it is replayed with the rule and, failing that,
    // without (as a .mat file without its tag); one that never names it had the rule off.
    if session.length > 0 && !crawford_named {
        session.crawford = Some(false);
    }
    Ok(session)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::mat::replay_session;

    /// A 1-point match: White opens 3-1 and makes its 5-point, Black answers 6-4 with
    /// 8/2 6/2, White rolls 2-1 and resigns a single game without playing it.
    const SMALL: &str =
        "(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]PW[alice]PB[bob]RU[Crawford]RE[B+1]\n\
        ;W[31hefe]\n;B[64qwsw]\n;W[21]\n)";

    #[test]
    fn letters_name_points_from_whites_side() {
        assert_eq!(point(b'h', Color::White), Some(8));
        assert_eq!(point(b'h', Color::Black), Some(17));
        assert_eq!(point(b'q', Color::Black), Some(8));
        assert_eq!(point(b'y', Color::Black), Some(25));
        assert_eq!(point(b'z', Color::White), Some(0));
    }

    #[test]
    fn a_game_reads_into_entries_and_replays() {
        let s = read_sgf(SMALL).unwrap();
        assert_eq!(s.length, 1);
        // Named: replayed with the rule, then without if that fails.
        assert_eq!(s.crawford, None);
        let unnamed = read_sgf(&SMALL.replace("RU[Crawford]", "")).unwrap();
        assert_eq!(unnamed.crawford, Some(false));
        let g = &s.games[0];
        assert_eq!(g.names.white, "alice");
        assert_eq!(g.entries.len(), 4);
        match &g.entries[0].item {
            MatItem::Roll { text, .. } => assert_eq!(text, "8/5 6/5"),
            other => panic!("{other:?}"),
        }
        match &g.entries[1].item {
            MatItem::Roll { text, .. } => assert_eq!(text, "8/2 6/2"),
            other => panic!("{other:?}"),
        }
        assert_eq!(g.entries[3].item, MatItem::Wins(1));
        let replay = replay_session(&s).unwrap();
        assert!(replay.session.is_over());
    }

    #[test]
    fn broken_files_are_refused_with_their_line() {
        let e = read_sgf("(;FF[4]GM[6]\n;W[31hemf").unwrap_err();
        assert!(e.to_string().contains("]"), "{e}");
        let e = read_sgf("(;GM[6]\n;W[9x]\n)").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(read_sgf("hello").is_err());
        assert!(read_sgf("(;GM[1])").is_err());
        let e = read_sgf("(;GM[6]\n;AB[aa])").unwrap_err();
        assert!(e.reason.contains("sets up a position"));
    }

    #[test]
    fn escapes_and_variations_do_not_derail_the_main_line() {
        let s = read_sgf("(;GM[6]MI[length:0]C[a \\] bracket]\n;W[31hefe](;B[64qwsw])(;B[21]))")
            .unwrap();
        assert_eq!(s.games[0].entries.len(), 2);
    }
}
