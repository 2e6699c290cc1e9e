//! A backgammon session set up from a position's notation, for studying a pasted position
//! (the browser's analysis board): `start`, a gnubg Position ID, gnubg's
//! `PositionID:MatchID`, or an XGID.
//!
//! What each notation leaves open is decided as `tabula hint` decides it (docs/notation.md,
//! "Positions for study"):
//!
//! - A bare Position ID (or `start`) is money play, White on roll to roll, the cube centred
//!   at 1, beavers and the Jacoby rule on.
//! - An XGID or Match ID with a match length is a match to that length with the Crawford
//!   rule. The Crawford game is the one the notation marks; a later game with a player
//!   1-away is post-Crawford.
//! - A position where a double is pending (XGID `D`, `B`, `R`; a Match ID's double offered)
//!   is set up before the double, the doubler to roll: the cube decision then covers both
//!   the double and its answer.
//! - A finished game or match is refused.

use super::match_id::MatchId;
use super::xgid::{CubeOwner, Side, Xgid, XgidDice};
use crate::backgammon::{Backgammon, Cube, GameState, Mode, Options};
use crate::Position;
use tabula_core::{ByColor, Color, Dice};
use thiserror::Error;

/// Why a position cannot be set up.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SetupError {
    /// The text is none of the notations, or one of them with a bad field.
    #[error("bad position {text:?}: {reason}")]
    Notation {
        /// The text given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The game or match in the position is over.
    #[error("the game in this position is over: nothing to study")]
    Over,
}

/// Sets up the session a position's notation describes (see the module docs).
pub fn session_from_notation(text: &str) -> Result<Backgammon, SetupError> {
    let text = text.trim();
    let bad = |reason: &dyn std::fmt::Display| SetupError::Notation {
        text: text.chars().take(80).collect(),
        reason: reason.to_string(),
    };
    let setup = if text.eq_ignore_ascii_case("start") {
        Setup::money(Position::START)
    } else if text
        .get(..5)
        .is_some_and(|p| p.eq_ignore_ascii_case("XGID="))
        || text.matches(':').count() > 1
    {
        Setup::from_xgid(&Xgid::parse(text).map_err(|e| bad(&e))?)
    } else if let Some((pid, mid)) = text.split_once(':') {
        let board = Position::from_position_id(pid).map_err(|e| bad(&e))?;
        let id = MatchId::decode(mid).map_err(|e| bad(&e))?;
        if id.game_state.is_finished() {
            return Err(SetupError::Over);
        }
        Setup::from_gnubg(board, &id)
    } else {
        Setup::money(Position::from_position_id(text).map_err(|e| bad(&e))?)
    };
    setup.session().map_err(|e| match e {
        SetupError::Notation { reason, .. } => bad(&reason),
        other => other,
    })
}

/// What a notation records, in the rules' terms.
struct Setup {
    board: Position,
    on_roll: Color,
    dice: Option<Dice>,
    cube_value: u32,
    cube_owner: Option<Color>,
    crawford_game: bool,
    match_length: u32,
    score: ByColor<u32>,
    jacoby: bool,
    beavers: bool,
}

fn gnubg_color(player: u8) -> Color {
    if player == 1 {
        Color::White
    } else {
        Color::Black
    }
}

impl Setup {
    fn money(board: Position) -> Setup {
        Setup {
            board,
            on_roll: Color::White,
            dice: None,
            cube_value: 1,
            cube_owner: None,
            crawford_game: false,
            match_length: 0,
            score: ByColor::default(),
            jacoby: true,
            beavers: true,
        }
    }

    fn from_xgid(x: &Xgid) -> Setup {
        let on_roll = match x.on_roll {
            Side::Bottom => Color::White,
            Side::Top => Color::Black,
        };
        let mut score = ByColor::default();
        score[on_roll] = u32::from(x.score[0]);
        score[!on_roll] = u32::from(x.score[1]);
        Setup {
            board: x.position,
            on_roll,
            dice: match x.dice {
                XgidDice::Rolled(roll) => Some(roll.dice()),
                _ => None,
            },
            cube_value: 1u32 << x.cube_log2.min(15),
            cube_owner: match x.cube_owner {
                CubeOwner::Centred => None,
                CubeOwner::OnRoll => Some(on_roll),
                CubeOwner::Opponent => Some(!on_roll),
            },
            crawford_game: x.crawford && x.match_length > 0,
            match_length: u32::from(x.match_length),
            score,
            jacoby: x.jacoby,
            beavers: x.beavers,
        }
    }

    fn from_gnubg(board: Position, id: &MatchId) -> Setup {
        Setup {
            board,
            on_roll: gnubg_color(id.on_roll),
            dice: id.dice.and_then(|(a, b)| Dice::new(a, b).ok()),
            cube_value: id.cube_value(),
            cube_owner: id.cube_owner.map(gnubg_color),
            crawford_game: id.crawford && id.match_length > 0,
            match_length: u32::from(id.match_length),
            score: ByColor {
                white: id.score[1].into(),
                black: id.score[0].into(),
            },
            jacoby: id.jacoby,
            beavers: true,
        }
    }

    fn session(&self) -> Result<Backgammon, SetupError> {
        let notation = |reason: String| SetupError::Notation {
            text: String::new(),
            reason,
        };
        if self.board.bore_off_end(true).is_some() {
            return Err(SetupError::Over);
        }
        let options = if self.match_length > 0 {
            let options =
                Options::match_to(self.match_length).map_err(|e| notation(e.to_string()))?;
            if Color::ALL
                .iter()
                .any(|&c| self.score[c] >= self.match_length)
            {
                return Err(SetupError::Over);
            }
            options
        } else {
            Options {
                mode: Mode::Money {
                    beavers: self.beavers,
                    jacoby: self.jacoby,
                    automatic_doubles: 0,
                    games: None,
                },
                bar_quadruple: false,
            }
        };
        let cube = Cube::new(self.cube_value, self.cube_owner)
            .ok_or_else(|| notation(format!("{} is not a cube value", self.cube_value)))?;
        // The Crawford game has been played once it is on, or once a player is 1-away
        // outside it (post-Crawford).
        let one_away = Color::ALL
            .iter()
            .any(|&c| self.score[c] + 1 == self.match_length);
        let crawford_played = self.crawford_game || (self.match_length > 0 && one_away);
        let game = GameState::from_setup(
            options,
            self.board,
            self.on_roll,
            cube,
            !self.crawford_game,
            self.dice,
        );
        Backgammon::from_game(options, game, self.score, crawford_played)
            .map_err(|e| notation(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::{Decision, Game, Status};

    #[test]
    fn start_is_money_with_white_to_roll() {
        let s = session_from_notation("start").unwrap();
        assert!(matches!(s.options().mode, Mode::Money { jacoby: true, .. }));
        assert_eq!(
            s.status(),
            Status::Decide {
                player: Color::White,
                decision: Decision::DoubleOrRoll
            }
        );
        assert_eq!(s.game().board(), Position::START);
    }

    #[test]
    fn an_xgid_gives_its_dice_score_and_cube() {
        // Black (top, lower case) on roll with 3-1 at 2-4 in a 7-point match, cube 2 Black's.
        let x = "XGID=-b----E-C---eE---c-e----B-:1:-1:-1:31:4:2:0:7:10";
        let s = session_from_notation(x).unwrap();
        assert_eq!(s.options().match_length(), Some(7));
        assert_eq!(s.score().black, 2);
        assert_eq!(s.score().white, 4);
        assert_eq!(s.game().cube().value(), 2);
        assert_eq!(s.game().cube().owner(), Some(Color::Black));
        assert_eq!(
            s.status(),
            Status::Decide {
                player: Color::Black,
                decision: Decision::Move
            }
        );
    }

    #[test]
    fn the_crawford_game_has_no_cube() {
        let s =
            session_from_notation("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:6:2:1:7:10").unwrap();
        assert!(s.is_crawford_game());
    }

    #[test]
    fn bad_and_finished_positions_are_refused() {
        assert!(matches!(
            session_from_notation("not a position"),
            Err(SetupError::Notation { .. })
        ));
        // A score past the match length.
        let err = session_from_notation("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:7:2:0:7:10")
            .unwrap_err();
        assert!(err.to_string().contains("impossible"), "{err}");
    }
}
