//! The four games as the server drives them: created from JSON options, actions read and
//! written as text (the notation of each game), a JSON view of the state for clients, and
//! the bots. Everything goes through [`tabula_core::Game`]; this module only adds the text
//! and JSON each game needs on the wire.
//!
//! A game's log stores every action by its canonical text (the text [`Table::legal`] lists),
//! so that replaying the log through [`Table::apply_text`] rebuilds the state exactly.

mod backgammon;
mod grasshopper;
mod halma;
mod never_finishing;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tabula_ai::{Bot, Level};
use tabula_core::{DiceRoll, Game, GameId, Status};
use utoipa::ToSchema;

/// The options of a new game, one shape per game. Every field has a default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "game", rename_all = "kebab-case", deny_unknown_fields)]
pub enum GameOptions {
    /// Backgammon: a match to `match_length` points, or (no length) one money game.
    Backgammon {
        /// Points to win the match, 1 to 64; absent for money play.
        #[serde(default)]
        match_length: Option<u32>,
        /// The Crawford rule in a match (default on).
        #[serde(default = "yes")]
        crawford: bool,
        /// Money: beavers allowed (default on).
        #[serde(default = "yes")]
        beavers: bool,
        /// Money: the Jacoby rule (default on).
        #[serde(default = "yes")]
        jacoby: bool,
        /// Money: how many automatic doubles an opening tie may cause (default 0).
        #[serde(default)]
        automatic_doubles: u8,
    },
    /// Never-Finishing backgammon: a match to `match_length` points (default 3), or one money
    /// game when `match_length` is 0.
    NeverFinishing {
        /// Points to win the match, 1 to 64, or 0 for a single money game (default 3).
        #[serde(default = "three")]
        match_length: u32,
    },
    /// Grasshopper with `checkers` checkers each (even, 2 to 14; default 14).
    Grasshopper {
        /// Checkers per player.
        #[serde(default = "fourteen")]
        checkers: u32,
    },
    /// Grasshopper (Halma) on an 8x8 (default) or 10x10 board.
    HalmaGrasshopper {
        /// 8 or 10.
        #[serde(default = "eight")]
        size: u32,
    },
}

fn yes() -> bool {
    true
}
fn three() -> u32 {
    3
}
fn fourteen() -> u32 {
    14
}
fn eight() -> u32 {
    8
}

impl GameOptions {
    /// Which game the options are for.
    pub fn game_id(&self) -> GameId {
        match self {
            GameOptions::Backgammon { .. } => GameId::Backgammon,
            GameOptions::NeverFinishing { .. } => GameId::NeverFinishing,
            GameOptions::Grasshopper { .. } => GameId::Grasshopper,
            GameOptions::HalmaGrasshopper { .. } => GameId::HalmaGrasshopper,
        }
    }

    /// The match length, for the rating formulas of matches (FIBS); `None` otherwise.
    pub fn match_length(&self) -> Option<u32> {
        match *self {
            GameOptions::Backgammon { match_length, .. } => match_length,
            GameOptions::NeverFinishing { match_length } if match_length > 0 => Some(match_length),
            _ => None,
        }
    }
}

/// What a game on the wire must add to the rules engine.
trait Adapter: Game + Send + Sync + 'static {
    /// Every legal action of the deciding player, with its canonical text.
    fn legal(&self) -> Vec<(String, Self::Action)>;
    /// The action `text` names, or why it names none (malformed or illegal, in words).
    fn parse(&self, text: &str) -> Result<Self::Action, String>;
    /// The state for clients.
    fn view(&self) -> Value;
    /// The game's own notation of the current position.
    fn notation(&self) -> String;
    /// A bot of `level`, seeded.
    fn bot(level: Level, seed: u64) -> Box<dyn Bot<Self> + Send>;
}

/// One game of any of the four kinds.
#[derive(Clone)]
pub enum Table {
    /// Backgammon.
    Backgammon(tabula_tables::backgammon::Backgammon),
    /// Never-Finishing backgammon.
    NeverFinishing(tabula_tables::never_finishing::NeverFinishing),
    /// Grasshopper.
    Grasshopper(tabula_grasshopper::Grasshopper),
    /// Grasshopper (Halma).
    Halma(tabula_halma::HalmaGrasshopper),
}

macro_rules! each {
    ($self:expr, $g:ident => $body:expr) => {
        match $self {
            Table::Backgammon($g) => $body,
            Table::NeverFinishing($g) => $body,
            Table::Grasshopper($g) => $body,
            Table::Halma($g) => $body,
        }
    };
}

impl Table {
    /// A new game with these options, or why they are refused.
    pub fn new(options: &GameOptions) -> Result<Table, String> {
        match *options {
            GameOptions::Backgammon {
                match_length,
                crawford,
                beavers,
                jacoby,
                automatic_doubles,
            } => backgammon::new(match_length, crawford, beavers, jacoby, automatic_doubles)
                .map(Table::Backgammon),
            GameOptions::NeverFinishing { match_length } => {
                never_finishing::new(match_length).map(Table::NeverFinishing)
            }
            GameOptions::Grasshopper { checkers } => {
                grasshopper::new(checkers).map(Table::Grasshopper)
            }
            GameOptions::HalmaGrasshopper { size } => halma::new(size).map(Table::Halma),
        }
    }

    /// Where the game stands.
    pub fn status(&self) -> Status {
        each!(self, g => g.status())
    }

    /// Whether the game uses dice.
    pub fn has_dice(&self) -> bool {
        matches!(self, Table::Backgammon(_) | Table::NeverFinishing(_))
    }

    /// The canonical texts of the legal actions of the deciding player.
    pub fn legal(&self) -> Vec<String> {
        each!(self, g => g.legal().into_iter().map(|(t, _)| t).collect())
    }

    /// Applies the action `text` names and returns its canonical text; a refusal (with the
    /// reason) changes nothing.
    pub fn apply_text(&mut self, text: &str) -> Result<String, String> {
        each!(self, g => apply_text(g, text))
    }

    /// Supplies dice at a chance node.
    pub fn roll(&mut self, roll: DiceRoll) -> Result<(), String> {
        each!(self, g => g.roll(roll).map_err(|e| e.to_string()))
    }

    /// The state for clients: the game's own fields, plus `status`, `legal` and `notation`.
    pub fn view(&self) -> Value {
        let mut view = each!(self, g => g.view());
        if let Value::Object(map) = &mut view {
            map.insert(
                "status".into(),
                serde_json::to_value(self.status()).unwrap_or_default(),
            );
            map.insert("legal".into(), Value::from(self.legal()));
            map.insert(
                "notation".into(),
                Value::from(each!(self, g => g.notation())),
            );
        }
        view
    }

    /// The action a bot of `level` (seeded with `seed`) chooses now, as canonical text;
    /// `None` when no decision is due.
    pub fn bot_action(&self, level: Level, seed: u64) -> Option<String> {
        each!(self, g => bot_text(g, level, seed))
    }
}

fn apply_text<A: Adapter>(game: &mut A, text: &str) -> Result<String, String> {
    if !matches!(game.status(), Status::Decide { .. }) {
        return Err(match game.status() {
            Status::Over(_) => "the game is over".to_string(),
            _ => "the dice must be rolled first".to_string(),
        });
    }
    let text = text.trim();
    let legal = game.legal();
    let found = legal.iter().find(|(t, _)| t == text).cloned();
    let (canonical, action) = match found {
        Some(pair) => pair,
        None => {
            let action = game.parse(text)?;
            legal
                .into_iter()
                .find(|(_, a)| *a == action)
                .ok_or_else(|| format!("{text:?} is not legal now"))?
        }
    };
    game.apply(&action).map_err(|e| e.to_string())?;
    Ok(canonical)
}

fn bot_text<A: Adapter>(game: &A, level: Level, seed: u64) -> Option<String> {
    if !matches!(game.status(), Status::Decide { .. }) {
        return None;
    }
    let action = A::bot(level, seed).choose(game)?;
    game.legal()
        .into_iter()
        .find(|(_, a)| *a == action)
        .map(|(t, _)| t)
}

#[cfg(test)]
mod tests;
