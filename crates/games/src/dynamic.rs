//! [`AnyFace`]: any game behind one object type, for a front end that holds games of every
//! kind side by side (the server's tables). Every [`Face`] is one; nothing is written per
//! game here.

use crate::error::ActionError;
use crate::face::{apply_text, bot_text, Face, Finished};
use serde_json::Value;
use std::any::Any;
use tabula_ai::Level;
use tabula_core::{Color, DiceRoll, EndReason, Game, Outcome, Status};

/// A game of any kind, driven by text.
pub trait AnyFace: Send + Sync {
    /// Where the game stands.
    fn status(&self) -> Status;
    /// Whether the game uses dice.
    fn has_dice(&self) -> bool;
    /// The canonical texts of the legal actions of the deciding player.
    fn legal_texts(&self) -> Vec<String>;
    /// Applies the action `text` names and returns its canonical text ([`apply_text`]).
    fn apply_text(&mut self, text: &str) -> Result<String, ActionError>;
    /// Supplies dice at a chance node; a refusal is said in words.
    fn roll(&mut self, roll: DiceRoll) -> Result<(), String>;
    /// The finished games of the match or session ([`Face::finished`]).
    fn finished(&self) -> Vec<Finished>;
    /// How many games of the match or session have ended.
    fn games_over(&self) -> usize;
    /// The position in the game's own notation.
    fn notation(&self) -> String;
    /// The game's own fields of the clients' view ([`Face::view`]).
    fn view(&self) -> Value;
    /// The canonical text of what a bot of `level` (seeded) does now ([`bot_text`]).
    fn bot_text(&self, level: Level, seed: u64) -> Option<String>;
    /// The result when `loser` runs out of time now ([`Face::time_out`]).
    fn time_out(&self, loser: Color) -> Outcome;
    /// The result when `loser` forfeits now for `reason` ([`Face::forfeit`]).
    fn forfeit(&self, loser: Color, reason: EndReason) -> Outcome;
    /// Whether resigning is an action of the game's rules ([`Face::RESIGNS_BY_RULES`]).
    fn resigns_by_rules(&self) -> bool;
    /// A copy in a box.
    fn clone_box(&self) -> Box<dyn AnyFace>;
    /// The game itself, for what only one kind has (the backgammon analysis).
    fn as_any(&self) -> &dyn Any;
}

impl<F: Face> AnyFace for F {
    fn status(&self) -> Status {
        Game::status(self)
    }
    fn has_dice(&self) -> bool {
        F::DICE
    }
    fn legal_texts(&self) -> Vec<String> {
        self.legal().into_iter().map(|(text, _)| text).collect()
    }
    fn apply_text(&mut self, text: &str) -> Result<String, ActionError> {
        apply_text(self, text)
    }
    fn roll(&mut self, roll: DiceRoll) -> Result<(), String> {
        Game::roll(self, roll).map_err(|e| e.to_string())
    }
    fn finished(&self) -> Vec<Finished> {
        Face::finished(self)
    }
    fn games_over(&self) -> usize {
        Face::games_over(self)
    }
    fn notation(&self) -> String {
        Face::notation(self)
    }
    fn view(&self) -> Value {
        Face::view(self)
    }
    fn bot_text(&self, level: Level, seed: u64) -> Option<String> {
        bot_text(self, level, seed)
    }
    fn time_out(&self, loser: Color) -> Outcome {
        Face::time_out(self, loser)
    }
    fn forfeit(&self, loser: Color, reason: EndReason) -> Outcome {
        Face::forfeit(self, loser, reason)
    }
    fn resigns_by_rules(&self) -> bool {
        F::RESIGNS_BY_RULES
    }
    fn clone_box(&self) -> Box<dyn AnyFace> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl Clone for Box<dyn AnyFace> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}
