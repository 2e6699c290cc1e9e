//! `tabula play`: a match, a money session or a single game in the terminal, people against
//! bots or each other, driven through [`tabula_core::Game`].
//!
//! One loop ([`drive`]) serves every game: it rolls at chance nodes, lets bots act, draws the
//! board for people and reads their lines. What differs between games (the session type, its
//! bots, its narration, its drawing, which commands exist) sits behind the small [`Table`]
//! trait, with one implementation per game: [`backgammon`] (with the cube),
//! [`never_finishing`] (hit or trap, no cube), [`halma`] (Grasshopper (Halma): no dice, a
//! draw by agreement) and [`grasshopper`] (the dice-free backgammon variant, with a perfect
//! bot from the exact solver). A dice-free game simply never reaches a chance node.
//!
//! The dice come from [`ChaChaDice`] seeded with `--seed` (or the clock, printed), and the
//! bots are seeded from the same seed, so a session between bots replays exactly, and a
//! session with people replays when they type the same things. What happened is told from
//! the session's event log; people see the board from their side whenever they must decide.

mod backgammon;
mod grasshopper;
mod halma;
mod human;
mod narrate;
mod never_finishing;
mod nf_narrate;

use crate::board::checker;
use crate::error::bad_input;
use crate::input::refuse_checkers;
use crate::PlayArgs;
use anyhow::{anyhow, Result};
use human::Command;
use std::io::{BufRead, ErrorKind, Write};
use tabula_ai::bots::NoSuchBot;
use tabula_ai::{Bot, Level};
use tabula_core::{
    ByColor, ChaChaDice, Color, Decision, DiceRoll, DiceSource, GameId, Outcome, Status,
};

/// What the terminal loop needs of one game's session, its bots and its narrator.
trait Table {
    /// What a person's line becomes.
    type Action;

    /// Whose decision it is, that dice are needed, or that the session is over.
    fn status(&self) -> Status;
    /// How many events the session has logged (the board is drawn once per change).
    fn event_count(&self) -> usize;
    /// Supplies dice at a chance node. A dice-free game never reaches one and keeps this
    /// default, which refuses.
    fn roll(&mut self, _roll: DiceRoll) -> Result<()> {
        Err(anyhow!("this game is played without dice"))
    }
    /// Lets `player`'s bot act; `false` when `player` is a person.
    fn bot_acts(&mut self, player: Color) -> Result<bool>;
    /// Applies a person's action; a refusal comes back as a sentence to show them.
    fn apply(&mut self, action: Self::Action) -> Result<(), String>;
    /// Lines for the events logged since the last call.
    fn narrate(&mut self) -> Vec<String>;
    /// A roll held back by the narrator (to be told with its play), as its own line. Games
    /// without dice hold nothing back.
    fn flush(&mut self) -> Option<String> {
        None
    }
    /// The drawing of the current state, seen from `viewer`'s side.
    fn drawing(&self, viewer: Color) -> String;
    /// What the deciding player is asked ("White to play 6-5").
    fn status_line(&self) -> String;
    /// The legal plays when a move is due, in the order `moves` lists them.
    fn plays(&self) -> Vec<(String, Self::Action)>;
    /// The play a person typed, or why it is refused, as the sentence to show
    /// ("Illegal move: ...").
    fn read_play(&self, text: &str) -> Result<Self::Action, String>;
    /// Any other command (roll, cube, resignation, pass, draw), or why it is refused.
    fn other(&self, command: &Command) -> Result<Self::Action, String>;
    /// The help text.
    fn help(&self) -> &'static str;
    /// The choices named in the prompt for a decision.
    fn hint(&self, decision: Decision) -> &'static str;
    /// Where the session stands, for the line printed on quitting, after "Stopped ":
    /// "in game 2, score 1-0 to 3", "at ply 12, White to move".
    fn progress(&self) -> String;
    /// The last line once the session is over.
    fn final_line(&self, outcome: &Outcome) -> String;
}

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
fn make_bots<G: tabula_core::Game>(
    levels: ByColor<Option<Level>>,
    seed: u64,
    factory: impl Fn(Level, u64) -> Result<Box<dyn Bot<G> + Send>, NoSuchBot>,
) -> Result<ByColor<Option<Box<dyn Bot<G> + Send>>>> {
    let make = |c: Color| -> Result<_> {
        levels[c]
            .map(|level| factory(level, bot_seed(seed, c)))
            .transpose()
            .map_err(|e| bad_input(format!("--{c} {}: {e}", e.level)))
    };
    Ok(ByColor {
        white: make(Color::White)?,
        black: make(Color::Black)?,
    })
}

/// The bots of both sides of a dice game, `None` for a person.
type DiceBots<G> = ByColor<Option<Box<dyn Bot<G> + Send>>>;

/// Lets `player`'s bot, if it has one, choose an action and play it on `session`; `false`
/// when `player` is a person. Shared by the dice games' tables, whose sessions hold no
/// per-move state of the interface's own.
fn bot_turn<G: tabula_core::Game>(
    session: &mut G,
    bots: &mut DiceBots<G>,
    player: Color,
) -> Result<bool>
where
    G::Action: std::fmt::Debug,
{
    let Some(bot) = &mut bots[player] else {
        return Ok(false);
    };
    let action = bot
        .choose(session)
        .ok_or_else(|| anyhow!("the {player} bot found no action to take"))?;
    session
        .apply(&action)
        .map_err(|e| anyhow!("the {player} bot's {action:?} was refused: {e}"))?;
    Ok(true)
}

/// Supplies dice to a dice game's session.
fn roll_dice<G: tabula_core::Game>(session: &mut G, roll: DiceRoll) -> Result<()> {
    session
        .roll(roll)
        .map_err(|e| anyhow!("the session refused a roll: {e}"))
}

fn capitalized(c: Color) -> String {
    match c {
        Color::White => "White".to_string(),
        Color::Black => "Black".to_string(),
    }
}

/// The players' names as narrated and drawn.
fn names() -> ByColor<String> {
    ByColor::new_with(capitalized)
}

/// The score line: "score 2-0 to 5" (White's first), or money totals.
fn score_line(score: ByColor<u32>, match_length: Option<u32>) -> String {
    match match_length {
        Some(n) => format!("score {}-{} to {n}", score.white, score.black),
        None => format!("total White {}, Black {}", score.white, score.black),
    }
}

/// The outcome of a finished table (tests of the final lines).
#[cfg(test)]
fn ended<T: Table>(table: &T) -> Outcome {
    match table.status() {
        Status::Over(outcome) => outcome,
        other => panic!("the game is not over: {other:?}"),
    }
}

/// The last line: who won the match, or the money totals.
fn final_line(
    score: ByColor<u32>,
    match_length: Option<u32>,
    games: usize,
    winner: Option<Color>,
) -> String {
    let s = score;
    let games = if games == 1 {
        "1 game".to_string()
    } else {
        format!("{games} games")
    };
    match (match_length, winner) {
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
            score_line(score, match_length)
        ),
        (_, None) => format!(
            "Session over after {games}: all square ({}).",
            score_line(score, match_length)
        ),
    }
}

/// What a person's turn at the keyboard produced.
enum Typed<A> {
    /// An action to apply.
    Act(A),
    /// Nothing to apply (help, a list, a refused line): ask again.
    Again,
    /// Stop the session.
    Quit,
}

/// Reads one line from a person and turns it into an action, explaining refusals.
fn read_human<T: Table>(
    table: &T,
    player: Color,
    decision: Decision,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Typed<T::Action>> {
    write!(
        out,
        "{} ({}; help)> ",
        capitalized(player),
        table.hint(decision)
    )?;
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
    let moving = decision == Decision::Move;
    let cannot_move = || format!("You cannot move now: {}.", table.status_line());
    let reply = match command {
        Command::Help => table.help().to_string(),
        Command::Quit => return Ok(Typed::Quit),
        Command::Board => {
            write!(out, "{}", table.drawing(player))?;
            return Ok(Typed::Again);
        }
        Command::Moves if moving => {
            for (i, (text, _)) in table.plays().iter().enumerate() {
                writeln!(out, "{:>3}. {text}", i + 1)?;
            }
            return Ok(Typed::Again);
        }
        Command::Moves => "There is nothing to move now.".to_string(),
        Command::Pick(n) if moving => {
            let mut plays = table.plays();
            match n.checked_sub(1).filter(|&i| i < plays.len()) {
                Some(i) => return Ok(Typed::Act(plays.swap_remove(i).1)),
                None => format!("There is no move {n}; type moves to list them."),
            }
        }
        Command::Play(text) if moving => match table.read_play(&text) {
            Ok(action) => return Ok(Typed::Act(action)),
            Err(reason) => reason,
        },
        Command::Pick(_) | Command::Play(_) => cannot_move(),
        // An empty line means "roll" before rolling; while moving it asks for the move.
        Command::Roll if moving => "Type your move (or `moves` to list them).".to_string(),
        other => match table.other(&other) {
            Ok(action) => return Ok(Typed::Act(action)),
            Err(reason) => reason,
        },
    };
    writeln!(out, "{reply}")?;
    Ok(Typed::Again)
}

/// Plays the session to its end or until a person quits.
fn drive<T: Table>(
    table: &mut T,
    seed: u64,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<()> {
    let mut dice = ChaChaDice::new(seed);
    // The event count when the board was last drawn, so that it is drawn once per change.
    let mut drawn_at: Option<usize> = None;
    loop {
        for line in table.narrate() {
            writeln!(out, "{line}")?;
        }
        match table.status() {
            Status::Over(outcome) => {
                writeln!(out, "{}", table.final_line(&outcome))?;
                return Ok(());
            }
            Status::Chance(_) => table.roll(dice.roll())?,
            Status::Decide { player, decision } => {
                if table.bot_acts(player)? {
                    continue;
                }
                if drawn_at != Some(table.event_count()) {
                    if let Some(line) = table.flush() {
                        writeln!(out, "{line}")?;
                    }
                    write!(out, "\n{}", table.drawing(player))?;
                    drawn_at = Some(table.event_count());
                }
                match read_human(table, player, decision, input, out)? {
                    Typed::Act(action) => {
                        if let Err(reason) = table.apply(action) {
                            writeln!(out, "{reason}")?;
                        }
                    }
                    Typed::Again => {}
                    Typed::Quit => {
                        writeln!(
                            out,
                            "Stopped {}. Replay with --seed {seed}.",
                            table.progress()
                        )?;
                        return Ok(());
                    }
                }
            }
        }
    }
}

/// Each side's bot by name (`None` for a person), as the opening line tells them.
fn bot_names(levels: ByColor<Option<Level>>) -> ByColor<Option<String>> {
    ByColor::new_with(|c| levels[c].map(|level| level.to_string()))
}

/// Prints the opening lines and plays the session. `bots` names each side's bot (`None`
/// for a person).
fn start<T: Table>(
    table: &mut T,
    what: &str,
    bots: ByColor<Option<String>>,
    seed: u64,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<()> {
    let labels = ByColor::new_with(|c| match &bots[c] {
        None => format!("{} (human, {})", capitalized(c), checker(c)),
        Some(bot) => format!("{} ({bot}, {})", capitalized(c), checker(c)),
    });
    writeln!(
        out,
        "{what}: {} against {}. Seed {seed} (replay with --seed {seed}).",
        labels.white, labels.black
    )?;
    if bots.white.is_none() || bots.black.is_none() {
        writeln!(out, "Type help for the commands.")?;
    }
    drive(table, seed, input, out)
}

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

/// Runs the command, reading people's input from `input`.
pub fn run(args: &PlayArgs, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<()> {
    let two_bots =
        |levels: ByColor<Option<Level>>| levels.white.is_some() && levels.black.is_some();
    if args.game.id != GameId::Grasshopper {
        refuse_checkers(args.game.checkers, args.game.id)?;
    }
    match args.game.id {
        GameId::Backgammon => {
            let levels = dice_game_levels(args)?;
            let options = backgammon::options(args, two_bots(levels))?;
            let seed = args.seed.unwrap_or_else(clock_seed);
            let (mut table, what) = backgammon::table(options, levels, seed)?;
            start(&mut table, &what, bot_names(levels), seed, input, out)
        }
        GameId::NeverFinishing => {
            let levels = dice_game_levels(args)?;
            let options = never_finishing::options(args, two_bots(levels))?;
            let seed = args.seed.unwrap_or_else(clock_seed);
            let (mut table, what) = never_finishing::table(options, levels, seed)?;
            start(&mut table, &what, bot_names(levels), seed, input, out)
        }
        GameId::HalmaGrasshopper => {
            let seed = args.seed.unwrap_or_else(clock_seed);
            let (mut table, what, levels) = halma::table(args, seed)?;
            start(&mut table, &what, bot_names(levels), seed, input, out)
        }
        GameId::Grasshopper => {
            let seed = args.seed.unwrap_or_else(clock_seed);
            let (mut table, what, players) = grasshopper::table(args, seed)?;
            let bots = ByColor::new_with(|c| players[c].bot_name());
            start(&mut table, &what, bots, seed, input, out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn final_lines_name_the_winner_or_the_tie() {
        let score = ByColor { white: 3, black: 1 };
        assert_eq!(
            final_line(score, Some(3), 4, Some(Color::White)),
            "White wins the match 3-1 after 4 games."
        );
        assert_eq!(
            final_line(score, None, 1, Some(Color::White)),
            "Session over after 1 game: White wins 2 net (total White 3, Black 1)."
        );
        let even = ByColor { white: 1, black: 1 };
        assert_eq!(
            final_line(even, None, 2, None),
            "Session over after 2 games: all square (total White 1, Black 1)."
        );
    }
}
