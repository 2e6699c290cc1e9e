//! `tabula play`: a match, a money session or a single game in the terminal, people against
//! bots or each other.
//!
//! One loop ([`table`]) serves every game through its [`tabula_games::Terminal`], written in
//! the game's folder of `tabula-games` (narration, status line, drawing, help, reading plays
//! and commands). What stays here per game is only the set-up from the command line: the
//! options, who plays each side and the words that open the session ([`setup`], and
//! [`grasshopper`] with its perfect bot).
//!
//! The dice come from [`tabula_core::ChaChaDice`] seeded with `--seed` (or the clock,
//! printed), and the bots are seeded from the same seed, so a session between bots replays
//! exactly, and a session with people replays when they type the same things. What happened
//! is told from the session's narrator; people see the board from their side whenever they
//! must decide.

mod grasshopper;
mod setup;
mod table;

use crate::error::bad_input;
use crate::input::refuse_checkers;
use crate::PlayArgs;
use anyhow::Result;
use std::io::{BufRead, Write};
use table::{start, Seated};
use tabula_ai::bots::NoSuchBot;
use tabula_ai::{Bot, Level};
use tabula_core::{ByColor, Color, GameId};

/// `human` or a bot level.
pub(crate) fn parse_player(text: &str, flag: &str) -> Result<Option<Level>> {
    if text.eq_ignore_ascii_case("human") {
        return Ok(None);
    }
    text.to_ascii_lowercase()
        .parse::<Level>()
        .map(Some)
        .map_err(|_| {
            bad_input(format!(
                "{flag} {text:?}: use human or a bot level (random, easy, medium, strong)"
            ))
        })
}

/// A seed from the clock, short enough to type back.
pub(crate) fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    (nanos % 1_000_000_000) as u64
}

/// The seed of `color`'s bot: each bot draws its own random choices from the session seed,
/// apart from the dice (White's `seed + 1`, Black's `seed + 2`).
fn bot_seed(seed: u64, color: Color) -> u64 {
    seed.wrapping_add(1 + color.index() as u64)
}

/// Each side's bot from the game's factory in [`tabula_ai::bots`] (`None` for a person),
/// seeded with [`bot_seed`]; a level the game has no bot for is refused with the factory's
/// message. Every game builds its bots here, so a level added to a factory is playable
/// without changing the command.
fn make_bots<G: tabula_core::Game + 'static>(
    levels: ByColor<Option<Level>>,
    seed: u64,
    factory: impl Fn(Level, u64) -> Result<Box<dyn Bot<G> + Send>, NoSuchBot>,
) -> Result<ByColor<Option<Seated<G>>>> {
    let make = |c: Color| -> Result<_> {
        levels[c]
            .map(|level| {
                factory(level, bot_seed(seed, c)).map(|bot| Seated {
                    name: level.to_string(),
                    bot: bot as Box<dyn Bot<G>>,
                })
            })
            .transpose()
            .map_err(|e| bad_input(format!("--{c} {}: {e}", e.level)))
    };
    Ok(ByColor {
        white: make(Color::White)?,
        black: make(Color::Black)?,
    })
}

/// Runs the command, reading people's input from `input`.
pub fn run(args: &PlayArgs, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<()> {
    if args.game.id != GameId::Grasshopper {
        refuse_checkers(args.game.checkers, args.game.id)?;
    }
    let seed = args.seed.unwrap_or_else(clock_seed);
    match args.game.id {
        GameId::Backgammon => start(setup::backgammon(args, seed)?, seed, input, out),
        GameId::NeverFinishing => start(setup::never_finishing(args, seed)?, seed, input, out),
        GameId::HalmaGrasshopper => start(setup::halma(args, seed)?, seed, input, out),
        GameId::Grasshopper => start(grasshopper::setup(args, seed)?, seed, input, out),
    }
}
