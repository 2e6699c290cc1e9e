//! A backgammon session: a match to N points or a run of money games, the score carried from
//! game to game, the Crawford rule, and the log of everything that happened.

use super::action::{Action, GameResult};
use super::error::BackgammonError;
use super::game::GameState;
use super::options::{Mode, Options, OptionsError};
use crate::ledger::{Ledger, Scored, Stakes};
use crate::movegen::{MoveGen, Reusable};
use tabula_core::{ByColor, Color, DiceRoll, EndReason, Game, GameId, Status};

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
    crawford_played: bool,
    game: GameState,
    ledger: Ledger<GameResult, Event>,
    gen: Reusable<MoveGen>,
}

impl Scored for GameResult {
    fn winner(&self) -> Option<Color> {
        Some(self.winner)
    }

    fn points(&self) -> u32 {
        self.points
    }

    fn reason(&self) -> EndReason {
        self.reason
    }
}

impl Backgammon {
    /// A new session; its first game waits for the opening roll.
    pub fn new(options: Options) -> Result<Backgammon, OptionsError> {
        options.validate()?;
        let mut session = Backgammon {
            options,
            crawford_played: false,
            game: GameState::new(options, true),
            ledger: Ledger::new(ByColor::default(), 0),
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
            crawford_played,
            game,
            ledger: Ledger::new(score, 1),
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
        self.ledger.score
    }

    /// Results of the finished games, in order.
    pub fn results(&self) -> &[GameResult] {
        &self.ledger.results
    }

    /// Everything that happened, in order.
    pub fn events(&self) -> &[Event] {
        &self.ledger.events
    }

    /// The number of the current game, from 1.
    pub fn game_number(&self) -> u32 {
        self.ledger.games
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
        self.ledger.over
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
                        .any(|&c| self.ledger.score[c] + 1 == u32::from(length))
            }
            _ => false,
        };
        if crawford {
            self.crawford_played = true;
        }
        self.ledger.games += 1;
        self.game = GameState::new(self.options, !crawford);
        self.ledger.events.push(Event::GameStart {
            number: self.ledger.games,
            crawford,
        });
    }

    /// Scores a finished game and starts the next one unless the session is over.
    fn after_change(&mut self) {
        let Some(result) = self.game.result() else {
            return;
        };
        self.ledger.finish_game(result, Event::GameOver(result));
        self.ledger.over = match self.options.mode {
            Mode::Match { length, .. } => self.ledger.score[result.winner] >= u32::from(length),
            Mode::Money { games, .. } => self.ledger.money_done(games),
        };
        if !self.ledger.over {
            self.start_game();
        }
    }
}

impl Backgammon {
    /// What the session is played for, as its ledger scores it.
    fn stakes(&self) -> Stakes {
        match self.options.mode {
            Mode::Match { length, .. } => Stakes::Match(length),
            Mode::Money { .. } => Stakes::Money,
        }
    }
}

impl Game for Backgammon {
    type Action = Action;
    type Error = BackgammonError;

    fn id(&self) -> GameId {
        GameId::Backgammon
    }

    fn status(&self) -> Status {
        if self.ledger.over {
            Status::Over(self.ledger.outcome(self.stakes()))
        } else {
            self.game.status()
        }
    }

    fn legal_actions(&self) -> Vec<Action> {
        if self.ledger.over {
            return Vec::new();
        }
        self.game.legal_actions(&mut MoveGen::new())
    }

    fn apply(&mut self, action: &Action) -> Result<(), BackgammonError> {
        if self.ledger.over {
            return Err(BackgammonError::GameOver);
        }
        let Status::Decide { player, .. } = self.game.status() else {
            return Err(BackgammonError::DiceNeeded);
        };
        self.game.apply(action, &mut self.gen.0)?;
        self.ledger.events.push(Event::Acted {
            player,
            action: *action,
        });
        self.after_change();
        Ok(())
    }

    fn roll(&mut self, roll: DiceRoll) -> Result<(), BackgammonError> {
        if self.ledger.over {
            return Err(BackgammonError::GameOver);
        }
        let player = match self.game.status() {
            Status::Chance(tabula_core::Chance::Roll(p)) => Some(p),
            Status::Chance(tabula_core::Chance::Opening) => None,
            _ => return Err(BackgammonError::NoDiceNeeded),
        };
        let mover = player.unwrap_or(self.game.turn());
        let passed = self.game.roll(roll, &mut self.gen.0)?;
        self.ledger.events.push(Event::Rolled { player, roll });
        if passed {
            let who = if player.is_some() {
                mover
            } else {
                !self.game.turn()
            };
            self.ledger.events.push(Event::NoMove { player: who });
        }
        self.after_change();
        Ok(())
    }
}
