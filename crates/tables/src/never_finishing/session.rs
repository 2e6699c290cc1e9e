//! A Never-Finishing session: a match to N points or money games, the score carried from game
//! to game, the previous game's winner starting the next.

use super::game::{Action, NfError, NfGame, NfResult};
use crate::ledger::{Ledger, Scored, Stakes};
use crate::movegen::{Reusable, TablesGen, Trapping};
use tabula_core::{ByColor, Chance, Color, DiceRoll, EndReason, Game, GameId, Status};

/// Money games or a match; there is no cube.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// Games for points, carried from game to game; stop after `games` if given.
    Money {
        /// Stop after this many games.
        games: Option<u32>,
    },
    /// A match to `length` points (1..=64).
    Match {
        /// Points needed to win.
        length: u8,
    },
}

/// The options of a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NfOptions {
    /// Money or match.
    pub scoring: Scoring,
    /// Trapping is the game; switching it off leaves backgammon's hitting only.
    pub trapping: Trapping,
}

impl Default for NfOptions {
    fn default() -> NfOptions {
        NfOptions {
            scoring: Scoring::Match { length: 3 },
            trapping: Trapping::On,
        }
    }
}

/// Something that happened, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NfEvent {
    /// A game began (numbered from 1); `first` is the player who starts it without an opening
    /// roll (the previous game's winner).
    GameStart {
        /// Game number.
        number: u32,
        /// The starting player, if set by the previous game.
        first: Option<Color>,
    },
    /// Dice rolled: an opening roll (`player` is `None`; first die White's) or a turn's roll.
    Rolled {
        /// Who rolled.
        player: Option<Color>,
        /// The dice.
        roll: DiceRoll,
    },
    /// A player moved.
    Moved {
        /// Who.
        player: Color,
        /// The move.
        action: Action,
    },
    /// The roll allowed no move; the turn passed.
    NoMove {
        /// Who could not move.
        player: Color,
    },
    /// A game ended.
    GameOver(NfResult),
}

/// A Never-Finishing match or money session: the type the CLI, bots and server drive.
#[derive(Debug, Clone)]
pub struct NeverFinishing {
    options: NfOptions,
    game: NfGame,
    ledger: Ledger<NfResult, NfEvent>,
    gen: Reusable<TablesGen>,
}

impl Scored for NfResult {
    fn winner(&self) -> Option<Color> {
        self.winner
    }

    fn points(&self) -> u32 {
        self.points
    }

    fn reason(&self) -> EndReason {
        self.reason
    }
}

/// Why options were refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a match is 1 to 64 points long, not {0}")]
pub struct BadLength(pub u32);

impl NeverFinishing {
    /// A new session; the first game begins with the opening roll.
    pub fn new(options: NfOptions) -> Result<NeverFinishing, BadLength> {
        if let Scoring::Match { length } = options.scoring {
            if !(1..=64).contains(&length) {
                return Err(BadLength(length.into()));
            }
        }
        let mut s = NeverFinishing {
            options,
            game: NfGame::new(None, options.trapping),
            ledger: Ledger::new(ByColor::default(), 0),
            gen: Reusable::default(),
        };
        s.start_game(None);
        Ok(s)
    }

    /// A session whose current game is `game`, at the given score (analysis, tests).
    pub fn from_game(options: NfOptions, game: NfGame, score: ByColor<u32>) -> NeverFinishing {
        NeverFinishing {
            options,
            game,
            ledger: Ledger::new(score, 1),
            gen: Reusable::default(),
        }
    }

    /// The options.
    pub fn options(&self) -> &NfOptions {
        &self.options
    }

    /// The current game (after the end: the last one).
    pub fn game(&self) -> &NfGame {
        &self.game
    }

    /// The score.
    pub fn score(&self) -> ByColor<u32> {
        self.ledger.score
    }

    /// Results of the finished games.
    pub fn results(&self) -> &[NfResult] {
        &self.ledger.results
    }

    /// Everything that happened.
    pub fn events(&self) -> &[NfEvent] {
        &self.ledger.events
    }

    /// The current game's number, from 1.
    pub fn game_number(&self) -> u32 {
        self.ledger.games
    }

    /// Whether the session is over.
    pub fn is_over(&self) -> bool {
        self.ledger.over
    }

    fn start_game(&mut self, first: Option<Color>) {
        self.ledger.games += 1;
        self.game = NfGame::new(first, self.options.trapping);
        self.ledger.events.push(NfEvent::GameStart {
            number: self.ledger.games,
            first,
        });
    }

    fn after_change(&mut self) {
        let Some(result) = self.game.result() else {
            return;
        };
        self.ledger.finish_game(result, NfEvent::GameOver(result));
        self.ledger.over = match self.options.scoring {
            Scoring::Match { length } => Color::ALL
                .iter()
                .any(|&c| self.ledger.score[c] >= u32::from(length)),
            Scoring::Money { games } => self.ledger.money_done(games),
        };
        if !self.ledger.over {
            // The winner of the previous game goes first; after a draw, the opening roll.
            self.start_game(result.winner);
        }
    }
}

impl NeverFinishing {
    /// What the session is played for, as its ledger scores it.
    fn stakes(&self) -> Stakes {
        match self.options.scoring {
            Scoring::Match { length } => Stakes::Match(length),
            Scoring::Money { .. } => Stakes::Money,
        }
    }
}

impl Game for NeverFinishing {
    type Action = Action;
    type Error = NfError;

    fn id(&self) -> GameId {
        GameId::NeverFinishing
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
        self.game.legal_actions(&mut TablesGen::new())
    }

    fn apply(&mut self, action: &Action) -> Result<(), NfError> {
        if self.ledger.over {
            return Err(NfError::GameOver);
        }
        let player = self.game.turn();
        self.game.apply(action, &mut self.gen.0)?;
        self.ledger.events.push(NfEvent::Moved {
            player,
            action: *action,
        });
        self.after_change();
        Ok(())
    }

    fn roll(&mut self, roll: DiceRoll) -> Result<(), NfError> {
        if self.ledger.over {
            return Err(NfError::GameOver);
        }
        let player = match self.game.status() {
            Status::Chance(Chance::Opening) => None,
            Status::Chance(Chance::Roll(p)) => Some(p),
            _ => return Err(NfError::NoDiceNeeded),
        };
        let passed = self.game.roll(roll, &mut self.gen.0)?;
        self.ledger.events.push(NfEvent::Rolled { player, roll });
        if let (true, Some(p)) = (passed, player) {
            self.ledger.events.push(NfEvent::NoMove { player: p });
        }
        self.after_change();
        Ok(())
    }
}
