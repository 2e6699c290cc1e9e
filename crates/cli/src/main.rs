//! The `tabula` command: list legal moves, draw positions, and play backgammon,
//! Never-Finishing backgammon, Grasshopper and Grasshopper (Halma) in the terminal against
//! people or bots; solve the small Grasshopper games exactly; measure bots against each other
//! in self-play.
//!
//! Errors are reported on one line (`error: ...`) on stderr; bad input and usage errors exit
//! with code 2, other failures with 1. See `docs/cli.md`.

mod analyse;
mod error;
mod external;
mod input;
mod moves;
mod play;
mod rollout;
mod selfplay;
mod serve;
mod show;
mod solve;
mod solve_tables;
mod study;
mod study_nf;
mod study_shared;
mod thousands;
mod verify;

use clap::{Args, Parser, Subcommand, ValueEnum};
use error::{exit_code, is_broken_pipe, one_line, EXIT_INPUT};
use std::io::Write;
use std::process::ExitCode;
use tabula_core::{Color, GameId};
use tabula_games::backgammon::drawing::HomeSide;
use tabula_games::{GameArgs, GameIdParser};

/// Play, inspect and analyse the backgammon family of games.
#[derive(Debug, Parser)]
#[command(name = "tabula", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List every legal move of a position (with given dice, for the dice games).
    Moves {
        /// The game and its options.
        #[command(flatten)]
        game: GameArgs,
        /// backgammon: a gnubg Position ID, `PositionID:MatchID`, an XGID, or `start`;
        /// never-finishing: the tables notation (`15b/22/15w:0:0:0:0:w`) or `start`;
        /// grasshopper: the position text, quoted (`"w.b.../....../....../...... b 13-13 0-0 -
        /// 14"`), or `start`; halma-grasshopper: the halma notation
        /// (`8:4bbbb/5bbb/6bb/7b/w7/ww6/www5/wwww4:w:0`) or `start`.
        // An XGID without its prefix may start with '-' (an empty bar).
        #[arg(allow_hyphen_values = true)]
        position: String,
        /// The dice, e.g. 6-5 (optional when a backgammon position records dice).
        #[arg(long)]
        dice: Option<String>,
        /// Print one JSON object {"moves": [{"move", "position"}, ...]}, with "end": {"winner",
        /// "code", "sentence"} when the position is a finished game.
        #[arg(long)]
        json: bool,
    },
    /// Draw a position.
    Show {
        /// The game and its options.
        #[command(flatten)]
        game: GameArgs,
        /// backgammon: a gnubg Position ID, `PositionID:MatchID`, an XGID, or `start`;
        /// never-finishing: the tables notation (`15b/22/15w:0:0:0:0:w`) or `start`;
        /// grasshopper: the position text (quoted) or `start`; halma-grasshopper: the halma
        /// notation or `start`.
        // An XGID without its prefix may start with '-' (an empty bar).
        #[arg(allow_hyphen_values = true)]
        position: String,
        /// Whose side to draw it from (default: the player on roll).
        #[arg(long, value_enum)]
        from: Option<Side>,
        /// Where the viewer's home board is (backgammon games; default right).
        #[arg(long, value_enum)]
        home: Option<Home>,
    },
    /// Play a match or a money session in the terminal.
    Play(PlayArgs),
    /// Solve a game's start exactly (grasshopper only): its value under perfect play and a
    /// best first move.
    Solve(SolveArgs),
    /// Play many games between two bots (in parallel) and print who won, the average game
    /// length and the points per game with a 95 % confidence interval.
    Selfplay(SelfplayArgs),
    /// Serve GNU Backgammon's external-player protocol on a TCP port, so that gnubg plays
    /// (and analyses) Tabula's backgammon bot: `set player 1 external HOST:PORT` in gnubg.
    External(external::ExternalArgs),
    /// Evaluate a backgammon position: the chances of the player on roll at 0 to 3 plies and
    /// the cube decision in cubeful equity (`--game never-finishing`: cubeless).
    Eval(study::EvalArgs),
    /// The best plays of a backgammon position with its dice, ranked with their equities, or
    /// the cube decision when no dice are given.
    Hint(study::HintArgs),
    /// Roll out a backgammon position: play it to the end many times (seeded, in parallel,
    /// luck-adjusted) and print the mean result with its standard error.
    Rollout(rollout::RolloutArgs),
    /// Analyse a backgammon match or money session (.mat file): every chequer and cube
    /// error with gnubg's marks, the luck of every roll, and each player's error rates.
    Analyse(analyse::AnalyseArgs),
    /// Run the game server (HTTP API, WebSockets, bots) and print the URL to open.
    Serve(serve::ServeArgs),
    /// Check a finished server game: every roll against its revealed dice seed and, given
    /// the game's /record, every move, state and the result by replaying them.
    VerifyDice(verify::VerifyArgs),
}

/// The options of `tabula selfplay`.
#[derive(Debug, Args)]
pub struct SelfplayArgs {
    /// The game and its options.
    #[command(flatten)]
    pub game: GameArgs,
    /// How many games (with --duplicate: an even number, played in pairs).
    #[arg(long, value_name = "N")]
    pub games: u64,
    /// The level of the bot playing White (random, easy, medium, strong).
    #[arg(long, value_name = "LEVEL")]
    pub white: String,
    /// The level of the bot playing Black.
    #[arg(long, value_name = "LEVEL")]
    pub black: String,
    /// The master seed every game's dice and bots derive from (default: from the clock;
    /// printed so that the run can be repeated).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Worker threads (default: one per core); the results do not depend on it.
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Dice games: play each dice sequence twice, the colours swapped in the second game.
    #[arg(long)]
    pub duplicate: bool,
    /// backgammon, never-finishing: each game is a match to N points.
    #[arg(long = "match", value_name = "N", conflicts_with = "money")]
    pub match_length: Option<u32>,
    /// backgammon, never-finishing: each game is a single money game (the default).
    #[arg(long)]
    pub money: bool,
    /// halma-grasshopper: the game is drawn at this ply count (default 400 on 8x8, 600 on
    /// 10x10).
    #[arg(long, value_name = "N")]
    pub ply_limit: Option<u32>,
    /// The first R actions of every game are drawn at random from the game's seed, then the
    /// bots play on: varied openings for the dice-free games, whose searches are
    /// deterministic (default 0).
    #[arg(long, value_name = "R")]
    pub opening_plies: Option<u64>,
    /// grasshopper, halma-grasshopper: the search's node budget per decision for both bots,
    /// instead of each level's default (to measure at a smaller or larger budget).
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
}

/// The options of `tabula solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The game: grasshopper.
    #[arg(value_parser = GameIdParser, value_name = "GAME", hide_possible_values = true)]
    pub game: GameId,
    /// Checkers each, even, 2 to 14 (required: only the small games can be solved).
    #[arg(long, value_name = "N")]
    pub checkers: Option<u32>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// The most memory the transposition table may take, in GiB (default 8); past it the
    /// solve stays exact but slows down.
    #[arg(long, value_name = "G")]
    pub max_table_gib: Option<f64>,
    /// Solve this position (Grasshopper position text, see docs/notation.md) instead of a
    /// game's start.
    #[arg(long, value_name = "TEXT", conflicts_with = "checkers")]
    pub position: Option<String>,
    /// Read exact values from the largest cached endgame table (see --tables) wherever both
    /// sides have at most its k checkers left.
    #[arg(long)]
    pub with_tables: bool,
    /// Build the endgame table of every position with at most K checkers a side left
    /// (1 to 8; 4 takes about 0.8 GB while it builds) and cache it for the bots.
    #[arg(long, value_name = "K", conflicts_with_all = ["checkers", "max_table_gib", "position", "with_tables"])]
    pub tables: Option<u8>,
    /// --tables: worker threads (default: one per core).
    #[arg(long, value_name = "T", requires = "tables")]
    pub threads: Option<usize>,
    /// --tables: write the table here instead of the cache
    /// ($TABULA_CACHE_DIR, else $XDG_CACHE_HOME/tabula, else ~/.cache/tabula).
    #[arg(long, value_name = "PATH", requires = "tables")]
    pub out: Option<std::path::PathBuf>,
}

/// A player's colour on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum Side {
    White,
    Black,
}

/// The side of the viewer's home board.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum Home {
    Left,
    Right,
}

/// The options of `tabula play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The game and its options.
    #[command(flatten)]
    pub game: GameArgs,
    /// Play a match to N points (default 5; never-finishing: 3).
    #[arg(long = "match", value_name = "N", conflicts_with = "money")]
    pub match_length: Option<u32>,
    /// Play money games instead of a match.
    #[arg(long)]
    pub money: bool,
    /// Who plays White: `human` or a bot level (random, easy, medium, strong;
    /// halma-grasshopper: random only; grasshopper: random or perfect).
    #[arg(long, default_value = "human")]
    pub white: String,
    /// Who plays Black: `human` or a bot level (default medium; halma-grasshopper: random;
    /// grasshopper: perfect up to 4 checkers, else random).
    #[arg(long)]
    pub black: Option<String>,
    /// Seed of the dice (default: from the clock; printed so that the session can be
    /// replayed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Money: stop after N games (default: until quit; 1 when two bots play).
    #[arg(long, value_name = "N", requires = "money")]
    pub games: Option<u32>,
    /// Match: play without the Crawford rule (backgammon only).
    #[arg(long, conflicts_with = "money")]
    pub no_crawford: bool,
    /// Money: no beavers (backgammon only).
    #[arg(long, requires = "money")]
    pub no_beavers: bool,
    /// Money: no Jacoby rule (backgammon only).
    #[arg(long, requires = "money")]
    pub no_jacoby: bool,
    /// Money: double the cube on up to N opening ties (backgammon only).
    #[arg(long, value_name = "N", requires = "money", default_value_t = 0)]
    pub auto_doubles: u32,
    /// halma-grasshopper: the game is drawn at this ply count (default 400 on 8x8, 600 on
    /// 10x10).
    #[arg(long, value_name = "N")]
    pub ply_limit: Option<u32>,
}

fn run(cli: Cli) -> anyhow::Result<()> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match cli.command {
        Command::Moves {
            game,
            position,
            dice,
            json,
        } => {
            let options = moves::MovesOptions {
                dice: dice.as_deref(),
                size: game.size.as_deref(),
                checkers: game.checkers,
                evacuation: game.evacuation,
                json,
            };
            moves::run(&mut out, game.id, &position, options)?
        }
        Command::Show {
            game,
            position,
            from,
            home,
        } => {
            let viewer = from.map(|s| match s {
                Side::White => Color::White,
                Side::Black => Color::Black,
            });
            let home = home.map(|h| match h {
                Home::Left => HomeSide::Left,
                Home::Right => HomeSide::Right,
            });
            let options = show::ShowOptions {
                viewer,
                home,
                size: game.size.as_deref(),
                checkers: game.checkers,
                evacuation: game.evacuation,
            };
            show::run(&mut out, game.id, &position, options)?
        }
        Command::Play(args) => {
            let stdin = std::io::stdin();
            play::run(&args, &mut stdin.lock(), &mut out)?
        }
        Command::Solve(args) => solve::run(&mut out, &args)?,
        Command::Selfplay(args) => selfplay::run(&mut out, &args)?,
        Command::External(args) => external::run(&mut out, &args)?,
        Command::Serve(args) => serve::run(&mut out, &args)?,
        Command::Eval(args) => study::eval(&mut out, &args)?,
        Command::Analyse(args) => analyse::run(&mut out, &args)?,
        Command::Hint(args) => study::hint(&mut out, &args)?,
        Command::Rollout(args) => rollout::rollout_command(&mut out, &args)?,
        Command::VerifyDice(args) => verify::verify_dice(&mut out, &args)?,
    }
    out.flush()?;
    Ok(())
}

/// Reports a command-line parsing error on one line (help and version go to stdout as usual).
fn clap_failure(err: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            // Printing help fails only on a closed stdout; nothing is left to do then.
            let _ = err.print();
            return ExitCode::SUCCESS;
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            eprintln!(
                "error: a command is required: moves, show, play, solve, selfplay, external, serve or verify-dice (see tabula \
                 --help)"
            );
            return ExitCode::from(EXIT_INPUT);
        }
        _ => {}
    }
    // Clap's message runs over several lines up to its usage section; keep the message.
    let rendered = err.render().to_string();
    let message = rendered
        .lines()
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let message = message.strip_prefix("error: ").unwrap_or(&message);
    eprintln!("error: {message} (see tabula --help)");
    ExitCode::from(EXIT_INPUT)
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => return clap_failure(err),
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {}", one_line(&err));
            ExitCode::from(exit_code(&err))
        }
    }
}
