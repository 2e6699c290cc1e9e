//! The set-up of `tabula play grasshopper` (the dice-free backgammon variant): `--checkers`,
//! who plays each side, and the perfect bot.
//!
//! The bots: every level of [`tabula_ai::bots::grasshopper`] (`random` picks uniformly among
//! the legal actions), and `perfect`, which plays the exact solver's best move
//! ([`Solver::best_move`]: a won position stays won, a drawn one at least drawn). Solving takes
//! about a second for 4 checkers each and more than half an hour for 6, so `perfect` is offered
//! up to 4 checkers; both perfect sides share one solver and its table.

use super::table::{Seated, Setup};
use super::{bot_seed, parse_player};
use crate::error::bad_input;
use crate::input::grasshopper_checkers;
use crate::PlayArgs;
use anyhow::Result;
use std::cell::RefCell;
use std::rc::Rc;
use tabula_ai::{bots, Bot, Level};
use tabula_core::{ByColor, GameId};
use tabula_grasshopper::solver::Solver;
use tabula_grasshopper::{Action, Checkers, Grasshopper};

/// The largest checker count the perfect bot plays: solving 4 each takes about a second, 6
/// each more than half an hour (`docs/grasshopper-solved.md`).
pub const PERFECT_MAX_CHECKERS: u8 = 4;

/// Who plays one side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Player {
    /// A person at the keyboard.
    Human,
    /// A bot of this level from [`tabula_ai::bots::grasshopper`].
    Bot(Level),
    /// The exact solver's best move.
    Perfect,
}

impl Player {
    /// The name in the opening line; `None` for a person.
    pub fn bot_name(self) -> Option<String> {
        match self {
            Player::Human => None,
            Player::Bot(level) => Some(level.to_string()),
            Player::Perfect => Some("perfect".to_string()),
        }
    }
}

/// `human`, a bot level the factory has, or `perfect` for one side (`perfect` only up to 4
/// checkers each).
fn player(text: &str, flag: &str, checkers: Checkers) -> Result<Player> {
    if text.eq_ignore_ascii_case("perfect") {
        if checkers.get() > PERFECT_MAX_CHECKERS {
            return Err(bad_input(format!(
                "{flag} perfect plays only up to --checkers {PERFECT_MAX_CHECKERS}: the exact \
                 solver needs more than half an hour for 6 checkers each, not {checkers} \
                 (use random)"
            )));
        }
        return Ok(Player::Perfect);
    }
    match parse_player(text, flag) {
        Ok(None) => Ok(Player::Human),
        Ok(Some(level)) => match bots::grasshopper(level, 0) {
            Ok(_) => Ok(Player::Bot(level)),
            Err(e) => Err(bad_input(format!("{flag} {level}: {e}, or perfect"))),
        },
        Err(_) => Err(bad_input(format!(
            "{flag} {text:?}: use human, a bot level (random, easy, medium, strong) or perfect"
        ))),
    }
}

/// The options of one game from the command line (`--checkers`); the backgammon and
/// Grasshopper (Halma) options are refused.
fn checkers_option(args: &PlayArgs) -> Result<Checkers> {
    let other_flags = [
        (args.match_length.is_some(), "--match"),
        (args.money, "--money"),
        (args.games.is_some(), "--games"),
        (args.no_crawford, "--no-crawford"),
        (args.no_beavers, "--no-beavers"),
        (args.no_jacoby, "--no-jacoby"),
        (args.auto_doubles != 0, "--auto-doubles"),
        (args.game.size.is_some(), "--size"),
        (args.ply_limit.is_some(), "--ply-limit"),
        (args.game.evacuation.is_some(), "--evacuation"),
    ];
    if let Some((_, flag)) = other_flags.iter().find(|(given, _)| *given) {
        return Err(bad_input(format!(
            "{flag} is not a grasshopper option: grasshopper is a single game without a cube \
             on the 24 points (its option is --checkers)"
        )));
    }
    grasshopper_checkers(args.game.checkers)
}

/// The perfect bot: the exact solver's best move, the solver made on its first use and shared
/// by both sides.
struct Perfect(Rc<RefCell<Option<Solver<'static>>>>);

impl Bot<Grasshopper> for Perfect {
    fn choose(&mut self, game: &Grasshopper) -> Option<Action> {
        let mut solver = self.0.borrow_mut();
        solver
            .get_or_insert_with(Solver::new)
            .best_move(game.position())
    }
}

/// The words that open the game ("Grasshopper with 14 checkers each") and who plays: White a
/// person, Black the perfect bot up to 4 checkers each and the random bot beyond, unless told
/// otherwise.
fn choice(args: &PlayArgs) -> Result<(Checkers, String, ByColor<Player>)> {
    let checkers = checkers_option(args)?;
    let default_black = if checkers.get() <= PERFECT_MAX_CHECKERS {
        "perfect"
    } else {
        "random"
    };
    let players = ByColor {
        white: player(&args.white, "--white", checkers)?,
        black: player(
            args.black.as_deref().unwrap_or(default_black),
            "--black",
            checkers,
        )?,
    };
    let what = format!(
        "{} with {checkers} checkers each",
        GameId::Grasshopper.display_name()
    );
    Ok((checkers, what, players))
}

/// A game of Grasshopper from the command line's options, with its bots.
pub fn setup(args: &PlayArgs, seed: u64) -> Result<Setup<Grasshopper>> {
    let (checkers, what, players) = choice(args)?;
    let solver = Rc::new(RefCell::new(None));
    let bots = ByColor::new_with(|c| {
        let bot: Box<dyn Bot<Grasshopper>> = match players[c] {
            Player::Human => return None,
            Player::Bot(level) => {
                bots::grasshopper(level, bot_seed(seed, c)).expect("the level was checked")
            }
            Player::Perfect => Box::new(Perfect(Rc::clone(&solver))),
        };
        Some(Seated {
            name: players[c].bot_name()?,
            bot,
        })
    });
    Ok(Setup {
        game: Grasshopper::new(checkers),
        what,
        bots,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_and_options_are_checked() {
        use clap::Parser;
        let parse = |extra: &[&str]| {
            let mut argv = vec!["tabula", "play", "grasshopper"];
            argv.extend_from_slice(extra);
            match crate::Cli::try_parse_from(argv).unwrap().command {
                crate::Command::Play(args) => {
                    choice(&args).map(|(_, what, players)| (what, players))
                }
                _ => unreachable!("a play command"),
            }
        };
        let (what, players) = parse(&[]).unwrap();
        assert_eq!(what, "Grasshopper with 14 checkers each");
        assert_eq!(players.white, Player::Human);
        assert_eq!(players.black, Player::Bot(Level::Random));
        let (what, players) = parse(&["--checkers", "4"]).unwrap();
        assert_eq!(what, "Grasshopper with 4 checkers each");
        assert_eq!(players.black, Player::Perfect);
        let (_, players) = parse(&["--checkers", "2", "--white", "perfect"]).unwrap();
        assert_eq!(players.white, Player::Perfect);
        for bad in [
            &["--black", "perfect"][..],
            &["--checkers", "6", "--white", "perfect"],
            &["--checkers", "5"],
            &["--white", "grandmaster"],
            &["--match", "3"],
            &["--money"],
            &["--size", "8"],
            &["--ply-limit", "9"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
        // Every level of the factory is offered, so a new level needs no CLI change.
        let (_, players) = parse(&["--black", "strong"]).unwrap();
        assert_eq!(players.black, Player::Bot(Level::Strong));
        let err = parse(&["--black", "perfect"]).unwrap_err().to_string();
        assert!(err.contains("up to --checkers 4"), "{err}");
    }
}
