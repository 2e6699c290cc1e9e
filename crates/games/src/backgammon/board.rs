//! The board of the two tables games (backgammon and Never-Finishing) as clients draw it,
//! shared by both faces and by the server's study pages, and the finished games of their
//! sessions read from the session's log.

use crate::face::Finished;
use serde_json::{json, Value};
use tabula_core::{ByColor, Color, Outcome};
use tabula_tables::Position;

/// The board as White sees it, as the clients draw it: `points[i]` is White's point `i + 1`,
/// positive for White's checkers and negative for Black's.
pub fn board_json(white_view: &Position) -> Value {
    let pips = white_view.pips();
    let trapped: Vec<usize> = (1..=24).filter(|&i| white_view.is_trapped(i)).collect();
    json!({
        "points": &pips[1..=24],
        "bar": {"white": pips[25], "black": -pips[0]},
        "off": {"white": white_view.mover_off(), "black": white_view.opponent_off()},
        "pips": {"white": white_view.mover_pips(), "black": white_view.opponent_pips()},
        "trapped": trapped,
    })
}

/// A score as the views give it: `{"white", "black"}`.
pub fn score_json(score: ByColor<u32>) -> Value {
    json!({"white": score.white, "black": score.black})
}

/// The board as White sees it after `player` played to `after` (the board from the mover's
/// side, as a move action holds it).
pub fn white_view(player: Color, after: Position) -> Position {
    match player {
        Color::White => after,
        Color::Black => after.flip(),
    }
}

/// What a tables session's log says that matters to its finished games.
pub(crate) enum Logged {
    /// Game number N starts.
    Start(u32),
    /// A player moved to this board (seen from the mover).
    Moved(Color, Position),
    /// The game ended: its outcome, the winner (none: a draw) and the points won.
    Over(Outcome, Option<Color>, u32),
}

/// The finished games of a session whose games start from `start`, from its log: each
/// game's last board is the last move played in it (a game dropped or resigned before any
/// move ends on the starting position).
pub(crate) fn finished(start: Position, log: impl IntoIterator<Item = Logged>) -> Vec<Finished> {
    let mut out = Vec::new();
    let mut score = ByColor::default();
    let (mut number, mut board) = (0, start);
    for step in log {
        match step {
            Logged::Start(n) => (number, board) = (n, start),
            Logged::Moved(player, after) => board = white_view(player, after),
            Logged::Over(outcome, winner, points) => {
                if let Some(winner) = winner {
                    score[winner] += points;
                }
                out.push(Finished {
                    number,
                    outcome,
                    score,
                    board: board_json(&board),
                });
            }
        }
    }
    out
}
