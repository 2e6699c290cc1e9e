//! Never-Finishing backgammon's face: the only action is a move, in gnubg's notation with
//! `^` marking a trap (`13/7^ 8/7`); the view is the backgammon board without the cube. Its
//! terminal face ([`crate::Terminal`]) is `terminal.rs`, its narration `narrate.rs`; the
//! board is drawn by backgammon's [`crate::backgammon::drawing`].

mod narrate;
mod terminal;

use crate::backgammon::{board_json, finished, score_json, Logged};
use crate::error::{ActionError, OptionsError};
use crate::face::{Face, Finished};
use crate::options::GameOptionsFace;
use crate::time_out::{level, match_lost};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tabula_ai::{Bot, Level};
use tabula_core::{Color, EndReason, GameId, Outcome};
use tabula_tables::never_finishing::{
    start_position, Action as NfAction, NeverFinishing, NfEvent, NfOptions, Scoring,
};
use tabula_tables::notation::move_text::{format_play, match_play_nf};
use tabula_tables::{Play, Position, TablesGen, Trapping};

/// A Never-Finishing match to `match_length` points, or one money game when it is 0.
pub fn new(match_length: u32) -> Result<NeverFinishing, OptionsError> {
    let scoring = match match_length {
        0 => Scoring::Money { games: Some(1) },
        1..=64 => Scoring::Match {
            length: match_length as u8,
        },
        n => return Err(OptionsError::MatchLength(n)),
    };
    Ok(NeverFinishing::new(NfOptions {
        scoring,
        trapping: Trapping::On,
    })?)
}

/// Never-Finishing backgammon: a match to `match_length` points (default 3), or one money
/// game when `match_length` is 0.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = NeverFinishingOptions))]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// Points to win the match, 1 to 64, or 0 for a single money game (default 3).
    #[serde(default = "default_match_length")]
    pub match_length: u32,
}

/// The match length of options that name none: the rules' own default session
/// (`NfOptions::default()`), a match to 3 points.
pub fn default_match_length() -> u32 {
    match NfOptions::default().scoring {
        Scoring::Match { length } => u32::from(length),
        Scoring::Money { .. } => 0,
    }
}

impl GameOptionsFace for Options {
    const ID: GameId = GameId::NeverFinishing;
    type Game = NeverFinishing;

    /// `3-point match`, or `money game` (length 0).
    fn describe(&self) -> String {
        match self.match_length {
            0 => "money game".into(),
            n => format!("{n}-point match"),
        }
    }

    fn match_length(&self) -> Option<u32> {
        (self.match_length > 0).then_some(self.match_length)
    }

    fn new_game(&self) -> Result<NeverFinishing, OptionsError> {
        new(self.match_length)
    }
}

/// Every legal play of the dice with the position it reaches; none before the roll.
fn plays(game: &NeverFinishing) -> Vec<(Play, Position)> {
    let game = game.game();
    let Some(dice) = game.dice() else {
        return Vec::new();
    };
    let mut gen = TablesGen::new();
    let (positions, plays) = gen.plays(&game.board(), dice, game.trapping());
    plays
        .iter()
        .copied()
        .zip(positions.iter().copied())
        .collect()
}

impl Face for NeverFinishing {
    const DICE: bool = true;

    fn text(&self, action: &NfAction) -> String {
        let NfAction::Move(after) = action;
        plays(self)
            .iter()
            .find(|(_, p)| p == after)
            .map(|(play, _)| format_play(play))
            .unwrap_or_default()
    }

    fn legal(&self) -> Vec<(String, NfAction)> {
        plays(self)
            .iter()
            .map(|(play, after)| (format_play(play), NfAction::Move(*after)))
            .collect()
    }

    fn parse(&self, text: &str) -> Result<NfAction, ActionError> {
        let game = self.game();
        let dice = game
            .dice()
            .ok_or_else(|| ActionError::NotNow(text.to_string()))?;
        Ok(NfAction::Move(match_play_nf(&game.board(), dice, text)?.1))
    }

    fn view(&self) -> Value {
        let game = self.game();
        let match_length = match self.options().scoring {
            Scoring::Match { length } => Some(length),
            Scoring::Money { .. } => None,
        };
        json!({
            "game": "never-finishing",
            "board": board_json(&game.board_for(Color::White)),
            "turn": game.turn(),
            "dice": game.dice().map(|d| [d.big(), d.small()]),
            "score": score_json(self.score()),
            "match_length": match_length,
            "game_number": self.game_number(),
        })
    }

    fn notation(&self) -> String {
        let game = self.game();
        tabula_tables::notation::TablesPosition::new(game.board(), game.turn()).to_string()
    }

    fn finished(&self) -> Vec<Finished> {
        let log = self.events().iter().filter_map(|event| match *event {
            NfEvent::GameStart { number, .. } => Some(Logged::Start(number)),
            NfEvent::Moved {
                player,
                action: NfAction::Move(after),
            } => Some(Logged::Moved(player, after)),
            NfEvent::GameOver(result) => {
                Some(Logged::Over(result.outcome(), result.winner, result.points))
            }
            _ => None,
        });
        finished(start_position(), log)
    }

    fn games_over(&self) -> usize {
        self.results().len()
    }

    fn forfeit(&self, loser: Color, reason: EndReason) -> Outcome {
        let winner = loser.other();
        match self.options().scoring {
            Scoring::Match { length } => {
                match_lost(winner, u32::from(length), self.score(), reason)
            }
            Scoring::Money { .. } => {
                Outcome::win(winner, level(&self.game().board_for(winner), false), reason)
            }
        }
    }

    fn bot(level: Level, seed: u64) -> Box<dyn Bot<Self> + Send> {
        tabula_ai::bots::never_finishing(level, seed).unwrap_or_else(|_| {
            Box::new(tabula_ai::RandomBot::<NeverFinishing>::new(seed, |_| true))
        })
    }
}
