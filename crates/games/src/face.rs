//! The [`Face`] trait: what a game adds to its rules ([`tabula_core::Game`]) to be played by a
//! front end, written once per game in the game's folder; and the two moves every driver
//! makes with it, [`apply_text`] and [`bot_text`].
//!
//! An action is read into its typed value and applied as such; the canonical text is made
//! for that one action only (the text a game's log stores, so that replaying the log rebuilds
//! the state exactly).

use crate::error::ActionError;
use serde_json::Value;
use tabula_ai::{Bot, Level};
use tabula_core::{ByColor, Color, EndReason, Game, Outcome, Status};

/// A game as the front ends drive it: actions in canonical text, a JSON view, its notation
/// and its bots.
pub trait Face: Game + Clone + Send + Sync + 'static {
    /// Whether the game uses dice.
    const DICE: bool;

    /// The canonical text of `action`, a legal action of the deciding player.
    fn text(&self, action: &Self::Action) -> String;
    /// Every legal action of the deciding player, with its canonical text.
    fn legal(&self) -> Vec<(String, Self::Action)> {
        self.legal_actions()
            .into_iter()
            .map(|a| (self.text(&a), a))
            .collect()
    }
    /// The action `text` names (its canonical text, or any other spelling the game's
    /// notation reads), or why it names none. Whether the rules allow it now is for
    /// [`Game::apply`] to say.
    fn parse(&self, text: &str) -> Result<Self::Action, ActionError>;
    /// The state for clients: the game's own fields.
    fn view(&self) -> Value;
    /// The game's own notation of the current position.
    fn notation(&self) -> String;
    /// A bot of `level`, seeded; the levels a game lacks play at random.
    fn bot(level: Level, seed: u64) -> Box<dyn Bot<Self> + Send>;
    /// The games of a match or session that have ended so far, in order (backgammon and
    /// Never-Finishing; the other games are single games and list none).
    fn finished(&self) -> Vec<Finished> {
        Vec::new()
    }
    /// How many games of the match or session have ended (cheaper than [`Face::finished`]).
    fn games_over(&self) -> usize {
        0
    }
    /// The result when `loser` forfeits now for `reason` (running out of time, resigning
    /// through the server, abandoning a game; [`crate::time_out`]); by default the game is
    /// lost (1 point).
    fn forfeit(&self, loser: Color, reason: EndReason) -> Outcome {
        crate::time_out::game_lost(loser, reason)
    }
    /// The result when `loser` runs out of time now: [`Face::forfeit`] for
    /// [`EndReason::TimeOut`].
    fn time_out(&self, loser: Color) -> Outcome {
        self.forfeit(loser, EndReason::TimeOut)
    }
    /// Whether a resignation is an action of the game's own rules (backgammon: offered at a
    /// level, accepted or rejected); otherwise the server ends the game at once
    /// ([`Face::forfeit`] with [`EndReason::Conceded`]).
    const RESIGNS_BY_RULES: bool = false;
}

/// One finished game of a backgammon or Never-Finishing match or session.
#[derive(Debug, Clone, PartialEq)]
pub struct Finished {
    /// The game's number in the session, from 1.
    pub number: u32,
    /// Its result and the rule that ended it.
    pub outcome: Outcome,
    /// The score after it.
    pub score: ByColor<u32>,
    /// Its final board as White sees it, in the view's `board` shape.
    pub board: Value,
}

/// Applies the action `text` names and returns its canonical text; a refusal changes
/// nothing.
pub fn apply_text<F: Face>(game: &mut F, text: &str) -> Result<String, ActionError> {
    match game.status() {
        Status::Decide { .. } => {}
        Status::Over(_) => return Err(ActionError::Over),
        Status::Chance(_) => return Err(ActionError::Roll),
    }
    let text = text.trim();
    let action = game.parse(text)?;
    let canonical = game.text(&action);
    game.apply(&action)
        .map_err(|_| ActionError::NotLegal(text.to_string()))?;
    Ok(canonical)
}

/// The action a bot of `level` (seeded with `seed`) chooses now, in canonical text; `None`
/// when no decision is due.
pub fn bot_text<F: Face>(game: &F, level: Level, seed: u64) -> Option<String> {
    if !matches!(game.status(), Status::Decide { .. }) {
        return None;
    }
    let action = F::bot(level, seed).choose(game)?;
    Some(game.text(&action))
}
