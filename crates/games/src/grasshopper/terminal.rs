//! Grasshopper (the dice-free backgammon variant) at the terminal: the [`Terminal`] of one
//! game, one action a turn.
//!
//! The game keeps no event log, so the narrator keeps its own: one entry per action applied,
//! with the positions before and after it, from which the narration tells jumps, walls and
//! scores.

use super::drawing::{render_grasshopper, status_text, GrasshopperView};
use crate::terminal::{capitalized, names, Command, Terminal};
use tabula_core::{ByColor, Color, Decision, Outcome};
use tabula_grasshopper::notation::MoveTextError;
use tabula_grasshopper::{Action, Grasshopper, Point, Position};

/// The help text of Grasshopper (the dice-free backgammon variant): one action a turn.
const HELP: &str = "\
Commands:
  in 3            enter a checker from your hand on a vacant point of 1-6
  3-9             move the top checker of 3 to a vacant point of the next quadrant
  9-15w           build a wall: move the top checker of 9 onto your single on 15
                  (the w may be left out)
  off 21          bear off your wall on 21 and score
  discard 20      remove your single on 20 without scoring (only when all you have
                  left are singles in 19-24)
  pass            pass (only when you have no other action)
                  points are 1-24 or A1-D6 (A4 = 4, B3 = 9, C5 = 17, D3 = 21)
  moves           list the legal actions; then a number picks one
  board           draw the board again
  help            this text
  quit            stop (end of input does too)";

/// One action applied, as the narration needs it.
#[derive(Debug, Clone, Copy)]
struct Logged {
    player: Color,
    action: Action,
    before: Position,
    after: Position,
}

/// The narration's memory: every action applied, in order, and how many have been told.
#[derive(Debug, Clone, Default)]
pub struct Story {
    log: Vec<Logged>,
    told: usize,
}

/// The points strictly between `from` and `to` holding a wall (of either colour) before the
/// move: the walls the top checker of a wall jumped.
fn jumped_walls(before: &Position, from: Point, to: Point) -> Vec<u8> {
    let walls = before.walls(Color::White) | before.walls(Color::Black);
    (from.number() + 1..to.number())
        .filter(|&n| walls & (1 << (n - 1)) != 0)
        .collect()
}

/// ", jumping the wall on 10" or ", jumping the walls on 10, 11", or nothing.
fn jump_text(walls: &[u8]) -> String {
    let list = walls
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    match walls.len() {
        0 => String::new(),
        1 => format!(", jumping the wall on {list}"),
        _ => format!(", jumping the walls on {list}"),
    }
}

/// "1 turn", "12 turns".
fn turns(n: usize) -> String {
    if n == 1 {
        "1 turn".to_string()
    } else {
        format!("{n} turns")
    }
}

/// The score, White's first: "1-0".
fn score(position: &Position) -> String {
    format!(
        "{}-{}",
        position.score(Color::White),
        position.score(Color::Black)
    )
}

/// The line for one logged action.
fn tell(e: &Logged) -> String {
    let name = capitalized(e.player);
    let text = e.action.to_string();
    match e.action {
        Action::Enter { to } => format!("{name} plays {text}, entering a checker on {to}"),
        Action::Advance { from, to } => format!(
            "{name} plays {text}{}",
            jump_text(&jumped_walls(&e.before, from, to))
        ),
        Action::Build { from } => {
            let to = from.plus_six().expect("a build lands six points on");
            format!(
                "{name} plays {text}, building a wall on {to}{}",
                jump_text(&jumped_walls(&e.before, from, to))
            )
        }
        Action::BearOff { at } if e.after.winner() == Some(e.player) => format!(
            "{name} bears off the wall on {at} and scores again in succession (score {})",
            score(&e.after)
        ),
        Action::BearOff { at } => format!(
            "{name} bears off the wall on {at} and scores (score {}); {name} needs one more \
             point in succession to win",
            score(&e.after)
        ),
        Action::Discard { at } => {
            format!("{name} discards the single on {at} without scoring")
        }
        Action::Pass => format!("{name} has no legal action and passes"),
    }
}

impl Story {
    /// The last action, as drawn beside the board: "Black 3-9".
    fn last_move(&self) -> Option<String> {
        self.log
            .last()
            .map(|e| format!("{} {}", capitalized(e.player), e.action))
    }
}

impl Terminal for Grasshopper {
    type Narrator = Story;

    fn narrator(&self) -> Story {
        Story::default()
    }

    fn played(&self, story: &mut Story, before: &Self, action: &Action) {
        story.log.push(Logged {
            player: before.position().turn(),
            action: *action,
            before: *before.position(),
            after: *self.position(),
        });
    }

    fn narrate(&self, story: &mut Story) -> Vec<String> {
        let lines = story.log[story.told..].iter().map(tell).collect();
        story.told = story.log.len();
        lines
    }

    fn drawing(&self, story: &Story, viewer: Color) -> String {
        let mut view = GrasshopperView::new(*self.position());
        view.names = names();
        view.last_move = story.last_move();
        render_grasshopper(&view, viewer)
    }

    fn status_line(&self) -> String {
        status_text(self.position(), &names())
    }

    /// Malformed text and an illegal move are told apart, each with the library's reason.
    fn read_play(&self, text: &str) -> Result<Action, String> {
        self.position().parse_move(text).map_err(|e| match e {
            MoveTextError::Parse(e) => format!("Not a move: {e}"),
            MoveTextError::Illegal { text, reason } => {
                format!("Illegal move: {text}: {reason}")
            }
            other => format!("Illegal move: {other}"),
        })
    }

    fn command(&self, command: &Command) -> Result<Action, String> {
        match command {
            Command::Pass => Ok(Action::Pass),
            Command::Double | Command::Take | Command::Drop | Command::Beaver => {
                Err("There is no cube in Grasshopper.".to_string())
            }
            Command::Draw => Err(
                "There are no draw offers in Grasshopper: the game is drawn when neither side \
                 has a checker left or both must pass."
                    .to_string(),
            ),
            Command::Resign(_) | Command::Accept | Command::Reject => {
                Err("There is no resigning in Grasshopper; type quit to stop.".to_string())
            }
            _ => Err(format!("You cannot do that now: {}.", self.status_line())),
        }
    }

    fn help(&self) -> &'static str {
        HELP
    }

    fn hint(&self, _decision: Decision) -> &'static str {
        "move"
    }

    fn progress(&self, story: &Story) -> String {
        let position = self.position();
        format!(
            "after {}, {} to move, score {}",
            turns(story.log.len()),
            capitalized(position.turn()),
            score(position)
        )
    }

    fn final_line(&self, story: &Story, outcome: &Outcome) -> String {
        let p = self.position();
        if !p.is_over() {
            return "The game is not over.".to_string();
        }
        format!(
            "{} (score {}, {}).",
            outcome
                .sentence(ByColor::new_with(capitalized))
                .trim_end_matches('.'),
            score(p),
            turns(story.log.len())
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::terminal::Seat;
    use tabula_core::{Game, Status};

    /// A game from `position`, nothing told yet.
    fn table_at(position: &str) -> Seat<Grasshopper> {
        Seat::new(Grasshopper::from_position(position.parse().unwrap()))
    }

    fn play(t: &mut Seat<Grasshopper>, text: &str) {
        let action = t.read_play(text).unwrap();
        t.apply(action).unwrap();
    }

    #[test]
    fn entries_advances_jumps_and_builds_are_told() {
        // White: a single on 2, a wall on 8, a single on 15; Black: a single on 9, a wall on 10.
        let mut t = table_at(".w..../.WbB../..w.../...... w 10-11 0-0 - 14");
        play(&mut t, "8-14");
        play(&mut t, "in 1");
        play(&mut t, "2-8");
        assert_eq!(
            t.read_play("9-13").unwrap_err(),
            "Illegal move: 9-13: the wall on 10 blocks the single checker on 9 from reaching 13"
        );
        play(&mut t, "10-16");
        assert_eq!(
            t.narrate(),
            [
                "White plays 8-14, jumping the wall on 10",
                "Black plays in 1, entering a checker on 1",
                "White plays 2-8w, building a wall on 8",
                "Black plays 10-16",
            ]
        );
        assert!(t.narrate().is_empty(), "each action told once");
        assert_eq!(t.story.last_move().as_deref(), Some("Black 10-16"));
        assert_eq!(jump_text(&[10, 11]), ", jumping the walls on 10, 11");
    }

    #[test]
    fn scoring_and_winning_are_told() {
        // White's walls on 20 and 21, Black's single on 19; nobody has scored.
        let mut t = table_at("....../....../....../bWW... w 10-13 0-0 - 14");
        play(&mut t, "off 20");
        assert_eq!(
            t.narrate(),
            [
                "White bears off the wall on 20 and scores (score 1-0); White needs one more \
              point in succession to win"
            ]
        );
        play(&mut t, "in 2");
        play(&mut t, "off 21");
        assert_eq!(
            t.narrate()[1],
            "White bears off the wall on 21 and scores again in succession (score 2-0)"
        );
        assert!(matches!(t.status(), Status::Over(_)));
        assert_eq!(
            t.final_line(),
            "White wins 1 point: White scored twice in succession, bearing off a wall after also \
             scoring the previous point (score 2-0, 3 turns)."
        );
    }

    #[test]
    fn passes_and_discards_are_told_and_a_stuck_game_is_a_draw() {
        // White cannot enter (A is full) and has nothing on the board.
        let mut t = table_at("bbbbbb/....../....../...... w 14-8 0-0 - 14");
        assert!(t
            .read_play("in 1")
            .unwrap_err()
            .starts_with("Illegal move: in 1: "));
        let pass = t.command(&Command::Pass).unwrap();
        t.apply(pass).unwrap();
        assert_eq!(t.narrate(), ["White has no legal action and passes"]);
        assert_eq!(t.status_line(), "Black to move; White passed");
        // Black's last checker is a single in D: it is discarded.
        let mut t = table_at("w...../....../....../.b.... b 13-0 0-0 - 14");
        play(&mut t, "discard 20");
        assert_eq!(
            t.narrate(),
            ["Black discards the single on 20 without scoring"]
        );
        let t = table_at("bbbbbb/B...../wwwwww/bbbbbb b 8-0 0-0 p 14");
        assert_eq!(
            t.final_line(),
            "Drawn: neither player can act: a pass was answered by a pass (score 0-0, 0 turns)."
        );
    }

    #[test]
    fn malformed_and_illegal_moves_are_told_apart() {
        let t = table_at("....../....../....../...... w 14-14 0-0 - 14");
        let malformed = t.read_play("jump 3").unwrap_err();
        assert!(
            malformed.starts_with("Not a move: \"jump 3\" is not a move"),
            "{malformed}"
        );
        assert_eq!(
            t.read_play("in 9").unwrap_err(),
            "Illegal move: in 9: checkers enter on 1-6 (A1-A6), not on 9"
        );
        assert_eq!(
            t.read_play("in A3").unwrap(),
            Action::Enter {
                to: Point::new(3).unwrap()
            }
        );
        assert!(t.command(&Command::Double).unwrap_err().contains("no cube"));
        assert!(t
            .command(&Command::Draw)
            .unwrap_err()
            .contains("no draw offers"));
    }
}
