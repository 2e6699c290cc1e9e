//! Never-Finishing backgammon on the wire: the only action is a move, in gnubg's notation
//! with `^` marking a trap (`13/7^ 8/7`).

use super::backgammon::{board_json, score_json, white_view};
use super::{Adapter, Finished};
use serde_json::{json, Value};
use tabula_ai::{Bot, Level};
use tabula_core::{ByColor, Color};
use tabula_tables::never_finishing::{
    start_position, Action as NfAction, NeverFinishing, NfEvent, NfOptions, Scoring,
};
use tabula_tables::notation::move_text::{format_play, match_play_nf};
use tabula_tables::{TablesGen, Trapping};

pub(super) fn new(match_length: u32) -> Result<NeverFinishing, String> {
    let scoring = match match_length {
        0 => Scoring::Money { games: Some(1) },
        1..=64 => Scoring::Match {
            length: match_length as u8,
        },
        n => {
            return Err(format!(
                "a match is 1 to 64 points long (0: money), not {n}"
            ))
        }
    };
    NeverFinishing::new(NfOptions {
        scoring,
        trapping: Trapping::On,
    })
    .map_err(|e| e.to_string())
}

impl Adapter for NeverFinishing {
    fn legal(&self) -> Vec<(String, NfAction)> {
        let game = self.game();
        let Some(dice) = game.dice() else {
            return Vec::new();
        };
        let mut gen = TablesGen::new();
        let (positions, plays) = gen.plays(&game.board(), dice, game.trapping());
        positions
            .iter()
            .zip(plays)
            .map(|(after, play)| (format_play(play), NfAction::Move(*after)))
            .collect()
    }

    fn parse(&self, text: &str) -> Result<NfAction, String> {
        let game = self.game();
        let dice = game
            .dice()
            .ok_or_else(|| format!("{text:?} is not an action now"))?;
        match_play_nf(&game.board(), dice, text)
            .map(|(_, after)| NfAction::Move(after))
            .map_err(|e| format!("illegal move: {e}"))
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
        let mut out = Vec::new();
        let mut score = ByColor::default();
        let (mut number, mut board) = (0, start_position());
        for event in self.events() {
            match *event {
                NfEvent::GameStart { number: n, .. } => (number, board) = (n, start_position()),
                NfEvent::Moved {
                    player,
                    action: NfAction::Move(after),
                } => board = white_view(player, after),
                NfEvent::GameOver(result) => {
                    if let Some(winner) = result.winner {
                        score[winner] += result.points;
                    }
                    out.push(Finished {
                        number,
                        outcome: result.outcome(),
                        score,
                        board: board_json(&board),
                    });
                }
                _ => {}
            }
        }
        out
    }

    fn games_over(&self) -> usize {
        self.results().len()
    }

    fn bot(level: Level, seed: u64) -> Box<dyn Bot<Self> + Send> {
        tabula_ai::bots::never_finishing(level, seed).unwrap_or_else(|_| {
            Box::new(tabula_ai::RandomBot::<NeverFinishing>::new(seed, |_| true))
        })
    }
}
