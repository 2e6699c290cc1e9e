//! The four games as the server drives them: created from JSON options, actions read and
//! written as text (the notation of each game), a JSON view of the state for clients, and
//! the bots. Each game's face ([`tabula_games::Face`], one folder per game in
//! `crates/games`) gives the text, the JSON and the bots, and its options
//! ([`GameOptionsFace`]) their shape, defaults, words and the game they make; this module
//! lists the games' options in one enum, [`GameOptions`] (one line per game, the only place
//! that names them), and adds the wire's end-of-game shapes and one type, [`Table`], over the
//! four (each game's face behind [`AnyFace`]).
//!
//! A game's log stores every action by its canonical text (the text [`Table::legal`] lists),
//! so that replaying the log through [`Table::apply_text`] rebuilds the state exactly.

#[cfg(test)]
mod time_out;

pub(crate) use tabula_games::backgammon::board_json;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tabula_ai::Level;
use tabula_core::{ByColor, Color, DiceRoll, EndReason, Game, GameId, Outcome, SessionEnd, Status};
use tabula_games::{
    backgammon, grasshopper, halma, never_finishing, tagged_schema, AnyFace, AnyOptions, Face,
    GameOptionsFace,
};
use utoipa::openapi::schema::{OneOfBuilder, Schema};
use utoipa::openapi::RefOr;
use utoipa::{PartialSchema, ToSchema};

/// Declares [`GameOptions`] from one line per game, `Variant(module)`: the variant (its
/// kebab-case name is the game's tag in JSON) holds `module::Options`, that game's
/// [`GameOptionsFace`] written beside its face in `crates/games`, and every method delegates
/// to it.
macro_rules! game_options {
    ($($(#[$doc:meta])* $variant:ident($game:ident),)*) => {
        /// The options of a new game, one shape per game. Every field has a default.
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "game", rename_all = "kebab-case")]
        pub enum GameOptions {
            $($(#[$doc])* $variant($game::Options),)*
        }

        impl GameOptions {
            /// The game's own options behind one type.
            fn face(&self) -> &dyn AnyOptions {
                match self {
                    $(GameOptions::$variant(options) => options,)*
                }
            }

            /// The options with the defaults that depend on other options filled in (the
            /// Halma evacuation deadline), as a created game stores them: a later change of
            /// a default then cannot change how a stored game replays.
            pub fn resolved(&self) -> GameOptions {
                match self {
                    $(GameOptions::$variant(options) => {
                        GameOptions::$variant(options.resolved())
                    })*
                }
            }
        }

        /// The schema utoipa derives for an enum tagged by `game` whose variants have named
        /// fields: one object per game, its fields and the tag.
        impl PartialSchema for GameOptions {
            fn schema() -> RefOr<Schema> {
                OneOfBuilder::new()
                    $(.item(tagged_schema::<$game::Options>()))*
                    .description(Some(
                        "The options of a new game, one shape per game. Every field has a default.",
                    ))
                    .into()
            }
        }
    };
}

game_options! {
    /// Backgammon ([`backgammon::Options`]).
    Backgammon(backgammon),
    /// Never-Finishing backgammon ([`never_finishing::Options`]).
    NeverFinishing(never_finishing),
    /// Grasshopper ([`grasshopper::Options`]).
    Grasshopper(grasshopper),
    /// Grasshopper (Halma) ([`halma::Options`]).
    HalmaGrasshopper(halma),
}

impl ToSchema for GameOptions {}

impl GameOptions {
    /// Which game the options are for.
    pub fn game_id(&self) -> GameId {
        self.face().game_id()
    }

    /// The options in words, as the lobby shows an open seat: `5-point match`, `money game,
    /// beavers, Jacoby rule`, `14 checkers each`, `10×10 board, evacuation after move 50`.
    pub fn describe(&self) -> String {
        self.face().describe()
    }

    /// The match length, for the rating formulas of matches (FIBS); `None` otherwise.
    pub fn match_length(&self) -> Option<u32> {
        self.face().match_length()
    }
}

/// How a game ended, as views give it (`view.result`, and each entry of `view.games`): the
/// winner, the points, a stable code and a sentence naming the players.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct GameEnd {
    /// `white`, `black`, or null for a draw.
    #[schema(value_type = Option<String>)]
    pub winner: Option<Color>,
    /// Points won: a game's points; for a whole match or money session, the difference of
    /// the final scores.
    pub points: u32,
    /// Why it ended, a stable kebab-case code: one game's rule (`single`, `gammon`,
    /// `backgammon`, `jacoby-single`, `cube-dropped`, `resigned-single`, `resigned-gammon`,
    /// `resigned-backgammon`, `dead-position`, `scored-twice`, `both-passed`,
    /// `no-checkers-left`, `all-in-camp`, `not-evacuated`, `returned-to-camp`, `repetition`,
    /// `ply-limit`, `agreement`), or for a whole match `match-won` and for a money session of
    /// several games `session-complete`.
    pub code: String,
    /// The result in one sentence naming the players: who won what, and why (`Bob wins 2
    /// points: Bob bore off all their checkers before Ann bore off any (a gammon).`).
    pub sentence: String,
}

impl GameEnd {
    /// `outcome` told with the players' `names`.
    pub fn new(outcome: &Outcome, names: ByColor<&str>) -> GameEnd {
        GameEnd {
            winner: outcome.winner,
            points: outcome.points,
            code: outcome.code().to_string(),
            sentence: outcome.sentence(names),
        }
    }
}

/// One finished game inside a backgammon or Never-Finishing match or session, as
/// `view.games` lists them: the game's number, its [`GameEnd`], the score after it and its
/// final position.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct FinishedGame {
    /// The game's number, from 1.
    pub number: u32,
    /// How it ended.
    #[serde(flatten)]
    pub end: GameEnd,
    /// The score after it: `{"white", "black"}`.
    #[schema(value_type = Object)]
    pub score: ByColor<u32>,
    /// Its final position as White sees it, in the shape of the view's `board`.
    #[schema(value_type = Object)]
    pub board: Value,
}

/// One game of any of the four kinds ([`AnyFace`]: the game's face behind one type).
#[derive(Clone)]
pub struct Table(Box<dyn AnyFace>);

impl Table {
    /// A new game with these options, or why they are refused (each game's
    /// [`GameOptionsFace::new_game`]).
    pub fn new(options: &GameOptions) -> Result<Table, String> {
        options
            .face()
            .new_face()
            .map(Table)
            .map_err(|e| e.to_string())
    }

    /// The backgammon session, when the game is one (for the analysis and the exports).
    pub fn backgammon(&self) -> Option<&tabula_tables::backgammon::Backgammon> {
        self.0.as_any().downcast_ref()
    }

    /// Where the game stands.
    pub fn status(&self) -> Status {
        self.0.status()
    }

    /// Whether the game uses dice.
    pub fn has_dice(&self) -> bool {
        self.0.has_dice()
    }

    /// The canonical texts of the legal actions of the deciding player.
    pub fn legal(&self) -> Vec<String> {
        self.0.legal_texts()
    }

    /// Applies the action `text` names and returns its canonical text; a refusal (with the
    /// reason) changes nothing.
    pub fn apply_text(&mut self, text: &str) -> Result<String, String> {
        self.0.apply_text(text).map_err(|e| e.to_string())
    }

    /// The backgammon decision the action `text` makes now, as the analysis reads it: the
    /// session before it, the decider, the action and the dice. `None` for the other games,
    /// or when `text` names no legal action.
    pub fn backgammon_decision(&self, text: &str) -> Option<tabula_ai::study::analyse::Step> {
        let bg = self.backgammon()?;
        let Status::Decide { player, .. } = Game::status(bg) else {
            return None;
        };
        let action = bg.parse(text.trim()).ok()?;
        bg.legal_actions().contains(&action).then_some(())?;
        Some((bg.clone(), player, action, bg.game().dice()))
    }

    /// The Never-Finishing session, when the game is one (for the analysis).
    pub fn never_finishing(&self) -> Option<&tabula_tables::never_finishing::NeverFinishing> {
        self.0.as_any().downcast_ref()
    }

    /// The Never-Finishing chequer play the action `text` makes now, as the analysis reads
    /// it; `None` for the other games and actions.
    pub fn never_finishing_play(&self, text: &str) -> Option<tabula_ai::study::analyse_nf::NfStep> {
        use tabula_tables::never_finishing::Action as NfAction;
        let nf = self.never_finishing()?;
        let Status::Decide { player, .. } = Game::status(nf) else {
            return None;
        };
        let NfAction::Move(played) = nf.parse(text.trim()).ok()?;
        nf.legal_actions()
            .contains(&NfAction::Move(played))
            .then_some(())?;
        let game = nf.game();
        Some(tabula_ai::study::analyse_nf::NfStep {
            trapping: nf.options().trapping,
            game: u32::try_from(self.games_over())
                .unwrap_or(u32::MAX)
                .saturating_add(1),
            board: game.board(),
            player,
            dice: game.dice()?,
            played,
        })
    }

    /// Supplies dice at a chance node.
    pub fn roll(&mut self, roll: DiceRoll) -> Result<(), String> {
        self.0.roll(roll)
    }

    /// The result once the game is over, with the rule that ended it. A money session of
    /// one game (the server's money play) is that game's result; a longer session or a match
    /// is the whole session's.
    pub fn outcome(&self) -> Option<Outcome> {
        let Status::Over(outcome) = self.status() else {
            return None;
        };
        if let Some(SessionEnd::Money { games: 1, .. }) = outcome.session {
            if let Some(last) = self.0.finished().pop() {
                return Some(last.outcome);
            }
        }
        Some(outcome)
    }

    /// The games of a backgammon or Never-Finishing match or session that have ended, in
    /// order, told with the players' `names` (empty for the other games).
    pub fn finished_games(&self, names: ByColor<&str>) -> Vec<FinishedGame> {
        self.0
            .finished()
            .into_iter()
            .map(|f| FinishedGame {
                number: f.number,
                end: GameEnd::new(&f.outcome, names),
                score: f.score,
                board: f.board,
            })
            .collect()
    }

    /// How many games of a backgammon or Never-Finishing match or session have ended (0 for
    /// the other games).
    pub fn games_over(&self) -> usize {
        self.0.games_over()
    }

    /// The position in the game's own notation.
    pub fn notation(&self) -> String {
        self.0.notation()
    }

    /// The state for clients: the game's own fields, plus `status`, `legal`, `notation`,
    /// `result` (a [`GameEnd`] once over, else null) and, for the dice games, `games` (a
    /// [`FinishedGame`] per game of the session that has ended). `names` are the players'
    /// names, for the sentences.
    pub fn view(&self, names: ByColor<&str>) -> Value {
        let mut view = self.0.view();
        if let Value::Object(map) = &mut view {
            map.insert(
                "status".into(),
                serde_json::to_value(self.status()).unwrap_or_default(),
            );
            map.insert("legal".into(), Value::from(self.legal()));
            map.insert("notation".into(), Value::from(self.notation()));
            let result = self.outcome().map(|o| GameEnd::new(&o, names));
            map.insert("result".into(), json!(result));
            if self.has_dice() {
                map.insert("games".into(), json!(self.finished_games(names)));
            }
        }
        view
    }

    /// The action a bot of `level` (seeded with `seed`) chooses now, as canonical text;
    /// `None` when no decision is due.
    pub fn bot_action(&self, level: Level, seed: u64) -> Option<String> {
        self.0.bot_text(level, seed)
    }

    /// The result when `loser` runs out of time now (each game's rule: [`Face::time_out`],
    /// docs/rules/*.md, "Clocks").
    pub fn time_out(&self, loser: Color) -> Outcome {
        self.0.time_out(loser)
    }

    /// The result when `loser` forfeits now for `reason` ([`Face::forfeit`]: a resignation
    /// through the server, an abandoned game).
    pub fn forfeit(&self, loser: Color, reason: EndReason) -> Outcome {
        self.0.forfeit(loser, reason)
    }

    /// Whether the game resigns through an action of its rules (backgammon) rather than
    /// through the server ([`Face::RESIGNS_BY_RULES`]).
    pub fn resigns_by_rules(&self) -> bool {
        self.0.resigns_by_rules()
    }
}

#[cfg(test)]
mod tests;
