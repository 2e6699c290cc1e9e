//! Backgammon's face: actions are `roll`, `double`, `take`, `drop`, `beaver`,
//! `resign single|gammon|backgammon`, `accept`, `reject`, or a move in gnubg's notation
//! (`8/3 6/3`); the view draws the board as White sees it, with the cube and the score. Its
//! terminal face ([`crate::Terminal`]) is `terminal.rs`, its narration `narrate.rs`, and the
//! text drawing of the board (shared with Never-Finishing) [`drawing`].

mod board;
pub mod drawing;
mod narrate;
mod options;
mod terminal;

pub use board::{board_json, score_json, white_view};
pub(crate) use board::{finished, Logged};
pub use options::Options;

use crate::error::{ActionError, OptionsError};
use crate::face::{Face, Finished};
use crate::time_out::{level, match_lost};
use serde_json::{json, Value};
use tabula_ai::{Bot, Level};
use tabula_core::{Color, EndReason, Game, Outcome};
use tabula_tables::backgammon::{Action, Backgammon, Event, Mode, Options as Rules, ResignLevel};
use tabula_tables::notation::move_text::{format_play, match_play};
use tabula_tables::Position;

/// A backgammon match to `match_length` points, or (no length) one money game.
pub fn new(
    match_length: Option<u32>,
    crawford: bool,
    beavers: bool,
    jacoby: bool,
    automatic_doubles: u8,
) -> Result<Backgammon, OptionsError> {
    let options = match match_length {
        Some(length) => {
            let mut options = Rules::match_to(length)?;
            options.mode = Mode::Match {
                length: length as u8,
                crawford,
            };
            options
        }
        None => Rules {
            mode: Mode::Money {
                beavers,
                jacoby,
                automatic_doubles,
                games: Some(1),
            },
            bar_quadruple: false,
        },
    };
    options.validate()?;
    Ok(Backgammon::new(options)?)
}

/// The action a word names (every action but a move), if any.
fn word(text: &str) -> Option<Action> {
    Some(match text {
        "roll" => Action::Roll,
        "double" => Action::Double,
        "take" => Action::Take,
        "drop" => Action::Drop,
        "beaver" => Action::Beaver,
        "resign single" => Action::Resign(ResignLevel::Single),
        "resign gammon" => Action::Resign(ResignLevel::Gammon),
        "resign backgammon" => Action::Resign(ResignLevel::Backgammon),
        "accept" => Action::AcceptResignation,
        "reject" => Action::RejectResignation,
        _ => return None,
    })
}

impl Face for Backgammon {
    const DICE: bool = true;
    const RESIGNS_BY_RULES: bool = true;

    fn text(&self, action: &Action) -> String {
        match *action {
            Action::Move(after) => {
                let game = self.game();
                game.dice()
                    .and_then(|dice| {
                        game.board()
                            .legal_plays(dice)
                            .into_iter()
                            .find(|(_, p)| *p == after)
                    })
                    .map(|(play, _)| format_play(&play))
                    .unwrap_or_else(|| action.to_string())
            }
            other => other.to_string(),
        }
    }

    fn legal(&self) -> Vec<(String, Action)> {
        // One move generation for all the moves' texts.
        let game = self.game();
        let plays = game
            .dice()
            .map(|dice| game.board().legal_plays(dice))
            .unwrap_or_default();
        self.legal_actions()
            .into_iter()
            .map(|action| {
                let text = match action {
                    Action::Move(after) => plays
                        .iter()
                        .find(|(_, p)| *p == after)
                        .map(|(play, _)| format_play(play))
                        .unwrap_or_else(|| action.to_string()),
                    other => other.to_string(),
                };
                (text, action)
            })
            .collect()
    }

    fn parse(&self, text: &str) -> Result<Action, ActionError> {
        if let Some(action) = word(text).filter(|a| self.legal_actions().contains(a)) {
            return Ok(action);
        }
        let game = self.game();
        let Some(dice) = game.dice() else {
            return Err(ActionError::NotNow(text.to_string()));
        };
        Ok(Action::Move(match_play(&game.board(), dice, text)?.1))
    }

    fn view(&self) -> Value {
        let game = self.game();
        let cube = game.cube();
        let ids = tabula_tables::notation::session_ids(self);
        let (match_length, crawford) = match self.options().mode {
            Mode::Match { length, crawford } => (Some(length), crawford),
            Mode::Money { .. } => (None, false),
        };
        json!({
            "game": "backgammon",
            "board": board_json(&game.board_for(Color::White)),
            "turn": game.turn(),
            "dice": game.dice().map(|d| [d.big(), d.small()]),
            "cube": {"value": cube.value(), "owner": cube.owner()},
            "score": score_json(self.score()),
            "match_length": match_length,
            "crawford": crawford,
            "crawford_game": self.is_crawford_game(),
            "game_number": self.game_number(),
            "position_id": ids.position_id,
            "xgid": ids.xgid,
            "gnubg": ids.gnubg(),
        })
    }

    fn notation(&self) -> String {
        let game = self.game();
        tabula_tables::notation::TablesPosition::new(game.board(), game.turn()).to_string()
    }

    fn finished(&self) -> Vec<Finished> {
        let log = self.events().iter().filter_map(|event| match *event {
            Event::GameStart { number, .. } => Some(Logged::Start(number)),
            Event::Acted {
                player,
                action: Action::Move(after),
            } => Some(Logged::Moved(player, after)),
            Event::GameOver(result) => Some(Logged::Over(
                result.outcome(),
                Some(result.winner),
                result.points,
            )),
            _ => None,
        });
        board::finished(Position::START, log)
    }

    fn games_over(&self) -> usize {
        self.results().len()
    }

    fn forfeit(&self, loser: Color, reason: EndReason) -> Outcome {
        let winner = loser.other();
        match self.options().mode {
            Mode::Match { length, .. } => {
                match_lost(winner, u32::from(length), self.score(), reason)
            }
            Mode::Money { jacoby, .. } => {
                let game = self.game();
                let cube = game.cube();
                // The Jacoby rule counts gammons only once the cube has been turned.
                let turned = cube.value() > 1 || cube.owner().is_some();
                let level = if jacoby && !turned {
                    1
                } else {
                    level(&game.board_for(winner), true)
                };
                Outcome::win(winner, level * cube.value(), reason)
            }
        }
    }

    fn bot(level: Level, seed: u64) -> Box<dyn Bot<Self> + Send> {
        // Every level exists for backgammon.
        tabula_ai::bots::backgammon(level, seed)
            .unwrap_or_else(|_| Box::new(tabula_ai::RandomBot::<Backgammon>::new(seed, |_| true)))
    }
}
