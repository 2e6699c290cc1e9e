//! A backgammon session: a match to N points or a run of money games, the score carried from
//! game to game, the Crawford rule, and the log of everything that happened.

use super::action::{Action, GameResult};
use super::error::BackgammonError;
use super::game::GameState;
use super::options::{Mode, Options, OptionsError};
use crate::movegen::{MoveGen, Reusable};
use tabula_core::{ByColor, Color, DiceRoll, EndReason, Game, GameId, Outcome, SessionEnd, Status};

/// Something that happened in a session, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// A new game began (numbered from 1); `crawford` marks the Crawford game.
    GameStart {
        /// Game number.
        number: u32,
        /// Whether this is the Crawford game (no cube).
        crawford: bool,
    },
    /// Dice were rolled: at the opening (first die White's, second Black's) or for a player.
    Rolled {
        /// The player who rolled, `None` for an opening roll.
        player: Option<Color>,
        /// The dice.
        roll: DiceRoll,
    },
    /// A player acted.
    Acted {
        /// Who.
        player: Color,
        /// What.
        action: Action,
    },
    /// The roll left the player with no legal move; the turn passed.
    NoMove {
        /// Who could not move.
        player: Color,
    },
    /// A game ended.
    GameOver(GameResult),
}

/// A backgammon match or money session: the type the CLI, bots and server drive.
#[derive(Debug, Clone)]
pub struct Backgammon {
    options: Options,
    score: ByColor<u32>,
    crawford_played: bool,
    game: GameState,
    games: u32,
    results: Vec<GameResult>,
    events: Vec<Event>,
    over: bool,
    gen: Reusable<MoveGen>,
}

impl Backgammon {
    /// A new session; its first game waits for the opening roll.
    pub fn new(options: Options) -> Result<Backgammon, OptionsError> {
        options.validate()?;
        let mut session = Backgammon {
            options,
            score: ByColor::default(),
            crawford_played: false,
            game: GameState::new(options, true),
            games: 0,
            results: Vec::new(),
            events: Vec::new(),
            over: false,
            gen: Reusable::default(),
        };
        session.start_game();
        Ok(session)
    }

    /// A session whose current game is `game`, at the given score (for analysis of a position
    /// from an XGID or Match ID). `crawford_played` says whether the Crawford game is past.
    pub fn from_game(
        options: Options,
        game: GameState,
        score: ByColor<u32>,
        crawford_played: bool,
    ) -> Result<Backgammon, OptionsError> {
        options.validate()?;
        Ok(Backgammon {
            options,
            score,
            crawford_played,
            game,
            games: 1,
            results: Vec::new(),
            events: Vec::new(),
            over: false,
            gen: Reusable::default(),
        })
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The current game (after the session ends: the last game).
    pub fn game(&self) -> &GameState {
        &self.game
    }

    /// The score: match points, or money won so far (the loser's stays at 0 and the winner's
    /// grows; the net is the difference).
    pub fn score(&self) -> ByColor<u32> {
        self.score
    }

    /// Results of the finished games, in order.
    pub fn results(&self) -> &[GameResult] {
        &self.results
    }

    /// Everything that happened, in order.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The number of the current game, from 1.
    pub fn game_number(&self) -> u32 {
        self.games
    }

    /// Whether the current game is the Crawford game.
    pub fn is_crawford_game(&self) -> bool {
        matches!(self.options.mode, Mode::Match { crawford: true, .. }) && !self.game.cube_in_play()
    }

    /// Whether the Crawford game has been played (later games are post-Crawford).
    pub fn crawford_played(&self) -> bool {
        self.crawford_played
    }

    /// Whether the session has ended.
    pub fn is_over(&self) -> bool {
        self.over
    }

    fn start_game(&mut self) {
        let crawford = match self.options.mode {
            Mode::Match {
                length,
                crawford: true,
            } => {
                !self.crawford_played
                    && Color::ALL
                        .iter()
                        .any(|&c| self.score[c] + 1 == u32::from(length))
            }
            _ => false,
        };
        if crawford {
            self.crawford_played = true;
        }
        self.games += 1;
        self.game = GameState::new(self.options, !crawford);
        self.events.push(Event::GameStart {
            number: self.games,
            crawford,
        });
    }

    /// Scores a finished game and starts the next one unless the session is over.
    fn after_change(&mut self) {
        let Some(result) = self.game.result() else {
            return;
        };
        self.events.push(Event::GameOver(result));
        self.results.push(result);
        self.score[result.winner] += result.points;
        self.over = match self.options.mode {
            Mode::Match { length, .. } => self.score[result.winner] >= u32::from(length),
            Mode::Money { games, .. } => games.is_some_and(|g| self.games >= g),
        };
        if !self.over {
            self.start_game();
        }
    }
}

impl Backgammon {
    /// The outcome of the whole session once it is over: the match or the money session, and
    /// the reason its last game ended.
    fn session_outcome(&self) -> Outcome {
        let end = match self.options.mode {
            Mode::Match { length, .. } => SessionEnd::Match {
                length: length.into(),
                score: self.score,
            },
            Mode::Money { .. } => SessionEnd::Money {
                games: self.games,
                score: self.score,
            },
        };
        let last = self
            .results
            .last()
            .map_or(EndReason::BoreOffSingle, |r| r.reason);
        Outcome::from_session(end, last)
    }
}

impl Game for Backgammon {
    type Action = Action;
    type Error = BackgammonError;

    fn id(&self) -> GameId {
        GameId::Backgammon
    }

    fn status(&self) -> Status {
        if self.over {
            Status::Over(self.session_outcome())
        } else {
            self.game.status()
        }
    }

    fn legal_actions(&self) -> Vec<Action> {
        if self.over {
            return Vec::new();
        }
        self.game.legal_actions(&mut MoveGen::new())
    }

    fn apply(&mut self, action: &Action) -> Result<(), BackgammonError> {
        if self.over {
            return Err(BackgammonError::GameOver);
        }
        let Status::Decide { player, .. } = self.game.status() else {
            return Err(BackgammonError::DiceNeeded);
        };
        self.game.apply(action, &mut self.gen.0)?;
        self.events.push(Event::Acted {
            player,
            action: *action,
        });
        self.after_change();
        Ok(())
    }

    fn roll(&mut self, roll: DiceRoll) -> Result<(), BackgammonError> {
        if self.over {
            return Err(BackgammonError::GameOver);
        }
        let player = match self.game.status() {
            Status::Chance(tabula_core::Chance::Roll(p)) => Some(p),
            Status::Chance(tabula_core::Chance::Opening) => None,
            _ => return Err(BackgammonError::NoDiceNeeded),
        };
        let mover = player.unwrap_or(self.game.turn());
        let passed = self.game.roll(roll, &mut self.gen.0)?;
        self.events.push(Event::Rolled { player, roll });
        if passed {
            let who = if player.is_some() {
                mover
            } else {
                !self.game.turn()
            };
            self.events.push(Event::NoMove { player: who });
        }
        self.after_change();
        Ok(())
    }
}
