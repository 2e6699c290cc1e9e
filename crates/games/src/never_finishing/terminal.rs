//! Never-Finishing backgammon at the terminal: the [`Terminal`] of a session without a cube
//! (every decision is a play, and the dice are rolled for the player). Moves are read and
//! written in the extended notation: `13/8*` hits, `13/8^` traps.

use super::narrate::{nf_score_text, NfNarrator};
use crate::backgammon::drawing::{render, BoardView, HomeSide, Layout, ScoreView};
use crate::terminal::{names, session_final_line, Command, Terminal};
use tabula_core::{Color, Decision, Outcome};
use tabula_tables::never_finishing::{Action, NeverFinishing, NfGame, Scoring};
use tabula_tables::notation::match_play_nf;

/// The help text of Never-Finishing backgammon: moves only (the dice are rolled for you and
/// there is no cube); `^` traps a blot, `*` hits it.
const HELP: &str = "\
Commands:
  <move>          play the dice: 24/16, 13/8* (hit the blot on 8), 13/8^ (trap it),
                  bar/20^, 8/2(2); landing on a blot that may be hit or
                  trapped needs the * or the ^
  moves           list the legal moves; then a number picks one
  board           draw the board again
  help            this text
  quit            stop (end of input does too)";

/// The narration's memory: the narrator, and the game before the last action (to tell
/// which play a move was).
#[derive(Debug, Clone)]
pub struct Story {
    narrator: NfNarrator,
    before: NfGame,
}

fn match_length(session: &NeverFinishing) -> Option<u32> {
    match session.options().scoring {
        Scoring::Match { length } => Some(length.into()),
        Scoring::Money { .. } => None,
    }
}

impl Terminal for NeverFinishing {
    type Narrator = Story;

    fn narrator(&self) -> Story {
        Story {
            narrator: NfNarrator::new(names()),
            before: self.game().clone(),
        }
    }

    fn narrate(&self, story: &mut Story) -> Vec<String> {
        let lines = story.narrator.narrate(self, &story.before);
        story.before = self.game().clone();
        lines
    }

    fn flush(&self, story: &mut Story) -> Option<String> {
        story.narrator.flush()
    }

    fn drawing(&self, _story: &Story, viewer: Color) -> String {
        let game = self.game();
        let mut view = BoardView::new(game.board(), game.turn());
        view.names = names();
        view.score = Some(ScoreView {
            points: self.score(),
            match_length: match_length(self),
        });
        view.dice = game.dice();
        view.status = Some(self.status_line());
        let layout = Layout {
            viewer,
            home: HomeSide::Right,
        };
        render(&view, layout)
    }

    fn status_line(&self) -> String {
        let game = self.game();
        let name = &names()[game.turn()];
        match game.dice() {
            Some(d) => format!("{name} to play {d}"),
            None => format!("{name} on roll"),
        }
    }

    fn read_play(&self, text: &str) -> Result<Action, String> {
        let game = self.game();
        let dice = game
            .dice()
            .ok_or("Illegal move: there are no dice to play")?;
        match_play_nf(&game.board(), dice, text)
            .map(|(_, after)| Action::Move(after))
            .map_err(|e| format!("Illegal move: {e}"))
    }

    fn command(&self, command: &Command) -> Result<Action, String> {
        Err(match command {
            Command::Double | Command::Take | Command::Drop | Command::Pass | Command::Beaver => {
                "There is no cube in Never-Finishing backgammon.".to_string()
            }
            Command::Resign(_) | Command::Accept | Command::Reject => {
                "There is no resigning in Never-Finishing backgammon; type quit to stop."
                    .to_string()
            }
            _ => format!("You cannot do that now: {}.", self.status_line()),
        })
    }

    fn help(&self) -> &'static str {
        HELP
    }

    fn hint(&self, _decision: Decision) -> &'static str {
        "move"
    }

    fn progress(&self, _story: &Story) -> String {
        format!("in game {}, {}", self.game_number(), nf_score_text(self))
    }

    fn final_line(&self, _story: &Story, outcome: &Outcome) -> String {
        session_final_line(
            self.score(),
            match_length(self),
            self.results().len(),
            outcome.winner,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::{ByColor, Dice};
    use tabula_tables::never_finishing::NfOptions;
    use tabula_tables::{Position, Trapping};

    /// A session whose game has White to play `dice` with five on its 13-point and a Black
    /// blot on White's 8-point.
    fn blot_table(dice: Dice) -> NeverFinishing {
        let mut pips = [0i8; 26];
        pips[13] = 5;
        pips[8] = -1;
        let board = Position::from_parts(pips, 0).unwrap();
        let game = NfGame::from_setup(board, Color::White, Some(dice), Trapping::On);
        NeverFinishing::from_game(NfOptions::default(), game, ByColor::default())
    }

    #[test]
    fn landing_on_a_blot_without_a_mark_is_ambiguous() {
        let table = blot_table(Dice::new(5, 3).unwrap());
        assert_eq!(
            table.read_play("13/8 13/10").unwrap_err(),
            "Illegal move: 13/8 13/10 is ambiguous: it could be 13/10 13/8* or 13/10 13/8^"
        );
        let hit = table.read_play("13/8* 13/10").unwrap();
        let trap = table.read_play("13/8^ 13/10").unwrap();
        assert_ne!(hit, trap);
        let listed: Vec<String> = table.plays().into_iter().map(|(text, _)| text).collect();
        assert!(listed.contains(&"13/10 13/8^".to_string()), "{listed:?}");
    }

    #[test]
    fn cube_and_resignation_commands_are_refused() {
        let table = blot_table(Dice::new(5, 3).unwrap());
        assert!(table
            .command(&Command::Double)
            .unwrap_err()
            .contains("no cube"));
        let resign = Command::Resign(tabula_tables::backgammon::ResignLevel::Single);
        assert!(table.command(&resign).unwrap_err().contains("no resigning"));
    }
}
