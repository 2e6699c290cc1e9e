//! The set-up of `tabula play` for backgammon, Never-Finishing and Grasshopper (Halma): the
//! game's options from the command line, who plays each side, and the words that open the
//! session. Everything after the set-up is the one loop of [`super::table`].

use super::table::Setup;
use super::{make_bots, parse_player};
use crate::error::bad_input;
use crate::input::halma_size;
use crate::PlayArgs;
use anyhow::Result;
use tabula_ai::{bots, Level};
use tabula_core::{ByColor, GameId};
use tabula_halma::{BoardSize, HalmaGrasshopper, HalmaOptions};
use tabula_tables::backgammon::{Backgammon, Mode, Options};
use tabula_tables::never_finishing::{BadLength, NeverFinishing, NfOptions, Scoring};
use tabula_tables::Trapping;

/// Refuses the Grasshopper (Halma) options for the backgammon games.
fn refuse_halma_options(args: &PlayArgs) -> Result<()> {
    let given = [
        (args.game.size.is_some(), "--size"),
        (args.ply_limit.is_some(), "--ply-limit"),
        (args.game.evacuation.is_some(), "--evacuation"),
    ];
    match given.iter().find(|(given, _)| *given) {
        Some((_, flag)) => Err(bad_input(format!(
            "{flag} is a halma-grasshopper option, not one of {}",
            args.game.id
        ))),
        None => Ok(()),
    }
}

/// The players of a backgammon game (`--black` defaults to `medium`), once the Grasshopper
/// (Halma) options are refused.
fn dice_game_levels(args: &PlayArgs) -> Result<ByColor<Option<Level>>> {
    refuse_halma_options(args)?;
    Ok(ByColor {
        white: parse_player(&args.white, "--white")?,
        black: parse_player(args.black.as_deref().unwrap_or("medium"), "--black")?,
    })
}

/// Whether both sides are bots.
fn two_bots(levels: ByColor<Option<Level>>) -> bool {
    levels.white.is_some() && levels.black.is_some()
}

/// The session options from the command line.
fn backgammon_options(args: &PlayArgs, two_bots: bool) -> Result<Options> {
    if !args.money {
        let mut options = Options::match_to(args.match_length.unwrap_or(5))
            .map_err(|e| bad_input(e.to_string()))?;
        if let Mode::Match { crawford, .. } = &mut options.mode {
            *crawford = !args.no_crawford;
        }
        return Ok(options);
    }
    if args.games == Some(0) {
        return Err(bad_input("--games must be at least 1"));
    }
    let automatic_doubles = u8::try_from(args.auto_doubles)
        .ok()
        .filter(|&n| n <= 15)
        .ok_or_else(|| {
            bad_input(format!(
                "--auto-doubles is at most 15, not {}",
                args.auto_doubles
            ))
        })?;
    let options = Options {
        mode: Mode::Money {
            beavers: !args.no_beavers,
            jacoby: !args.no_jacoby,
            automatic_doubles,
            // Bots would play for ever: without --games they play one game.
            games: args.games.or(two_bots.then_some(1)),
        },
        ..Options::money()
    };
    options.validate().map_err(|e| bad_input(e.to_string()))?;
    Ok(options)
}

/// A backgammon match or money session, its bots, and the words that open it ("Match to 5").
pub fn backgammon(args: &PlayArgs, seed: u64) -> Result<Setup<Backgammon>> {
    let levels = dice_game_levels(args)?;
    let options = backgammon_options(args, two_bots(levels))?;
    let game = Backgammon::new(options).map_err(|e| bad_input(e.to_string()))?;
    let what = match options.mode {
        Mode::Match { length, crawford } => format!(
            "Match to {length}{}",
            if crawford {
                ""
            } else {
                " without the Crawford rule"
            }
        ),
        Mode::Money { games: Some(1), .. } => "Money play, 1 game".to_string(),
        Mode::Money { games: Some(n), .. } => format!("Money play, {n} games"),
        Mode::Money { games: None, .. } => "Money play".to_string(),
    };
    let bots = make_bots(levels, seed, bots::backgammon)?;
    Ok(Setup { game, what, bots })
}

/// The session options from the command line: a match (3 points unless `--match N`) or money
/// games. The cube and Crawford options are backgammon's and refused here.
fn nf_options(args: &PlayArgs, two_bots: bool) -> Result<NfOptions> {
    let cube_flags = [
        (args.no_crawford, "--no-crawford"),
        (args.no_beavers, "--no-beavers"),
        (args.no_jacoby, "--no-jacoby"),
        (args.auto_doubles != 0, "--auto-doubles"),
    ];
    if let Some((_, flag)) = cube_flags.iter().find(|(given, _)| *given) {
        return Err(bad_input(format!(
            "{flag} is a backgammon option: never-finishing has no cube"
        )));
    }
    let scoring = if args.money {
        if args.games == Some(0) {
            return Err(bad_input("--games must be at least 1"));
        }
        // Bots would play for ever: without --games they play one game.
        Scoring::Money {
            games: args.games.or(two_bots.then_some(1)),
        }
    } else {
        let length = args.match_length.unwrap_or(3);
        let length = u8::try_from(length)
            .ok()
            .filter(|n| (1..=64).contains(n))
            .ok_or_else(|| bad_input(BadLength(length).to_string()))?;
        Scoring::Match { length }
    };
    Ok(NfOptions {
        scoring,
        trapping: Trapping::On,
    })
}

/// A Never-Finishing match or money session, its bots, and the words that open it.
pub fn never_finishing(args: &PlayArgs, seed: u64) -> Result<Setup<NeverFinishing>> {
    let levels = dice_game_levels(args)?;
    let options = nf_options(args, two_bots(levels))?;
    let what = match options.scoring {
        Scoring::Match { length } => format!("Never-Finishing match to {length}"),
        Scoring::Money { games: Some(1) } => "Never-Finishing money play, 1 game".to_string(),
        Scoring::Money { games: Some(n) } => format!("Never-Finishing money play, {n} games"),
        Scoring::Money { games: None } => "Never-Finishing money play".to_string(),
    };
    let game = NeverFinishing::new(options).map_err(|e| bad_input(e.to_string()))?;
    let bots = make_bots(levels, seed, bots::never_finishing)?;
    Ok(Setup { game, what, bots })
}

/// The game options from the command line (`--size`, `--ply-limit`); the backgammon
/// options are refused, as this is one game without a cube.
fn halma_options(args: &PlayArgs) -> Result<(BoardSize, HalmaOptions)> {
    let backgammon_flags = [
        (args.match_length.is_some(), "--match"),
        (args.money, "--money"),
        (args.games.is_some(), "--games"),
        (args.no_crawford, "--no-crawford"),
        (args.no_beavers, "--no-beavers"),
        (args.no_jacoby, "--no-jacoby"),
        (args.auto_doubles != 0, "--auto-doubles"),
    ];
    if let Some((_, flag)) = backgammon_flags.iter().find(|(given, _)| *given) {
        return Err(bad_input(format!(
            "{flag} is a backgammon option: halma-grasshopper is a single game without a cube"
        )));
    }
    let size = match &args.game.size {
        Some(text) => halma_size(text)?,
        None => BoardSize::Eight,
    };
    if args.ply_limit == Some(0) {
        return Err(bad_input("--ply-limit must be at least 1"));
    }
    Ok((
        size,
        HalmaOptions {
            ply_limit: args.ply_limit,
            evacuation: args.game.evacuation,
        },
    ))
}

/// The Grasshopper (Halma) game from the command line's options, the words that open it
/// ("Grasshopper (Halma) on 8x8, ply limit 400"), and who plays (White a person and Black
/// the random bot unless told otherwise).
fn halma_choice(args: &PlayArgs) -> Result<(HalmaGrasshopper, String, ByColor<Option<Level>>)> {
    let (size, options) = halma_options(args)?;
    let levels = ByColor {
        white: parse_player(&args.white, "--white")?,
        black: parse_player(args.black.as_deref().unwrap_or("random"), "--black")?,
    };
    let game = HalmaGrasshopper::from_position(tabula_halma::start(size), options);
    let what = format!(
        "{} on {size}x{size}, {}",
        GameId::HalmaGrasshopper.display_name(),
        crate::moves::halma_rules_text(&game)
    );
    Ok((game, what, levels))
}

/// A game of Grasshopper (Halma), its bots (every level of [`tabula_ai::bots::halma`]), and
/// the words that open it.
pub fn halma(args: &PlayArgs, seed: u64) -> Result<Setup<HalmaGrasshopper>> {
    let (game, what, levels) = halma_choice(args)?;
    let bots = make_bots(levels, seed, bots::halma)?;
    Ok(Setup { game, what, bots })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_default_to_a_three_point_match_and_refuse_cube_flags() {
        use clap::Parser;
        let parse = |extra: &[&str]| {
            let mut argv = vec!["tabula", "play", "never-finishing"];
            argv.extend_from_slice(extra);
            match crate::Cli::try_parse_from(argv).unwrap().command {
                crate::Command::Play(args) => nf_options(&args, false),
                _ => unreachable!("a play command"),
            }
        };
        assert_eq!(parse(&[]).unwrap().scoring, Scoring::Match { length: 3 });
        assert_eq!(
            parse(&["--money"]).unwrap().scoring,
            Scoring::Money { games: None }
        );
        assert!(parse(&["--no-crawford"]).is_err());
        assert!(parse(&["--match", "300"]).is_err());
    }

    #[test]
    fn the_factory_levels_are_offered_and_backgammon_options_are_refused() {
        use clap::Parser;
        let parse = |extra: &[&str]| {
            let mut argv = vec!["tabula", "play", "halma-grasshopper"];
            argv.extend_from_slice(extra);
            match crate::Cli::try_parse_from(argv).unwrap().command {
                crate::Command::Play(args) => {
                    halma_choice(&args).map(|(_, what, levels)| (what, levels))
                }
                _ => unreachable!("a play command"),
            }
        };
        let (what, levels) = parse(&[]).unwrap();
        assert_eq!(
            what,
            "Grasshopper (Halma) on 8x8, ply limit 400, evacuation by move 30"
        );
        assert_eq!(levels.white, None);
        assert_eq!(levels.black, Some(Level::Random));
        let (what, _) = parse(&["--size", "10", "--ply-limit", "50"]).unwrap();
        assert_eq!(
            what,
            "Grasshopper (Halma) on 10x10, ply limit 50, evacuation by move 50"
        );
        // Every level of the factory is offered, so a new level needs no CLI change.
        let (_, levels) = parse(&["--white", "strong", "--black", "medium"]).unwrap();
        assert_eq!(levels.white, Some(Level::Strong));
        assert_eq!(levels.black, Some(Level::Medium));
        for bad in [
            &["--white", "grandmaster"][..],
            &["--match", "3"],
            &["--money"],
            &["--size", "9"],
            &["--ply-limit", "0"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }
}
