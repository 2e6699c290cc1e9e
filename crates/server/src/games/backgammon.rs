//! Backgammon on the wire: actions are `roll`, `double`, `take`, `drop`, `beaver`,
//! `resign single|gammon|backgammon`, `accept`, `reject`, or a move in gnubg's notation
//! (`8/3 6/3`).

use super::{Adapter, Finished};
use serde_json::{json, Value};
use tabula_ai::{Bot, Level};
use tabula_core::{ByColor, Color, Game};
use tabula_tables::backgammon::{Action, Backgammon, Event, Mode, Options};
use tabula_tables::notation::move_text::{format_play, match_play};
use tabula_tables::Position;

pub(super) fn new(
    match_length: Option<u32>,
    crawford: bool,
    beavers: bool,
    jacoby: bool,
    automatic_doubles: u8,
) -> Result<Backgammon, String> {
    let options = match match_length {
        Some(length) => {
            let mut options = Options::match_to(length).map_err(|e| e.to_string())?;
            options.mode = Mode::Match {
                length: length as u8,
                crawford,
            };
            options
        }
        None => Options {
            mode: Mode::Money {
                beavers,
                jacoby,
                automatic_doubles,
                games: Some(1),
            },
            bar_quadruple: false,
        },
    };
    options.validate().map_err(|e| e.to_string())?;
    Backgammon::new(options).map_err(|e| e.to_string())
}

/// The board as White sees it, as the clients draw it: `points[i]` is White's point `i + 1`,
/// positive for White's checkers and negative for Black's.
pub(crate) fn board_json(white_view: &Position) -> Value {
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

pub(super) fn score_json(score: ByColor<u32>) -> Value {
    json!({"white": score.white, "black": score.black})
}

/// The board as White sees it after `player` played to `after` (the board from the mover's
/// side, as a move action holds it).
pub(super) fn white_view(player: Color, after: Position) -> Position {
    match player {
        Color::White => after,
        Color::Black => after.flip(),
    }
}

impl Adapter for Backgammon {
    fn legal(&self) -> Vec<(String, Action)> {
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

    fn parse(&self, text: &str) -> Result<Action, String> {
        let game = self.game();
        let Some(dice) = game.dice() else {
            return Err(format!("{text:?} is not an action now"));
        };
        match_play(&game.board(), dice, text)
            .map(|(_, after)| Action::Move(after))
            .map_err(|e| format!("illegal move: {e}"))
    }

    fn view(&self) -> Value {
        let game = self.game();
        let cube = game.cube();
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
            "position_id": game.board().position_id(),
        })
    }

    fn notation(&self) -> String {
        let game = self.game();
        tabula_tables::notation::TablesPosition::new(game.board(), game.turn()).to_string()
    }

    fn finished(&self) -> Vec<Finished> {
        // The session's log: each game's last board is the last move played in it (a game
        // dropped or resigned before any move ends on the starting position).
        let mut out = Vec::new();
        let mut score = ByColor::default();
        let (mut number, mut board) = (0, Position::START);
        for event in self.events() {
            match *event {
                Event::GameStart { number: n, .. } => (number, board) = (n, Position::START),
                Event::Acted {
                    player,
                    action: Action::Move(after),
                } => board = white_view(player, after),
                Event::GameOver(result) => {
                    score[result.winner] += result.points;
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
        // Every level exists for backgammon.
        tabula_ai::bots::backgammon(level, seed)
            .unwrap_or_else(|_| Box::new(tabula_ai::RandomBot::<Backgammon>::new(seed, |_| true)))
    }
}
