//! `tabula play`: a match or a money session in the terminal, people against bots or each
//! other, driven through [`tabula_core::Game`].
//!
//! The dice come from [`ChaChaDice`] seeded with `--seed` (or the clock, printed), and the
//! bots are seeded from the same seed, so a session between bots replays exactly, and a
//! session with people replays when they type the same things. What happened is told from
//! the session's event log ([`narrate`]); people see the board from their side whenever they
//! must decide.

mod human;
mod narrate;

use crate::board::{checker, render, BoardView, CubeView, HomeSide, Layout, ScoreView};
use crate::error::bad_input;
use crate::input::backgammon_only;
use crate::PlayArgs;
use anyhow::{anyhow, Result};
use human::{Command, HELP};
use narrate::{score_text, Narrator};
use std::io::{BufRead, ErrorKind, Write};
use tabula_ai::backgammon::BackgammonBot;
use tabula_ai::Level;
use tabula_core::{ByColor, ChaChaDice, Color, Decision, DiceSource, Game, Status};
use tabula_tables::backgammon::{Action, Backgammon, BackgammonError, Mode, Options, Phase};
use tabula_tables::notation::{format_play, match_play};

/// Who plays a side.
enum Player {
    /// A person typing commands.
    Human,
    /// A bot.
    Bot(Box<BackgammonBot>),
}

impl Player {
    fn is_human(&self) -> bool {
        matches!(self, Player::Human)
    }
}

/// `human` or a bot level.
fn parse_player(text: &str, flag: &str) -> Result<Option<Level>> {
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

/// The session options from the command line.
fn options(args: &PlayArgs, two_bots: bool) -> Result<Options> {
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

/// A seed from the clock, short enough to type back.
fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    (nanos % 1_000_000_000) as u64
}

/// The drawing of the session's current state, seen by `viewer`.
fn view(session: &Backgammon, names: &ByColor<String>) -> BoardView {
    let game = session.game();
    let mut view = BoardView::new(game.board(), game.turn());
    view.names = names.clone();
    view.cube = Some(if session.is_crawford_game() {
        CubeView::Crawford
    } else {
        match game.cube().owner() {
            Some(owner) => CubeView::Owned(game.cube().value(), owner),
            None => CubeView::Centred(game.cube().value()),
        }
    });
    view.score = Some(ScoreView {
        points: session.score(),
        match_length: session.options().match_length().map(u32::from),
    });
    view.dice = game.dice();
    view.status = Some(status_line(session, names));
    view
}

/// What the deciding player is asked.
fn status_line(session: &Backgammon, names: &ByColor<String>) -> String {
    let game = session.game();
    let turn = &names[game.turn()];
    match (session.status(), game.phase()) {
        (_, Phase::Resigning { level, .. }) => {
            format!("{turn} offers to resign ({})", level.name())
        }
        (Status::Decide { decision, player }, _) => {
            let name = &names[player];
            match decision {
                Decision::DoubleOrRoll => format!("{name} to roll or double"),
                Decision::TakeOrDrop => {
                    format!(
                        "{turn} doubles to {}: take or drop?",
                        game.cube().value() * 2
                    )
                }
                Decision::Move => match game.dice() {
                    Some(d) => format!("{name} to play {d}"),
                    None => format!("{name} to move"),
                },
                Decision::ResignationAnswer => format!("{name} to accept or reject"),
            }
        }
        _ => format!("{turn} on roll"),
    }
}

/// The prompt for a person's decision.
fn prompt(name: &str, decision: Decision) -> String {
    let hint = match decision {
        Decision::DoubleOrRoll => "roll, double",
        Decision::TakeOrDrop => "take, drop",
        Decision::Move => "move",
        Decision::ResignationAnswer => "accept, reject",
    };
    format!("{name} ({hint}; help)> ")
}

/// What a person's turn at the keyboard produced.
enum Typed {
    /// An action to apply.
    Act(Action),
    /// Nothing to apply (help, a list, a refused line): ask again.
    Again,
    /// Stop the session.
    Quit,
}

/// Reads one line from a person and turns it into an action, explaining refusals.
fn read_human(
    session: &Backgammon,
    decision: Decision,
    names: &ByColor<String>,
    layout: Layout,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Typed> {
    let player = match session.status() {
        Status::Decide { player, .. } => player,
        _ => return Ok(Typed::Again),
    };
    write!(out, "{}", prompt(&names[player], decision))?;
    out.flush()?;
    let mut line = String::new();
    match input.read_line(&mut line) {
        Ok(0) => {
            writeln!(out)?;
            return Ok(Typed::Quit);
        }
        Ok(_) => {}
        Err(e) if e.kind() == ErrorKind::InvalidData => {
            writeln!(out, "That line is not text; type help for the commands.")?;
            return Ok(Typed::Again);
        }
        Err(e) => return Err(e.into()),
    }
    let command = match human::parse(&line) {
        Ok(c) => c,
        Err(reason) => {
            writeln!(out, "{reason}")?;
            return Ok(Typed::Again);
        }
    };
    let game = session.game();
    let action = match command {
        Command::Help => {
            writeln!(out, "{HELP}")?;
            return Ok(Typed::Again);
        }
        Command::Quit => return Ok(Typed::Quit),
        Command::Board => {
            write!(out, "{}", render(&view(session, names), layout))?;
            return Ok(Typed::Again);
        }
        Command::Moves => {
            match (decision, game.dice()) {
                (Decision::Move, Some(dice)) => {
                    for (i, (play, _)) in game.board().legal_plays(dice).iter().enumerate() {
                        writeln!(out, "{:>3}. {}", i + 1, format_play(play))?;
                    }
                }
                _ => writeln!(out, "There is nothing to move now.")?,
            }
            return Ok(Typed::Again);
        }
        Command::Pick(n) => match (decision, game.dice()) {
            (Decision::Move, Some(dice)) => {
                let plays = game.board().legal_plays(dice);
                match n.checked_sub(1).and_then(|i| plays.get(i)) {
                    Some(&(_, after)) => Action::Move(after),
                    None => {
                        writeln!(out, "There is no move {n}; type moves to list them.")?;
                        return Ok(Typed::Again);
                    }
                }
            }
            _ => {
                writeln!(out, "You cannot move now: {}.", status_line(session, names))?;
                return Ok(Typed::Again);
            }
        },
        Command::Play(text) => match (decision, game.dice()) {
            (Decision::Move, Some(dice)) => match match_play(&game.board(), dice, &text) {
                Ok((_, after)) => Action::Move(after),
                Err(e) => {
                    writeln!(out, "Illegal move: {e}")?;
                    return Ok(Typed::Again);
                }
            },
            _ => {
                writeln!(out, "You cannot move now: {}.", status_line(session, names))?;
                return Ok(Typed::Again);
            }
        },
        // An empty line means "roll" before rolling; while moving it asks for the move.
        Command::Roll if decision == Decision::Move => {
            writeln!(out, "Type your move (or `moves` to list them).")?;
            return Ok(Typed::Again);
        }
        Command::Roll => Action::Roll,
        Command::Double => Action::Double,
        Command::Take => Action::Take,
        Command::Drop => Action::Drop,
        Command::Beaver => Action::Beaver,
        Command::Resign(level) => Action::Resign(level),
        Command::Accept => Action::AcceptResignation,
        Command::Reject => Action::RejectResignation,
    };
    Ok(Typed::Act(action))
}

/// A session's settings, resolved from the command line.
struct Setup {
    options: Options,
    seed: u64,
    players: ByColor<Player>,
    /// "White (human, O)", for the opening line.
    labels: ByColor<String>,
}

fn setup(args: &PlayArgs) -> Result<Setup> {
    backgammon_only(&args.game)?;
    let white = parse_player(&args.white, "--white")?;
    let black = parse_player(&args.black, "--black")?;
    let options = options(args, white.is_some() && black.is_some())?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let levels = ByColor { white, black };
    // Each bot draws its own random choices from the session seed, apart from the dice.
    let players = ByColor::new_with(|c| match levels[c] {
        None => Player::Human,
        Some(level) => Player::Bot(Box::new(BackgammonBot::new(
            level,
            seed.wrapping_add(1 + c.index() as u64),
        ))),
    });
    let labels = ByColor::new_with(|c| match levels[c] {
        None => format!("{} (human, {})", capitalized(c), checker(c)),
        Some(level) => format!("{} ({level}, {})", capitalized(c), checker(c)),
    });
    Ok(Setup {
        options,
        seed,
        players,
        labels,
    })
}

fn capitalized(c: Color) -> String {
    match c {
        Color::White => "White".to_string(),
        Color::Black => "Black".to_string(),
    }
}

/// Runs the command, reading people's input from `input`.
pub fn run(args: &PlayArgs, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<()> {
    let Setup {
        options,
        seed,
        mut players,
        labels,
    } = setup(args)?;
    let names = ByColor::new_with(capitalized);
    let mut session = Backgammon::new(options).map_err(|e| bad_input(e.to_string()))?;
    let mut dice = ChaChaDice::new(seed);
    let mut narrator = Narrator::new(names.clone());
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
    writeln!(
        out,
        "{what}: {} against {}. Seed {seed} (replay with --seed {seed}).",
        labels.white, labels.black
    )?;
    let any_human = players.white.is_human() || players.black.is_human();
    if any_human {
        writeln!(out, "Type help for the commands.")?;
    }
    let mut before = session.game().clone();
    // The event count when the board was last drawn, so that it is drawn once per change.
    let mut drawn_at: Option<usize> = None;
    loop {
        for line in narrator.narrate(&session, &before) {
            writeln!(out, "{line}")?;
        }
        before = session.game().clone();
        match session.status() {
            Status::Over(outcome) => {
                writeln!(out, "{}", final_line(&session, outcome.winner))?;
                return Ok(());
            }
            Status::Chance(_) => session
                .roll(dice.roll())
                .map_err(|e| anyhow!("the session refused a roll: {e}"))?,
            Status::Decide { player, decision } => match &mut players[player] {
                Player::Bot(bot) => {
                    let action = bot.choose(&session);
                    session
                        .apply(&action)
                        .map_err(|e| anyhow!("the {} bot's {action} was refused: {e}", player))?;
                }
                Player::Human => {
                    let layout = Layout {
                        viewer: player,
                        home: HomeSide::Right,
                    };
                    if drawn_at != Some(session.events().len()) {
                        if let Some(line) = narrator.flush() {
                            writeln!(out, "{line}")?;
                        }
                        write!(out, "\n{}", render(&view(&session, &names), layout))?;
                        drawn_at = Some(session.events().len());
                    }
                    match read_human(&session, decision, &names, layout, input, out)? {
                        Typed::Act(action) => {
                            if let Err(e) = session.apply(&action) {
                                writeln!(out, "{}", refusal(&e))?;
                            }
                        }
                        Typed::Again => {}
                        Typed::Quit => {
                            writeln!(
                                out,
                                "Stopped in game {}, {}. Replay with --seed {seed}.",
                                session.game_number(),
                                score_text(&session)
                            )?;
                            return Ok(());
                        }
                    }
                }
            },
        }
    }
}

/// Why a person's action was refused, as a sentence.
fn refusal(e: &BackgammonError) -> String {
    let mut s = e.to_string();
    if let Some(first) = s.get(0..1) {
        let upper = first.to_ascii_uppercase();
        s.replace_range(0..1, &upper);
    }
    format!("{s}.")
}

/// The last line: who won the match, or the money totals.
fn final_line(session: &Backgammon, winner: Option<Color>) -> String {
    let s = session.score();
    let games = session.results().len();
    let games = if games == 1 {
        "1 game".to_string()
    } else {
        format!("{games} games")
    };
    match (session.options().match_length(), winner) {
        (Some(_), Some(w)) => format!(
            "{} wins the match {}-{} after {games}.",
            capitalized(w),
            s[w],
            s[!w]
        ),
        (None, Some(w)) => format!(
            "Session over after {games}: {} wins {} net ({}).",
            capitalized(w),
            s[w] - s[!w],
            score_text(session)
        ),
        (_, None) => format!(
            "Session over after {games}: all square ({}).",
            score_text(session)
        ),
    }
}
