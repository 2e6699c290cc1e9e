//! The game and its options on the command line: one clap definition of the game id and of
//! `--checkers`, `--size` and `--evacuation`, flattened into every command that plays or
//! reads a position. Whether an option applies to the game named is the command's to check
//! (each command words its refusal for what it does).

use clap::builder::{PossibleValue, TypedValueParser};
use clap::error::ErrorKind;
use clap::{Arg, Args, Command};
use std::ffi::OsStr;
use tabula_core::GameId;

/// The game a command plays or reads, with its options; each option applies to one game.
#[derive(Debug, Clone, Args)]
pub struct GameArgs {
    /// The game: backgammon, never-finishing, grasshopper or halma-grasshopper.
    #[arg(value_parser = GameIdParser, value_name = "GAME")]
    pub id: GameId,
    /// grasshopper: checkers each (of `start` when a position is given), even, 2 to 14
    /// (default 14).
    #[arg(long, value_name = "N")]
    pub checkers: Option<u32>,
    /// halma-grasshopper: the board (of `start` when a position is given), 8 (default) or 10.
    #[arg(long, value_name = "8|10")]
    pub size: Option<String>,
    /// halma-grasshopper: the evacuation deadline, in each player's own moves (default 30 on
    /// 8x8, 50 on 10x10; 0 switches the rule off).
    #[arg(long, value_name = "N")]
    pub evacuation: Option<u32>,
}

/// Reads a [`GameId`] on the command line: its possible values are listed in the help, and
/// a name that is no game is refused with [`tabula_core::UnknownGame`]'s message.
#[derive(Debug, Clone, Copy)]
pub struct GameIdParser;

impl TypedValueParser for GameIdParser {
    type Value = GameId;

    fn parse_ref(
        &self,
        _cmd: &Command,
        _arg: Option<&Arg>,
        value: &OsStr,
    ) -> Result<GameId, clap::Error> {
        let text = value.to_string_lossy();
        text.parse::<GameId>()
            .map_err(|e| clap::Error::raw(ErrorKind::InvalidValue, format!("{e}\n")))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            GameId::ALL
                .into_iter()
                .map(|g| PossibleValue::new(g.as_str())),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Cli {
        #[command(flatten)]
        game: GameArgs,
    }

    #[test]
    fn every_game_id_parses_and_others_are_refused_as_unknown_games() {
        for id in GameId::ALL {
            let cli = Cli::try_parse_from(["t", id.as_str()]).unwrap();
            assert_eq!(cli.game.id, id);
        }
        for game in ["chess", "Grasshopper (Halma)", ""] {
            let err = Cli::try_parse_from(["t", game]).unwrap_err();
            assert!(err.to_string().contains("unknown game"), "{err}");
        }
    }

    #[test]
    fn the_options_are_read_once_for_every_game() {
        let cli = Cli::try_parse_from(["t", "grasshopper", "--checkers", "4"]).unwrap();
        assert_eq!(cli.game.checkers, Some(4));
        let cli = Cli::try_parse_from([
            "t",
            "halma-grasshopper",
            "--size",
            "10",
            "--evacuation",
            "0",
        ])
        .unwrap();
        assert_eq!(cli.game.size.as_deref(), Some("10"));
        assert_eq!(cli.game.evacuation, Some(0));
    }
}
