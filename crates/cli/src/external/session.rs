//! One decision for gnubg: a [`FibsBoard`] becomes a Tabula session at the same point of the
//! game, seen from the player to decide (White here), the bot chooses, and the choice is
//! written as gnubg reads it: `roll`, `double`, `take`, `drop`, `beaver`, or the move in
//! gnubg's notation (`8/3 6/3`; the empty line when no move is possible).

use super::fibs_board::{FibsBoard, FibsBoardError};
use std::fmt;
use tabula_ai::backgammon::BackgammonBot;
use tabula_core::{ByColor, Color, Dice};
use tabula_tables::backgammon::{Action, Backgammon, Cube, GameState, Mode, Options};
use tabula_tables::notation::move_text::format_move;
use tabula_tables::MoveGen;

/// What gnubg asks for, read from the board line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Request {
    /// Before rolling: roll or double.
    DoubleOrRoll,
    /// A double waits for an answer.
    TakeOrDrop,
    /// Dice to play.
    Move(Dice),
}

/// Why no answer could be computed for a well-formed line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnswerError {
    /// The line itself is unusable.
    Board(FibsBoardError),
    /// The line describes a state Tabula cannot set up (a double it does not allow...).
    Unplayable(String),
}

impl fmt::Display for AnswerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnswerError::Board(e) => write!(f, "{e}"),
            AnswerError::Unplayable(why) => f.write_str(why),
        }
    }
}

impl From<FibsBoardError> for AnswerError {
    fn from(e: FibsBoardError) -> Self {
        AnswerError::Board(e)
    }
}

/// The decision the line asks for.
pub fn request(board: &FibsBoard) -> Request {
    if board.was_doubled != 0 {
        return Request::TakeOrDrop;
    }
    match board.rolled() {
        Some((a, b)) => Request::Move(Dice::new(a, b).expect("dice checked by the parser")),
        None => Request::DoubleOrRoll,
    }
}

/// The session options the line implies: a match with the Crawford rule, or money with
/// gnubg's defaults (beavers and the Jacoby rule).
fn options(board: &FibsBoard) -> Result<Options, AnswerError> {
    if board.is_money() {
        return Ok(Options::money());
    }
    Options::match_to(board.match_length).map_err(|e| AnswerError::Unplayable(e.to_string()))
}

/// The cube from "You"'s side (White): its owner follows from the may-double flags.
fn cube(board: &FibsBoard) -> Result<Cube, AnswerError> {
    let owner = match (board.may_double, board.opponent_may_double) {
        (true, false) => Some(Color::White),
        (false, true) => Some(Color::Black),
        _ => None,
    };
    Cube::new(board.cube, owner)
        .ok_or_else(|| AnswerError::Unplayable(format!("no cube of value {}", board.cube)))
}

/// The line with "You"'s fields made the decider's: gnubg 1.07 writes seat 0's name and
/// score first at the external player's moves and roll decisions, seat 1's at its take
/// decisions. Tabula sits in seat 1 (`set player 1 external ...`), so the scores are swapped
/// except at take decisions.
pub fn from_seat_one(mut board: FibsBoard) -> FibsBoard {
    if request(&board) != Request::TakeOrDrop {
        std::mem::swap(&mut board.score, &mut board.opponent_score);
        std::mem::swap(&mut board.player, &mut board.opponent);
    }
    board
}

/// A Tabula session at the point of the game `board` describes, White to decide.
pub fn session(board: &FibsBoard) -> Result<Backgammon, AnswerError> {
    let options = options(board)?;
    let position = board.position()?;
    let cube = cube(board)?;
    let cube_in_play = !board.is_crawford();
    let game = match request(board) {
        Request::Move(dice) => GameState::from_setup(
            options,
            position,
            Color::White,
            cube,
            cube_in_play,
            Some(dice),
        ),
        Request::DoubleOrRoll => {
            GameState::from_setup(options, position, Color::White, cube, cube_in_play, None)
        }
        Request::TakeOrDrop => {
            // Replay the double: Black, on turn before it, offers the cube. After a beaver
            // gnubg may beaver back, offering a cube the taker owns; Tabula's rules have no
            // such step, so the offer is replayed as Black doubling a cube it owns (the
            // stakes, which are all the answer depends on, are the same).
            let doubler_cube = if board.cube == 1 {
                cube
            } else {
                Cube::new(board.cube, Some(Color::Black)).unwrap_or(cube)
            };
            let mut game = GameState::from_setup(
                options,
                position.flip(),
                Color::Black,
                doubler_cube,
                cube_in_play,
                None,
            );
            game.apply(&Action::Double, &mut MoveGen::default())
                .map_err(|e| AnswerError::Unplayable(format!("cannot replay the double: {e}")))?;
            game
        }
    };
    let score = ByColor {
        white: board.score,
        black: board.opponent_score,
    };
    // The Crawford game is past when someone is one away and this game is not it.
    let crawford_played = match options.mode {
        Mode::Match { length, .. } => {
            let one_away = |s: u32| s + 1 == u32::from(length);
            !board.is_crawford() && (one_away(board.score) || one_away(board.opponent_score))
        }
        Mode::Money { .. } => false,
    };
    Backgammon::from_game(options, game, score, crawford_played)
        .map_err(|e| AnswerError::Unplayable(e.to_string()))
}

/// The bot's answer to `board`, as the text to send (without the newline).
pub fn answer(board: &FibsBoard, bot: &mut BackgammonBot) -> Result<String, AnswerError> {
    let request = request(board);
    if let Request::Move(dice) = request {
        // gnubg asks even when the dice cannot be played; the empty move is the answer.
        if board.position()?.legal_plays(dice).is_empty() {
            return Ok(String::new());
        }
    }
    let session = session(board)?;
    if !matches!(session.game().status(), tabula_core::Status::Decide { .. }) {
        // Tabula sees no decision (a cube it deems dead): roll, the one safe answer there.
        return match request {
            Request::DoubleOrRoll => Ok("roll".to_string()),
            _ => Err(AnswerError::Unplayable(
                "Tabula sees no decision in this position".to_string(),
            )),
        };
    }
    let action = bot.choose(&session);
    text(board, request, action)
}

/// The text gnubg reads for `action`, checked against the request.
fn text(board: &FibsBoard, request: Request, action: Action) -> Result<String, AnswerError> {
    let refused = |what: &str| {
        Err(AnswerError::Unplayable(format!(
            "the bot answered {what} to {request:?}"
        )))
    };
    match (request, action) {
        (Request::DoubleOrRoll, Action::Roll) => Ok("roll".into()),
        (Request::DoubleOrRoll, Action::Double) => Ok("double".into()),
        (Request::TakeOrDrop, Action::Take) => Ok("take".into()),
        (Request::TakeOrDrop, Action::Drop) => Ok("drop".into()),
        // A beaver back (the taker already owns the cube) is answered with a take: one
        // beaver per side keeps the exchange within gnubg's limit on beavers.
        (Request::TakeOrDrop, Action::Beaver) if board.may_double && !board.opponent_may_double => {
            Ok("take".into())
        }
        (Request::TakeOrDrop, Action::Beaver) => Ok("beaver".into()),
        (Request::Move(dice), Action::Move(after)) => {
            let before = board.position()?;
            format_move(&before, &after, dice)
                .ok_or_else(|| AnswerError::Unplayable("the bot's move is not legal".into()))
        }
        // gnubg's external protocol has no way to offer a resignation to it that Tabula
        // could rely on; playing on is always legal.
        (Request::DoubleOrRoll, Action::Resign(_)) => Ok("roll".into()),
        (Request::TakeOrDrop, Action::Resign(_)) => Ok("take".into()),
        (_, other) => refused(&other.to_string()),
    }
}

/// What to send when no answer could be computed: gnubg prints a line starting with
/// `Error: ` and stops the game rather than guessing, so nothing illegal is ever played.
pub fn error_reply(error: &AnswerError) -> String {
    format!("Error: {error}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_ai::Level;

    const ROLLED: &str = "board:gnubg:root:3:0:0:0:-1:0:0:0:0:5:0:3:0:0:-1:-5:5:0:0:0:\
        -3:0:-5:0:0:0:0:2:0:1:2:5:2:5:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1";

    fn answer_to(line: &str) -> Result<String, AnswerError> {
        let board = from_seat_one(FibsBoard::parse(line).unwrap());
        answer(&board, &mut BackgammonBot::new(Level::Medium, 1))
    }

    #[test]
    fn a_move_is_legal_gnubg_text() {
        let text = answer_to(ROLLED).unwrap();
        let board = FibsBoard::parse(ROLLED).unwrap();
        let before = board.position().unwrap();
        let legal: Vec<String> = before
            .legal_plays(Dice::new(5, 2).unwrap())
            .iter()
            .map(|(play, _)| tabula_tables::notation::move_text::format_play(play))
            .collect();
        assert!(legal.contains(&text), "{text} not in {legal:?}");
    }

    #[test]
    fn before_rolling_the_answer_is_roll_or_double() {
        let line = ROLLED.replacen(":1:2:5:2:5:", ":1:0:0:0:0:", 1);
        let text = answer_to(&line).unwrap();
        assert!(text == "roll" || text == "double", "{text}");
    }

    #[test]
    fn a_double_gets_take_or_drop() {
        // The same board, a 2-cube offered by the opponent.
        let line = ROLLED.replacen(":1:2:5:2:5:1:1:1:0:", ":1:0:0:0:0:1:1:1:-1:", 1);
        let text = answer_to(&line).unwrap();
        assert!(
            ["take", "drop", "beaver"].contains(&text.as_str()),
            "{text}"
        );
    }

    /// Regression: gnubg beavers back after Tabula's beaver, offering an 8-cube that Tabula
    /// owns; the answer is take or drop, never another beaver.
    #[test]
    fn a_beaver_back_gets_take_or_drop() {
        let line = "board:tabula:gnubg:0:0:0:-1:5:2:3:2:1:0:0:0:0:0:0:-2:0:0:0:0:-2:-3:-4:0:-3:\
            0:2:0:0:-1:0:0:0:0:8:1:0:1:1:-1:0:25:0:0:0:0:0:0:0:1";
        let text = answer_to(line).unwrap();
        assert!(["take", "drop"].contains(&text.as_str()), "{text}");
    }

    /// Regression: 4-4 with both back checkers blocked; gnubg still asks.
    #[test]
    fn no_legal_move_is_the_empty_answer() {
        let line = "board:gnubg:root:3:0:0:0:5:4:2:0:0:0:0:0:0:0:0:0:0:0:0:0:0:-2:-2:-3:-4:-4:2:\
            2:0:1:4:4:4:4:2:1:0:0:1:-1:0:25:0:0:0:0:0:0:0:1";
        assert_eq!(answer_to(line).unwrap(), "");
    }

    #[test]
    fn the_crawford_game_has_no_cube() {
        let line = ROLLED
            .replacen(":3:0:0:", ":3:2:0:", 1)
            .replacen(":1:2:5:2:5:", ":1:0:0:0:0:", 1)
            .replacen(":0:0:0:0:0:0:0:1", ":0:0:0:0:0:0:0:0", 1);
        assert_eq!(answer_to(&line).unwrap(), "roll");
    }
}
