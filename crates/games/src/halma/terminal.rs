//! Grasshopper (Halma) at the terminal: the [`Terminal`] of one game without dice, with
//! draws by agreement.
//!
//! The game keeps no event log, so the narrator keeps its own: one entry per action applied,
//! with the position before it, which is what the narration needs to write a move as its jump
//! path (`c3:e5:g7`).

use super::drawing::{render_halma, HalmaView};
use crate::terminal::{capitalized, names, Command, Terminal};
use tabula_core::{ByColor, Color, Decision, Game, Outcome};
use tabula_halma::notation::{format_move, MoveError, PathStyle};
use tabula_halma::{Action, HalmaGrasshopper, Position};

/// The help text of Grasshopper (Halma): moves, pass and draws (no dice, no cube).
const HELP: &str = "\
Commands:
  <move>          from-to, a step or any chain of jumps: c3-d4, c3-e5; or a jump
                  path, each square the chain lands on: c3:e5:g7
  pass            pass the turn (only when you have no legal move)
  draw            offer a draw (then make your move), or accept the other side's offer;
                  moving declines an offer
  moves           list the legal moves with their jump paths; then a number picks one
  board           draw the board again
  help            this text
  quit            stop (end of input does too)";

/// One action applied, as the narration needs it.
#[derive(Debug, Clone, Copy)]
struct Logged {
    player: Color,
    action: Action,
    /// The position it was played in.
    before: Position,
    /// Whether it was a move that declined the opponent's standing draw offer.
    declined: bool,
}

/// The narration's memory: every action applied, in order, and how many have been told.
#[derive(Debug, Clone, Default)]
pub struct Story {
    log: Vec<Logged>,
    told: usize,
}

/// An action as told: `c3:e5:g7` for a jump, `c3-d4` for a step.
fn action_text(before: &Position, action: Action) -> String {
    match action {
        Action::Move(mv) => format_move(before, mv, PathStyle::Path),
        other => other.to_string(),
    }
}

/// The line for one logged action.
fn tell(entry: &Logged) -> String {
    let name = capitalized(entry.player);
    match entry.action {
        Action::Move(_) => {
            let text = action_text(&entry.before, entry.action);
            if entry.declined {
                format!("{name} plays {text}, declining the draw")
            } else {
                format!("{name} plays {text}")
            }
        }
        Action::Pass => format!("{name} has no legal move and passes"),
        Action::OfferDraw => format!("{name} offers a draw"),
        Action::AcceptDraw => format!("{name} accepts the draw"),
    }
}

impl Story {
    /// The last move played, as drawn beside the board: "Black g6:e4:c4".
    fn last_move(&self) -> Option<String> {
        self.log
            .iter()
            .rev()
            .find(|e| matches!(e.action, Action::Move(_) | Action::Pass))
            .map(|e| {
                format!(
                    "{} {}",
                    capitalized(e.player),
                    action_text(&e.before, e.action)
                )
            })
    }
}

/// How the game ended, in one sentence with the ply it ended on.
fn end_text(game: &HalmaGrasshopper) -> String {
    let names = ByColor::new_with(capitalized);
    match game.outcome() {
        Some(outcome) => {
            format!(
                "{} (ply {})",
                outcome.sentence(names).trim_end_matches('.'),
                game.position().ply()
            ) + "."
        }
        None => String::new(),
    }
}

impl Terminal for HalmaGrasshopper {
    type Narrator = Story;

    fn narrator(&self) -> Story {
        Story::default()
    }

    fn played(&self, story: &mut Story, before: &Self, action: &Action) {
        let player = before.position().to_move();
        let declined = matches!(action, Action::Move(_) | Action::Pass)
            && before.draw_offer() == Some(!player);
        story.log.push(Logged {
            player,
            action: *action,
            before: *before.position(),
            declined,
        });
    }

    fn narrate(&self, story: &mut Story) -> Vec<String> {
        let lines = story.log[story.told..].iter().map(tell).collect();
        story.told = story.log.len();
        lines
    }

    fn drawing(&self, story: &Story, viewer: Color) -> String {
        let mut view = HalmaView::new(*self.position());
        view.names = names();
        view.status = self.status_line();
        view.ply_limit = Some(self.ply_limit());
        view.last_move = story.last_move();
        render_halma(&view, viewer)
    }

    fn status_line(&self) -> String {
        let to_move = self.position().to_move();
        let name = capitalized(to_move);
        match self.draw_offer() {
            Some(c) if c == to_move => format!("{name} to move (draw offered)"),
            Some(c) => format!("{name} to move; {} offers a draw", capitalized(c)),
            None => format!("{name} to move"),
        }
    }

    fn plays(&self) -> Vec<(String, Action)> {
        let before = self.position();
        self.legal_actions()
            .into_iter()
            .filter(|a| matches!(a, Action::Move(_) | Action::Pass))
            .map(|a| (action_text(before, a), a))
            .collect()
    }

    /// Malformed text and an illegal move are told apart, each with the library's reason.
    fn read_play(&self, text: &str) -> Result<Action, String> {
        Action::parse(self.position(), text).map_err(|e| match e {
            MoveError::Parse(e) => format!("Not a move: {e}"),
            MoveError::Illegal(e) => format!("Illegal move: {e}"),
            other => format!("Illegal move: {other}"),
        })
    }

    fn command(&self, command: &Command) -> Result<Action, String> {
        let me = self.position().to_move();
        let offer = self.draw_offer();
        match command {
            Command::Pass => Ok(Action::Pass),
            Command::Draw | Command::Accept if offer == Some(!me) => Ok(Action::AcceptDraw),
            Command::Draw if offer == Some(me) => Err(format!(
                "Your draw offer stands until {}'s turn; now make your move.",
                capitalized(!me)
            )),
            Command::Draw => Ok(Action::OfferDraw),
            Command::Reject if offer == Some(!me) => {
                Err("Make your move: moving declines the draw.".to_string())
            }
            Command::Double | Command::Take | Command::Drop | Command::Beaver => {
                Err("There is no cube in Grasshopper (Halma).".to_string())
            }
            Command::Resign(_) | Command::Accept | Command::Reject => Err(
                "There is no resigning in Grasshopper (Halma); offer a draw with draw, \
                 or type quit to stop."
                    .to_string(),
            ),
            _ => Err(format!("You cannot do that now: {}.", self.status_line())),
        }
    }

    fn help(&self) -> &'static str {
        HELP
    }

    fn hint(&self, _decision: Decision) -> &'static str {
        "move, draw"
    }

    fn progress(&self, _story: &Story) -> String {
        let position = self.position();
        format!(
            "at ply {}, {} to move",
            position.ply(),
            capitalized(position.to_move())
        )
    }

    fn final_line(&self, _story: &Story, _outcome: &Outcome) -> String {
        if self.end().is_none() {
            return "The game is not over.".to_string();
        }
        end_text(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::terminal::Seat;
    use tabula_halma::HalmaOptions;

    /// A game from `position`, nothing told yet.
    fn table_at(position: &str, options: HalmaOptions) -> Seat<HalmaGrasshopper> {
        Seat::new(HalmaGrasshopper::from_position(
            position.parse().unwrap(),
            options,
        ))
    }

    const START: &str = "8:4bbbb/5bbb/6bb/7b/w7/ww6/www5/wwww4:w:0";

    #[test]
    fn jumps_are_told_with_their_path_and_steps_from_to() {
        let mut t = table_at(START, HalmaOptions::default());
        let jump = t.read_play("a3-a5").unwrap();
        t.apply(jump).unwrap();
        let step = t.read_play("h5:g4").unwrap();
        t.apply(step).unwrap();
        assert_eq!(t.narrate(), ["White plays a3:a5", "Black plays h5-g4"]);
        assert_eq!(t.story.last_move().as_deref(), Some("Black h5-g4"));
        assert!(t.narrate().is_empty(), "each action told once");
    }

    #[test]
    fn malformed_and_illegal_moves_are_told_apart() {
        let t = table_at(START, HalmaOptions::default());
        let malformed = t.read_play("c3+e5").unwrap_err();
        assert!(malformed.starts_with("Not a move:"), "{malformed}");
        let illegal = t.read_play("e4-e5").unwrap_err();
        assert_eq!(illegal, "Illegal move: there is no white piece on e4");
    }

    #[test]
    fn a_draw_is_offered_then_accepted_or_declined_by_moving() {
        let mut t = table_at(START, HalmaOptions::default());
        let offer = t.command(&Command::Draw).unwrap();
        t.apply(offer).unwrap();
        assert!(t.command(&Command::Draw).unwrap_err().contains("stands"));
        assert_eq!(t.status_line(), "White to move (draw offered)");
        t.apply(t.read_play("a4-a5").unwrap()).unwrap();
        assert_eq!(t.status_line(), "Black to move; White offers a draw");
        let accept = t.command(&Command::Draw).unwrap();
        assert_eq!(accept, Action::AcceptDraw);
        let mut declined = t.clone();
        declined
            .apply(declined.read_play("h5-g4").unwrap())
            .unwrap();
        t.apply(accept).unwrap();
        assert_eq!(
            t.narrate(),
            [
                "White offers a draw",
                "White plays a4-a5",
                "Black accepts the draw"
            ]
        );
        assert_eq!(
            t.final_line(),
            "Drawn: the players agreed to a draw (ply 1)."
        );
        assert_eq!(
            declined.narrate().last().unwrap(),
            "Black plays h5-g4, declining the draw"
        );
    }

    #[test]
    fn the_endings_are_narrated() {
        // White to move at ply 57: g4-h5 puts the last White piece into Black's camp.
        let mut t = table_at(
            "8:4wwww/5www/6ww/2bb4/2bbbbw1/2bbbb2/8/8:w:57",
            HalmaOptions::default(),
        );
        t.apply(t.read_play("g4-h5").unwrap()).unwrap();
        assert_eq!(
            t.final_line(),
            "White wins 1 point: all of White's pieces stand in Black's starting camp (ply 58)."
        );
        // Black's h8 piece is still at home when Black makes its 30th move: Black loses by
        // the evacuation rule.
        let mut t = table_at(
            "8:4wwwb/5www/6ww/7w/3w4/bb6/bbb5/bbbb4:b:58",
            HalmaOptions::default(),
        );
        t.apply(t.read_play("a3-a4").unwrap()).unwrap();
        assert_eq!(
            t.final_line(),
            "White wins 1 point: Black still had a piece in their own starting camp after their \
             30th move (the evacuation rule) (ply 59)."
        );
        let mut t = table_at(
            START,
            HalmaOptions {
                ply_limit: Some(1),
                evacuation: None,
            },
        );
        t.apply(t.read_play("a4-a5").unwrap()).unwrap();
        assert_eq!(
            t.final_line(),
            "Drawn: the game reached its ply limit of 1 without a winner (ply 1)."
        );
        let mut t = table_at(START, HalmaOptions::default());
        for _ in 0..2 {
            for text in ["a4-a5", "h5-h4", "a5-a4", "h4-h5"] {
                t.apply(t.read_play(text).unwrap()).unwrap();
            }
        }
        assert_eq!(t.final_line(), "Drawn: the same position, with the same side to move, stood for the third time (ply 8).");
    }
}
