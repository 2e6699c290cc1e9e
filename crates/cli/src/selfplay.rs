//! `tabula selfplay`: many games between two bots, played in parallel by the harness of
//! [`tabula_ai::selfplay`], summarised in the game server's statistics format.
//!
//! This module only reads the command line into a [`Config`] and a game maker per game, and
//! prints: a progress bar on stderr (hidden when stderr is not a terminal), the time taken on
//! stderr, and the result on stdout. Stdout names the seed but not the thread count, so it
//! is the same text for the same seed on any machine.

use crate::error::bad_input;
use crate::input::{grasshopper_checkers, halma_size};
use crate::moves::halma_rules_text;
use crate::play::clock_seed;
use crate::SelfplayArgs;
use anyhow::Result;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use std::io::{IsTerminal, Write};
use std::time::Instant;
use tabula_ai::grasshopper::GrasshopperBot;
use tabula_ai::halma::HalmaBot;
use tabula_ai::selfplay::{self, Config, Factory, Report, Scoring, SelfplayError};
use tabula_ai::{bots, Bot, Budget, Level};
use tabula_core::{Game, GameId};
use tabula_grasshopper::Grasshopper;
use tabula_halma::{HalmaGrasshopper, HalmaOptions};
use tabula_tables::backgammon::{Backgammon, Mode, Options};
use tabula_tables::never_finishing::{BadLength, NeverFinishing, NfOptions, Scoring as NfScoring};
use tabula_tables::Trapping;

/// A bot level from `--white` / `--black`.
fn level(text: &str, flag: &str) -> Result<Level> {
    text.to_ascii_lowercase().parse::<Level>().map_err(|_| {
        bad_input(format!(
            "{flag} {text:?}: use a bot level (random, easy, medium, strong)"
        ))
    })
}

/// Refuses the first flag given that `game` does not take.
fn refuse(given: &[(bool, &str)], game: &str, takes: &str) -> Result<()> {
    match given.iter().find(|(given, _)| *given) {
        Some((_, flag)) => Err(bad_input(format!(
            "{flag} is not a {game} option (its options: {takes})"
        ))),
        None => Ok(()),
    }
}

/// What one game of a run is, as the header and the JSON name it.
struct Kind {
    /// "money, one game each", "matches to 5", "14 checkers each", "8x8, ply limit 400".
    what: String,
    /// How a finished game scores.
    scoring: Scoring,
}

/// Runs the command.
pub fn run(out: &mut dyn Write, args: &SelfplayArgs) -> Result<()> {
    let game = args.game.id;
    let white = level(&args.white, "--white")?;
    let black = level(&args.black, "--black")?;
    if args.games == 0 {
        return Err(bad_input("--games must be at least 1"));
    }
    if args.threads == Some(0) {
        return Err(bad_input("--threads must be at least 1"));
    }
    let dice_game = matches!(game, GameId::Backgammon | GameId::NeverFinishing);
    if args.duplicate && !dice_game {
        return Err(bad_input(format!(
            "--duplicate is for the dice games (backgammon, never-finishing), not {}",
            args.game.id
        )));
    }
    if args.duplicate && args.games % 2 == 1 {
        return Err(bad_input(format!(
            "--duplicate plays the games in pairs: --games must be even, not {}",
            args.games
        )));
    }
    let mut config = Config::new(
        args.games,
        white,
        black,
        args.seed.unwrap_or_else(clock_seed),
    );
    config.threads = args.threads;
    config.duplicate = args.duplicate;
    config.opening_plies = args.opening_plies.unwrap_or(0);
    if args.nodes == Some(0) {
        return Err(bad_input("--nodes must be at least 1"));
    }
    if dice_game && args.nodes.is_some() {
        return Err(bad_input(format!(
            "--nodes is for the dice-free games (grasshopper, halma-grasshopper), not {}",
            args.game.id
        )));
    }
    let halma_flags = [
        (args.game.size.is_some(), "--size"),
        (args.ply_limit.is_some(), "--ply-limit"),
        (args.game.evacuation.is_some(), "--evacuation"),
    ];
    match game {
        GameId::Backgammon => {
            let mut given = halma_flags.to_vec();
            given.push((args.game.checkers.is_some(), "--checkers"));
            refuse(&given, args.game.id.as_str(), "--match N or --money")?;
            let (options, kind) = match args.match_length {
                Some(n) => (
                    Options::match_to(n).map_err(|e| bad_input(e.to_string()))?,
                    Kind {
                        what: format!("matches to {n}"),
                        scoring: Scoring::Wins,
                    },
                ),
                None => {
                    let mut options = Options::money();
                    if let Mode::Money { games, .. } = &mut options.mode {
                        *games = Some(1);
                    }
                    let kind = Kind {
                        what: "money, one game each".to_string(),
                        scoring: Scoring::Points,
                    };
                    (options, kind)
                }
            };
            Backgammon::new(options).map_err(|e| bad_input(e.to_string()))?;
            let new_game = move || Backgammon::new(options).expect("the options were checked");
            play(out, args, config, kind, new_game, &bots::backgammon)
        }
        GameId::NeverFinishing => {
            let mut given = halma_flags.to_vec();
            given.push((args.game.checkers.is_some(), "--checkers"));
            refuse(&given, args.game.id.as_str(), "--match N or --money")?;
            let (scoring, kind) = match args.match_length {
                Some(n) => {
                    let length = u8::try_from(n)
                        .ok()
                        .filter(|n| (1..=64).contains(n))
                        .ok_or_else(|| bad_input(BadLength(n).to_string()))?;
                    let kind = Kind {
                        what: format!("matches to {n}"),
                        scoring: Scoring::Wins,
                    };
                    (NfScoring::Match { length }, kind)
                }
                None => {
                    let kind = Kind {
                        what: "money, one game each".to_string(),
                        scoring: Scoring::Points,
                    };
                    (NfScoring::Money { games: Some(1) }, kind)
                }
            };
            let options = NfOptions {
                scoring,
                trapping: Trapping::On,
            };
            NeverFinishing::new(options).map_err(|e| bad_input(e.to_string()))?;
            let new_game = move || NeverFinishing::new(options).expect("the options were checked");
            play(out, args, config, kind, new_game, &bots::never_finishing)
        }
        GameId::Grasshopper => {
            let mut given = halma_flags.to_vec();
            given.push((args.match_length.is_some(), "--match"));
            given.push((args.money, "--money"));
            refuse(&given, args.game.id.as_str(), "--checkers N")?;
            let checkers = grasshopper_checkers(args.game.checkers)?;
            let kind = Kind {
                what: format!("{checkers} checkers each{}", budget_text(args.nodes)),
                scoring: Scoring::Points,
            };
            let nodes = args.nodes;
            let factory = move |level: Level, seed: u64| match (level, nodes) {
                (Level::Random, _) | (_, None) => bots::grasshopper(level, seed),
                (_, Some(n)) => Ok(Box::new(GrasshopperBot::with_budget(
                    level,
                    seed,
                    Budget::Nodes(n),
                )) as Box<dyn Bot<Grasshopper> + Send>),
            };
            play(
                out,
                args,
                config,
                kind,
                move || Grasshopper::new(checkers),
                &factory,
            )
        }
        GameId::HalmaGrasshopper => {
            let given = [
                (args.match_length.is_some(), "--match"),
                (args.money, "--money"),
                (args.game.checkers.is_some(), "--checkers"),
            ];
            refuse(
                &given,
                args.game.id.as_str(),
                "--size 8|10, --ply-limit N, --evacuation N",
            )?;
            let size = match &args.game.size {
                Some(text) => halma_size(text)?,
                None => tabula_games::halma::DEFAULT_SIZE,
            };
            if args.ply_limit == Some(0) {
                return Err(bad_input("--ply-limit must be at least 1"));
            }
            let options = HalmaOptions {
                ply_limit: args.ply_limit,
                evacuation: args.game.evacuation,
            };
            let new_game =
                move || HalmaGrasshopper::from_position(tabula_halma::start(size), options);
            let kind = Kind {
                what: format!(
                    "{size}x{size}, {}{}",
                    halma_rules_text(&new_game()),
                    budget_text(args.nodes)
                ),
                scoring: Scoring::Points,
            };
            let nodes = args.nodes;
            let factory = move |level: Level, seed: u64| match (level, nodes) {
                (Level::Random, _) | (_, None) => bots::halma(level, seed),
                (_, Some(n)) => Ok(
                    Box::new(HalmaBot::with_budget(level, seed, Budget::Nodes(n)))
                        as Box<dyn Bot<HalmaGrasshopper> + Send>,
                ),
            };
            play(out, args, config, kind, new_game, &factory)
        }
    }
}

/// ", N nodes a decision" when `--nodes` replaces the levels' budgets.
fn budget_text(nodes: Option<u64>) -> String {
    nodes.map_or(String::new(), |n| {
        format!(", {} nodes a decision", crate::thousands::thousands(n))
    })
}

/// The progress bar on stderr: games done, rate and ETA; hidden when stderr is not a
/// terminal.
fn progress_bar(games: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(games);
    let style = ProgressStyle::with_template(
        "[{elapsed_precise}] {bar:30} {pos}/{len} games, {per_sec}, ETA {eta}",
    )
    .expect("a valid template");
    bar.set_style(style);
    bar
}

/// Plays the run and prints it.
fn play<G, N>(
    out: &mut dyn Write,
    args: &SelfplayArgs,
    config: Config,
    kind: Kind,
    new_game: N,
    factory: &Factory<G>,
) -> Result<()>
where
    G: Game + Send,
    N: Fn() -> G + Sync,
{
    // A level the game lacks is the user's mistake (exit 2), told before any game starts.
    for level in [config.white, config.black] {
        factory(level, 0).map_err(|e| bad_input(e.to_string()))?;
    }
    let bar = progress_bar(config.games);
    let started = Instant::now();
    let report = selfplay::run(&config, new_game, factory, &|| bar.inc(1));
    bar.finish_and_clear();
    let report = report.map_err(|e| match e {
        SelfplayError::NoSuchBot(e) => bad_input(e.to_string()),
        other => anyhow::Error::from(other),
    })?;
    let seconds = started.elapsed().as_secs_f64();
    let threads = config.threads.unwrap_or_else(rayon_threads);
    eprintln!(
        "{} in {seconds:.1} s ({:.1} games/s) on {threads} thread{}",
        plural(config.games, "game"),
        config.games as f64 / seconds.max(1e-9),
        if threads == 1 { "" } else { "s" }
    );
    if args.json {
        writeln!(
            out,
            "{}",
            to_json(args.game.id.as_str(), &kind, &config, &report)
        )?;
    } else {
        writeln!(out, "{}", header(args.game.id.as_str(), &kind, &config))?;
        for line in report.summary.lines() {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}

/// "1 game", "20 games".
fn plural(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The threads of rayon's default pool (one per core).
fn rayon_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The first line: what was played, by whom, from which seed.
fn header(game: &str, kind: &Kind, config: &Config) -> String {
    let games = if config.duplicate {
        format!(
            "{} games in {} duplicate pairs (the colours swapped in the second game of each)",
            config.games,
            config.games / 2
        )
    } else {
        plural(config.games, "game")
    };
    let opening = match config.opening_plies {
        0 => String::new(),
        r => format!(", the first {} at random", plural(r, "action")),
    };
    format!(
        "Self-play of {game} ({}): {} (White) against {} (Black), {games}{opening}, seed {}.",
        kind.what, config.white, config.black, config.seed
    )
}

/// The result as one JSON object.
fn to_json(game: &str, kind: &Kind, config: &Config, report: &Report) -> serde_json::Value {
    let s = &report.summary;
    let n = s.by_colour.games();
    let pct = |k: u64| tabula_ai::selfplay::stats::percent(k, n);
    let mut doc = json!({
        "game": game,
        "kind": kind.what,
        "white": config.white.as_str(),
        "black": config.black.as_str(),
        "games": config.games,
        "seed": config.seed,
        "opening_plies": config.opening_plies,
        "duplicate": config.duplicate,
        "white_won": s.by_colour.first,
        "black_won": s.by_colour.second,
        "draws": s.by_colour.draws,
        "white_won_percent": pct(s.by_colour.first),
        "black_won_percent": pct(s.by_colour.second),
        "draws_percent": pct(s.by_colour.draws),
        "ended_by": s.ends.iter().map(|&(code, count)| (code.to_string(), json!(count))).collect::<serde_json::Map<_, _>>(),
        "average_moves": s.moves_per_game,
        "average_actions": s.actions_per_game,
        "points_per_game": {
            "for": if config.duplicate { "the --white player" } else { "White" },
            "scoring": match kind.scoring {
                Scoring::Points => "points",
                Scoring::Wins => "wins",
            },
            "mean": s.points.mean,
            "ci95_half_width": s.points.half_width,
            "samples": s.points.samples,
            "samples_are": if config.duplicate { "pair means" } else { "games" },
        },
    });
    if config.duplicate {
        doc["by_player"] = json!({
            "white_player_won": s.by_player.first,
            "black_player_won": s.by_player.second,
            "draws": s.by_player.draws,
        });
    }
    doc
}
