//! What the user names on the command line: a game id, a position in one of the notations,
//! and dice. Every failure is an [`InputError`](crate::error::InputError) with a one-line
//! reason.
//!
//! Backgammon positions are gnubg or XGID text ([`Setup`]); Never-Finishing positions are
//! Tabula's tables notation ([`nf_position`]), which alone can record trapped checkers;
//! Grasshopper (Halma) positions are the halma position notation ([`halma_position`]);
//! Grasshopper (the dice-free backgammon variant) positions are its own position text
//! ([`grasshopper_position`]).
//!
//! Colours: a bare Position ID does not say who is on roll, so White is assumed. In gnubg's
//! Match ID, player 1 (the user, drawn at the bottom by gnubg) is White and player 0 is
//! Black; in an XGID the bottom player is White and the top player Black.

use crate::error::bad_input;
use anyhow::Result;
use tabula_core::{ByColor, Color, Dice, GameId};
use tabula_games::backgammon::drawing::{BoardView, CubeView, ScoreView};
use tabula_grasshopper::notation::parse_position as parse_grasshopper;
use tabula_grasshopper::{Checkers, Position as GrasshopperPosition};
use tabula_halma::{BoardSize, Position as HalmaPosition};
use tabula_tables::never_finishing::start_position;
use tabula_tables::notation::xgid::{CubeOwner, Side, XgidDice};
use tabula_tables::notation::{MatchId, TablesPosition, Xgid};
use tabula_tables::Position;

/// The checker count after `--checkers` (default 14), refused unless even and 2 to 14.
pub fn grasshopper_checkers(n: Option<u32>) -> Result<Checkers> {
    match n {
        None => Ok(Checkers::default()),
        Some(n) => Checkers::new(n).map_err(|e| bad_input(format!("bad --checkers {n}: {e}"))),
    }
}

/// Refuses `--checkers` for the games that have no checker count to choose.
pub fn refuse_checkers(checkers: Option<u32>, game: GameId) -> Result<()> {
    match checkers {
        Some(_) => Err(bad_input(format!(
            "--checkers is a grasshopper option: {game} has no checker count to choose"
        ))),
        None => Ok(()),
    }
}

/// A Grasshopper position: `start` with `checkers` each (default 14), or the position text
/// (`....../....../....../...... w 14-14 0-0 - 14`, one quoted argument). A `--checkers`
/// that contradicts the text's own count is refused rather than silently ignored.
pub fn grasshopper_position(text: &str, checkers: Option<u32>) -> Result<GrasshopperPosition> {
    let text = text.trim();
    let n = grasshopper_checkers(checkers)?;
    if text.eq_ignore_ascii_case("start") {
        return Ok(GrasshopperPosition::start(n));
    }
    let position =
        parse_grasshopper(text).map_err(|e| bad_input(format!("bad position {text:?}: {e}")))?;
    match checkers {
        Some(c) if c != u32::from(position.checkers().get()) => Err(bad_input(format!(
            "--checkers {c} contradicts the position, which has {} checkers each",
            position.checkers()
        ))),
        _ => Ok(position),
    }
}

/// A Never-Finishing position: `start` (each side's fifteen on its own 24-point, White to
/// move) or the tables notation (`15b/22/15w:0:0:0:0:w`).
pub fn nf_position(text: &str) -> Result<TablesPosition> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("start") {
        return Ok(TablesPosition::new(start_position(), Color::White));
    }
    text.parse::<TablesPosition>()
        .map_err(|e| bad_input(format!("bad position {text:?}: {e}")))
}

/// A board size as typed after `--size`: `8`, `10`, `8x8` or `10x10`.
pub fn halma_size(text: &str) -> Result<BoardSize> {
    text.parse::<BoardSize>()
        .map_err(|e| bad_input(format!("bad --size {text:?}: {e}")))
}

/// A Grasshopper (Halma) position: `start` on the board `size` names (default 8x8), or the
/// halma position notation (`8:4bbbb/5bbb/6bb/7b/w7/ww6/www5/wwww4:w:0`). A `--size` that
/// contradicts the notation's own size is refused rather than silently ignored.
pub fn halma_position(text: &str, size: Option<&str>) -> Result<HalmaPosition> {
    let text = text.trim();
    let size = size.map(halma_size).transpose()?;
    if text.eq_ignore_ascii_case("start") {
        return Ok(tabula_halma::start(size.unwrap_or(BoardSize::Eight)));
    }
    let position = text
        .parse::<HalmaPosition>()
        .map_err(|e| bad_input(format!("bad position {text:?}: {e}")))?;
    match size {
        Some(size) if size != position.size() => Err(bad_input(format!(
            "--size {size} contradicts the position, which is on the {n}x{n} board",
            n = position.size()
        ))),
        _ => Ok(position),
    }
}

/// Dice as typed: `6-5`, `65`, `5-6`, ...
pub fn parse_dice(text: &str) -> Result<Dice> {
    text.parse::<Dice>()
        .map_err(|e| bad_input(format!("bad dice {text:?}: {e}")))
}

/// The notation a position was given in; results are written in the same one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notation {
    /// The word `start` or a gnubg Position ID.
    PositionId,
    /// gnubg's `PositionID:MatchID`.
    GnubgId(MatchId),
    /// An XGID.
    Xgid(Xgid),
}

/// A position named on the command line, with whatever else its notation records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// How it was written.
    pub notation: Notation,
    /// The board, seen from the player on roll.
    pub board: Position,
    /// The player on roll.
    pub on_roll: Color,
    /// The dice to play, when the notation records them.
    pub dice: Option<Dice>,
    /// The cube, when the notation records it.
    pub cube: Option<CubeView>,
    /// The score, when the notation records it.
    pub score: Option<ScoreView>,
    /// A pending cube or resignation decision, in words.
    pub status: Option<String>,
}

/// gnubg's player number as a colour.
fn gnubg_color(player: u8) -> Color {
    if player == 1 {
        Color::White
    } else {
        Color::Black
    }
}

fn xgid_color(side: Side) -> Color {
    match side {
        Side::Bottom => Color::White,
        Side::Top => Color::Black,
    }
}

/// "White" or "Black" (the games' terminal words).
pub use tabula_games::terminal::capitalized;

fn resign_kind(level: u8) -> &'static str {
    match level {
        1 => "a single game",
        2 => "a gammon",
        _ => "a backgammon",
    }
}

impl Setup {
    /// Reads `start`, a gnubg Position ID, `PositionID:MatchID`, or an XGID (with or without
    /// `XGID=`).
    pub fn parse(text: &str) -> Result<Setup> {
        let text = text.trim();
        let bad = |e: &dyn std::fmt::Display| bad_input(format!("bad position {text:?}: {e}"));
        if text.eq_ignore_ascii_case("start") {
            return Ok(Setup::from_board(Position::START));
        }
        let is_xgid = text
            .get(..5)
            .is_some_and(|p| p.eq_ignore_ascii_case("XGID="))
            || text.matches(':').count() > 1;
        if is_xgid {
            let xgid = Xgid::parse(text).map_err(|e| bad(&e))?;
            return Ok(Setup::from_xgid(xgid));
        }
        if let Some((pid, mid)) = text.split_once(':') {
            let board = Position::from_position_id(pid).map_err(|e| bad(&e))?;
            let match_id = MatchId::decode(mid).map_err(|e| bad(&e))?;
            return Ok(Setup::from_gnubg(board, match_id));
        }
        let board = Position::from_position_id(text).map_err(|e| bad(&e))?;
        Ok(Setup::from_board(board))
    }

    fn from_board(board: Position) -> Setup {
        Setup {
            notation: Notation::PositionId,
            board,
            on_roll: Color::White,
            dice: None,
            cube: None,
            score: None,
            status: None,
        }
    }

    fn from_gnubg(board: Position, id: MatchId) -> Setup {
        let on_roll = gnubg_color(id.on_roll);
        let value = id.cube_value();
        let cube = if id.crawford {
            CubeView::Crawford
        } else {
            match id.cube_owner {
                Some(p) => CubeView::Owned(value, gnubg_color(p)),
                None => CubeView::Centred(value),
            }
        };
        let status = if id.game_state.is_finished() {
            Some("The game is over".to_string())
        } else if id.double_offered {
            Some(format!(
                "{} doubles to {}: {} to take or drop",
                capitalized(on_roll),
                value * 2,
                capitalized(!on_roll)
            ))
        } else if id.resignation > 0 {
            Some(format!(
                "{} offers to resign {}",
                capitalized(!gnubg_color(id.turn)),
                resign_kind(id.resignation)
            ))
        } else {
            None
        };
        Setup {
            board,
            on_roll,
            dice: id.dice.and_then(|(a, b)| Dice::new(a, b).ok()),
            cube: Some(cube),
            score: Some(ScoreView {
                points: ByColor {
                    white: id.score[1].into(),
                    black: id.score[0].into(),
                },
                match_length: (id.match_length > 0).then_some(id.match_length.into()),
            }),
            status,
            notation: Notation::GnubgId(id),
        }
    }

    fn from_xgid(x: Xgid) -> Setup {
        let on_roll = xgid_color(x.on_roll);
        let value = 1u32 << x.cube_log2.min(15);
        let cube = if x.crawford && x.match_length > 0 {
            CubeView::Crawford
        } else {
            match x.cube_owner {
                CubeOwner::Centred => CubeView::Centred(value),
                CubeOwner::OnRoll => CubeView::Owned(value, on_roll),
                CubeOwner::Opponent => CubeView::Owned(value, !on_roll),
            }
        };
        let (dice, status) = match x.dice {
            XgidDice::Rolled(roll) => (Some(roll.dice()), None),
            XgidDice::ToRoll => (None, None),
            XgidDice::Doubled => (
                None,
                Some(format!(
                    "{} doubles to {}: {} to take or drop",
                    capitalized(on_roll),
                    value * 2,
                    capitalized(!on_roll)
                )),
            ),
            XgidDice::Beavered | XgidDice::Raccooned => (
                None,
                Some(format!("{} doubled and was beavered", capitalized(on_roll))),
            ),
        };
        let mut points = ByColor::default();
        points[on_roll] = u32::from(x.score[0]);
        points[!on_roll] = u32::from(x.score[1]);
        Setup {
            board: x.position,
            on_roll,
            dice,
            cube: Some(cube),
            score: Some(ScoreView {
                points,
                match_length: (x.match_length > 0).then_some(x.match_length.into()),
            }),
            status,
            notation: Notation::Xgid(x),
        }
    }

    /// The position after the player on roll played to `after` (seen from that player), in
    /// the input's notation, with the other player on roll and no dice.
    pub fn encode_after(&self, after: &Position) -> String {
        let position_id = after.flip().position_id();
        match &self.notation {
            Notation::PositionId => position_id,
            Notation::GnubgId(id) => {
                let mut next = *id;
                next.on_roll = 1 - id.on_roll.min(1);
                next.turn = next.on_roll;
                next.dice = None;
                next.double_offered = false;
                next.resignation = 0;
                format!("{position_id}:{}", next.encode())
            }
            Notation::Xgid(x) => {
                let next = Xgid {
                    position: after.flip(),
                    on_roll: match x.on_roll {
                        Side::Bottom => Side::Top,
                        Side::Top => Side::Bottom,
                    },
                    cube_owner: match x.cube_owner {
                        CubeOwner::Centred => CubeOwner::Centred,
                        CubeOwner::OnRoll => CubeOwner::Opponent,
                        CubeOwner::Opponent => CubeOwner::OnRoll,
                    },
                    dice: XgidDice::ToRoll,
                    score: [x.score[1], x.score[0]],
                    ..*x
                };
                next.encode()
            }
        }
    }

    /// The identifiers of this setup, for printing under the board.
    pub fn ids(&self) -> String {
        let position_id = self.board.position_id();
        match &self.notation {
            Notation::PositionId => format!("Position ID: {position_id}"),
            Notation::GnubgId(id) => {
                format!("Position ID: {position_id}  Match ID: {}", id.encode())
            }
            Notation::Xgid(x) => format!("{}\nPosition ID: {position_id}", x.encode()),
        }
    }

    /// The drawing of this setup.
    pub fn view(&self) -> BoardView {
        let mut view = BoardView::new(self.board, self.on_roll);
        view.cube = self.cube;
        view.score = self.score;
        view.dice = self.dice;
        view.status = self.status.clone();
        view
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_is_the_start_position_white_on_roll() {
        let s = Setup::parse("start").unwrap();
        assert_eq!(s.board, Position::START);
        assert_eq!(s.on_roll, Color::White);
        assert_eq!(s.encode_after(&Position::START), "4HPwATDgc/ABMA");
    }

    #[test]
    fn gnubg_ids_give_cube_score_and_dice() {
        // From gnubg's fixtures: player 1 on roll, 6-5... whatever it holds, it round-trips.
        let s = Setup::parse("4HPwATDgc/ABMA:cAkAAAAAAAAA").unwrap();
        assert!(matches!(s.notation, Notation::GnubgId(_)));
        assert!(s.cube.is_some() && s.score.is_some());
        let Notation::GnubgId(id) = &s.notation else {
            unreachable!()
        };
        assert_eq!(id.encode(), "cAkAAAAAAAAA");
    }

    #[test]
    fn xgids_parse_with_or_without_prefix_and_swap_sides_after_a_move() {
        let text = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10";
        let with = Setup::parse(text).unwrap();
        let without = Setup::parse(&text[5..]).unwrap();
        assert_eq!(with, without);
        assert_eq!(with.on_roll, Color::White);
        assert_eq!(with.dice, Some(Dice::new(5, 2).unwrap()));
        let after = with.board.legal_positions(Dice::new(5, 2).unwrap())[0];
        let next = Setup::parse(&with.encode_after(&after)).unwrap();
        assert_eq!(next.on_roll, Color::Black);
        assert_eq!(next.dice, None);
        assert_eq!(next.board, after.flip());
    }

    #[test]
    fn never_finishing_start_is_fifteen_each_on_the_24_point() {
        let start = nf_position("START").unwrap();
        assert_eq!(start.to_move, Color::White);
        assert_eq!(start.position.mover_on(24), 15);
        assert_eq!(start.position.opponent_on(1), 15);
        assert_eq!(start.to_string(), "15b/22/15w:0:0:0:0:w");
        assert_eq!(nf_position(&start.to_string()).unwrap(), start);
    }

    #[test]
    fn never_finishing_positions_are_the_tables_notation() {
        assert!(nf_position("4HPwATDgc/ABMA")
            .unwrap_err()
            .to_string()
            .starts_with("bad position"));
    }

    #[test]
    fn halma_start_takes_the_size_and_notation_must_agree_with_it() {
        let eight = halma_position("start", None).unwrap();
        assert_eq!(eight.size(), BoardSize::Eight);
        let ten = halma_position("START", Some("10x10")).unwrap();
        assert_eq!(ten.size(), BoardSize::Ten);
        let text = eight.to_string();
        assert_eq!(halma_position(&text, Some("8")).unwrap(), eight);
        let err = halma_position(&text, Some("10")).unwrap_err();
        assert!(err.to_string().contains("contradicts"), "{err}");
        let err = halma_position("start", Some("9")).unwrap_err();
        assert!(err.to_string().contains("8x8 or 10x10"), "{err}");
        let err = halma_position("8:bogus:w", None).unwrap_err();
        assert!(err.to_string().starts_with("bad position"), "{err}");
    }

    #[test]
    fn grasshopper_start_takes_the_checker_count_and_a_text_must_agree_with_it() {
        let start = grasshopper_position("START", None).unwrap();
        assert_eq!(
            start.to_string(),
            "....../....../....../...... w 14-14 0-0 - 14"
        );
        let small = grasshopper_position("start", Some(4)).unwrap();
        assert_eq!(small.hand(Color::Black), 4);
        let text = "..w.../b...../....../...... b 5-5 0-0 - 6";
        assert_eq!(
            grasshopper_position(text, Some(6)).unwrap().to_string(),
            text
        );
        let err = grasshopper_position(text, Some(4)).unwrap_err();
        assert!(err.to_string().contains("contradicts"), "{err}");
        for n in [0, 3, 16] {
            let err = grasshopper_position("start", Some(n)).unwrap_err();
            assert!(err.to_string().starts_with("bad --checkers"), "{err}");
        }
        let err = grasshopper_position("w.b... w", None).unwrap_err();
        assert!(err.to_string().starts_with("bad position"), "{err}");
    }

    #[test]
    fn malformed_positions_say_why() {
        for bad in ["xyz", "4HPwATDgc/ABMA:nonsense", "XGID=abc", ""] {
            let err = Setup::parse(bad).unwrap_err();
            assert!(err.to_string().starts_with("bad position"), "{err}");
        }
    }
}
