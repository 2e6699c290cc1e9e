//! The self-play harness: N games of any [`Game`] between two bots built by the per-game
//! factories of [`crate::bots`], played in parallel and summarised ([`stats`]).
//!
//! Reproducibility is the design constraint. Game `g` draws everything from the master seed
//! and `g` alone: its dice from `ChaChaDice::new(derive(seed, g))`, its bots from seeds
//! derived from the dice seed. Games run on a rayon pool of the chosen size and their
//! results are collected in game order, so the same seed gives the same games and the same
//! statistics whatever the thread count.
//!
//! In duplicate mode (dice games) games `2p` and `2p + 1` form a pair sharing the dice seed
//! of game `2p`, with the colours swapped in the second: luck in the dice cancels within the
//! pair, which is why the confidence interval is then computed over pair means. Each player
//! keeps its bot seed within the pair, so game `2p` is the same game in either mode.
//!
//! A game that does not end within [`Config::max_actions`] actions is an error, not a draw:
//! it means a bot or a rule is broken, and a silent draw would hide it in the statistics.

pub mod stats;

use crate::bots::NoSuchBot;
use crate::{Bot, Level};
use rayon::prelude::*;
use stats::{GameResult, Summary};
use tabula_core::{ByColor, ChaChaDice, Color, Decision, DiceSource, Game, Outcome, Status};
use thiserror::Error;

/// A per-game bot factory, as [`crate::bots`] has one for each game.
pub type Factory<G> = dyn Fn(Level, u64) -> Result<Box<dyn Bot<G> + Send>, NoSuchBot> + Sync;

/// How a finished game counts in "points per game".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scoring {
    /// The points of the game's [`Outcome`] (money games: the cube value times single,
    /// gammon or backgammon).
    Points,
    /// One point for a win, whatever the margin (matches: a match won is a match won).
    Wins,
}

/// What to play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// How many games (in duplicate mode an even number: pairs of games).
    pub games: u64,
    /// The `--white` player's level (it plays Black in the second game of a duplicate pair).
    pub white: Level,
    /// The `--black` player's level.
    pub black: Level,
    /// The master seed every game's dice and bots derive from.
    pub seed: u64,
    /// Worker threads; `None` for one per core.
    pub threads: Option<usize>,
    /// Play each dice sequence twice with the colours swapped.
    pub duplicate: bool,
    /// How a game scores.
    pub scoring: Scoring,
    /// The most actions one game may take before the run fails.
    pub max_actions: u64,
    /// The first this many actions of every game are drawn uniformly at random (by the
    /// game's `random` bot, seeded from the game), then the two bots take over: the dice-free
    /// games' searches are deterministic, so this is how their games vary. In duplicate
    /// mode both games of a pair open alike.
    pub opening_plies: u64,
}

impl Config {
    /// `games` games between `white` and `black` from `seed`, on every core, scoring the
    /// outcome's points, with a cap of 100,000 actions per game.
    pub fn new(games: u64, white: Level, black: Level, seed: u64) -> Config {
        Config {
            games,
            white,
            black,
            seed,
            threads: None,
            duplicate: false,
            scoring: Scoring::Points,
            max_actions: 100_000,
            opening_plies: 0,
        }
    }
}

/// Why a run failed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SelfplayError {
    /// A level the game has no bot for.
    #[error(transparent)]
    NoSuchBot(#[from] NoSuchBot),
    /// Zero games asked for.
    #[error("at least one game must be played")]
    NoGames,
    /// Duplicate mode with an odd number of games.
    #[error("duplicate mode plays games in pairs: {0} is odd")]
    OddDuplicate(u64),
    /// The thread pool could not be built.
    #[error("cannot start {threads} worker threads: {reason}")]
    Threads {
        /// The threads asked for.
        threads: usize,
        /// The pool's complaint.
        reason: String,
    },
    /// A game passed the action cap.
    #[error("game {game} did not end within {max} actions")]
    TooLong {
        /// The game's index (from 0).
        game: u64,
        /// The cap.
        max: u64,
    },
    /// A bot had no action for a decision.
    #[error("game {game}: the {player} bot found no action")]
    NoAction {
        /// The game's index.
        game: u64,
        /// The bot's colour.
        player: Color,
    },
    /// A bot (or the game) panicked.
    #[error("game {game}: a bot panicked: {message}")]
    Panicked {
        /// The game's index.
        game: u64,
        /// The panic's message.
        message: String,
    },
    /// The game refused a bot's action or a roll.
    #[error("game {game}: {what} was refused: {reason}")]
    Refused {
        /// The game's index.
        game: u64,
        /// What was refused ("White's action 13/7 8/7", "the roll 6-5").
        what: String,
        /// The game's error.
        reason: String,
    },
}

/// One game played.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GameRecord {
    /// The game's index, from 0.
    pub index: u64,
    /// The seed of its dice.
    pub dice_seed: u64,
    /// How it ended.
    pub outcome: Outcome,
    /// What the statistics take from it.
    pub result: GameResult,
}

/// A finished run: every game in order and the statistics.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The games, in game order.
    pub games: Vec<GameRecord>,
    /// The statistics over them.
    pub summary: Summary,
}

/// A seed for stream `n` of `seed`: SplitMix64's finaliser over both, so that neighbouring
/// game numbers give unrelated ChaCha streams.
pub fn derive(seed: u64, n: u64) -> u64 {
    let mut z = seed
        .wrapping_add(n.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays the run: `new_game` makes each game's start, `factory` each bot; `progress` is
/// called once per finished game, from whichever thread finished it.
///
/// Both levels are asked of the factory before any game starts, so a level the game lacks
/// fails at once. The first failing game (in game order) fails the run.
pub fn run<G, N>(
    config: &Config,
    new_game: N,
    factory: &Factory<G>,
    progress: &(dyn Fn() + Sync),
) -> Result<Report, SelfplayError>
where
    G: Game + Send,
    N: Fn() -> G + Sync,
{
    if config.games == 0 {
        return Err(SelfplayError::NoGames);
    }
    if config.duplicate && config.games % 2 == 1 {
        return Err(SelfplayError::OddDuplicate(config.games));
    }
    factory(config.white, 0)?;
    factory(config.black, 0)?;
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(threads) = config.threads {
        builder = builder.num_threads(threads);
    }
    let pool = builder.build().map_err(|e| SelfplayError::Threads {
        threads: config.threads.unwrap_or(0),
        reason: e.to_string(),
    })?;
    let played: Vec<Result<GameRecord, SelfplayError>> = pool.install(|| {
        (0..config.games)
            .into_par_iter()
            .map(|g| {
                // A panicking bot fails its game, named, rather than tearing the pool down.
                let record = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    play_one(config, g, &new_game, factory)
                }))
                .unwrap_or_else(|payload| {
                    let message = payload
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| payload.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "a panic".to_string());
                    Err(SelfplayError::Panicked { game: g, message })
                });
                progress();
                record
            })
            .collect()
    });
    let games = played.into_iter().collect::<Result<Vec<_>, _>>()?;
    let results: Vec<GameResult> = games.iter().map(|r| r.result).collect();
    let summary = Summary::new(config.white, config.black, config.duplicate, &results);
    Ok(Report { games, summary })
}

/// Plays game `g` to its end.
fn play_one<G: Game>(
    config: &Config,
    g: u64,
    new_game: &(impl Fn() -> G + Sync),
    factory: &Factory<G>,
) -> Result<GameRecord, SelfplayError> {
    let swapped = config.duplicate && g % 2 == 1;
    let dice_seed = derive(config.seed, if config.duplicate { g & !1 } else { g });
    let first = factory(config.white, derive(dice_seed, 1))?;
    let second = factory(config.black, derive(dice_seed, 2))?;
    let mut bots = if swapped {
        ByColor {
            white: second,
            black: first,
        }
    } else {
        ByColor {
            white: first,
            black: second,
        }
    };
    let mut opener = match config.opening_plies {
        0 => None,
        _ => Some(factory(Level::Random, derive(dice_seed, 3))?),
    };
    let mut dice = ChaChaDice::new(dice_seed);
    let mut game = new_game();
    let (mut moves, mut actions, mut rolls) = (0u64, 0u64, 0u64);
    let too_long = || SelfplayError::TooLong {
        game: g,
        max: config.max_actions,
    };
    loop {
        match game.status() {
            Status::Over(outcome) => {
                let signed = match config.scoring {
                    Scoring::Points => f64::from(outcome.points),
                    Scoring::Wins => 1.0,
                };
                let white_points = match outcome.winner {
                    Some(Color::White) => signed,
                    Some(Color::Black) => -signed,
                    None => 0.0,
                };
                return Ok(GameRecord {
                    index: g,
                    dice_seed,
                    outcome,
                    result: GameResult {
                        swapped,
                        white_points,
                        moves,
                        actions,
                        end: outcome.reason.code(),
                    },
                });
            }
            Status::Chance(_) => {
                // Opening ties re-roll; a game stuck rolling is as broken as one stuck moving.
                rolls += 1;
                if rolls > config.max_actions {
                    return Err(too_long());
                }
                let roll = dice.roll();
                game.roll(roll).map_err(|e| SelfplayError::Refused {
                    game: g,
                    what: format!("the roll {roll}"),
                    reason: e.to_string(),
                })?;
            }
            Status::Decide { player, decision } => {
                if actions >= config.max_actions {
                    return Err(too_long());
                }
                let bot = match opener.as_mut() {
                    Some(opener) if actions < config.opening_plies => opener,
                    _ => &mut bots[player],
                };
                let action = bot
                    .choose(&game)
                    .ok_or(SelfplayError::NoAction { game: g, player })?;
                game.apply(&action).map_err(|e| SelfplayError::Refused {
                    game: g,
                    what: format!("{player}'s action {action:?}"),
                    reason: e.to_string(),
                })?;
                actions += 1;
                if decision == Decision::Move {
                    moves += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots;
    use tabula_grasshopper::{Checkers, Grasshopper};
    use tabula_tables::backgammon::{Backgammon, Options};

    /// Random movers that roll rather than double and never resign: the harness is tested
    /// apart from the evaluator.
    fn random_backgammon(
        _level: Level,
        seed: u64,
    ) -> Result<Box<dyn Bot<Backgammon> + Send>, NoSuchBot> {
        use tabula_tables::backgammon::Action as A;
        Ok(Box::new(crate::RandomBot::<Backgammon>::new(seed, |a| {
            matches!(a, A::Roll | A::Take | A::Move(_))
        })))
    }

    /// A money session of one game.
    fn one_game() -> Backgammon {
        let mut options = Options::money();
        if let tabula_tables::backgammon::Mode::Money { games, .. } = &mut options.mode {
            *games = Some(1);
        }
        Backgammon::new(options).expect("money options are valid")
    }

    fn backgammon_run(config: &Config) -> Report {
        run(config, one_game, &random_backgammon, &|| {}).expect("random bots finish their games")
    }

    #[test]
    fn derived_seeds_differ_between_games_and_seeds() {
        assert_ne!(derive(1, 0), derive(1, 1));
        assert_ne!(derive(1, 0), derive(2, 0));
        assert_eq!(derive(7, 3), derive(7, 3));
    }

    #[test]
    fn the_thread_count_changes_nothing() {
        let mut config = Config::new(12, Level::Random, Level::Random, 5);
        config.threads = Some(1);
        let one = backgammon_run(&config);
        config.threads = Some(3);
        let three = backgammon_run(&config);
        assert_eq!(one, three);
        assert_eq!(one.summary.by_colour.games(), 12);
    }

    #[test]
    fn duplicate_pairs_share_dice_and_swap_colours() {
        let mut config = Config::new(6, Level::Easy, Level::Random, 9);
        config.duplicate = true;
        let report = backgammon_run(&config);
        for pair in report.games.chunks(2) {
            assert_eq!(pair[0].dice_seed, pair[1].dice_seed);
            assert!(!pair[0].result.swapped && pair[1].result.swapped);
        }
        // Game 2p is the same game in either mode.
        config.duplicate = false;
        let plain = backgammon_run(&config);
        assert_eq!(plain.games[2].outcome, report.games[2].outcome);
        assert_eq!(plain.games[2].result, report.games[2].result);
        config.games = 5;
        config.duplicate = true;
        let odd = run(&config, one_game, &random_backgammon, &|| {});
        assert_eq!(odd, Err(SelfplayError::OddDuplicate(5)));
    }

    #[test]
    fn missing_levels_and_runaway_games_are_errors() {
        let checkers = Checkers::new(4).unwrap();
        // A factory with only the random bot, as every game had before its bots came.
        let random_only = |level: Level, seed: u64| match level {
            Level::Random => bots::grasshopper(level, seed),
            _ => Err(NoSuchBot {
                game: tabula_core::GameId::Grasshopper,
                level,
                available: "random".to_string(),
            }),
        };
        let config = Config::new(2, Level::Strong, Level::Random, 1);
        let err = run(&config, || Grasshopper::new(checkers), &random_only, &|| {});
        assert!(matches!(err, Err(SelfplayError::NoSuchBot(_))), "{err:?}");
        let mut config = Config::new(2, Level::Random, Level::Random, 1);
        config.max_actions = 3;
        let err = run(
            &config,
            || Grasshopper::new(checkers),
            &bots::grasshopper,
            &|| {},
        );
        assert_eq!(err, Err(SelfplayError::TooLong { game: 0, max: 3 }));
    }

    /// A bot that counts its decisions.
    struct Counting<'a> {
        inner: Box<dyn Bot<Grasshopper> + Send>,
        count: &'a std::sync::atomic::AtomicU64,
    }

    impl Bot<Grasshopper> for Counting<'_> {
        fn choose(&mut self, game: &Grasshopper) -> Option<tabula_grasshopper::Action> {
            self.count
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            self.inner.choose(game)
        }
    }

    #[test]
    fn the_opening_plies_are_random_and_the_bots_play_the_rest() {
        use std::sync::atomic::{AtomicU64, Ordering};
        static RANDOM: AtomicU64 = AtomicU64::new(0);
        static BOTS: AtomicU64 = AtomicU64::new(0);
        let checkers = Checkers::new(4).unwrap();
        let factory =
            |level: Level, seed: u64| -> Result<Box<dyn Bot<Grasshopper> + Send>, NoSuchBot> {
                let count = if level == Level::Random {
                    &RANDOM
                } else {
                    &BOTS
                };
                Ok(Box::new(Counting {
                    inner: bots::grasshopper(level, seed)?,
                    count,
                }))
            };
        let mut config = Config::new(3, Level::Medium, Level::Medium, 5);
        config.opening_plies = 4;
        config.threads = Some(1);
        let report = run(&config, || Grasshopper::new(checkers), &factory, &|| {}).unwrap();
        let actions: u64 = report.games.iter().map(|g| g.result.actions).sum();
        assert_eq!(RANDOM.load(Ordering::Relaxed), 3 * 4);
        assert_eq!(BOTS.load(Ordering::Relaxed), actions - 3 * 4);
    }

    #[test]
    fn progress_is_reported_once_per_game() {
        let count = std::sync::atomic::AtomicU64::new(0);
        let checkers = Checkers::new(4).unwrap();
        let config = Config::new(10, Level::Random, Level::Random, 3);
        let report = run(
            &config,
            || Grasshopper::new(checkers),
            &bots::grasshopper,
            &|| {
                count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            },
        )
        .unwrap();
        assert_eq!(count.into_inner(), 10);
        assert_eq!(report.games.len(), 10);
    }
}
