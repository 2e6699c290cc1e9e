//! The one terminal loop of `tabula play`, for every game through its
//! [`tabula_games::Terminal`]: it rolls at chance nodes, lets bots act, tells what happened,
//! draws the board for people and reads their lines. A dice-free game simply never reaches a
//! chance node.

use anyhow::{anyhow, Result};
use std::io::{BufRead, ErrorKind, Write};
use tabula_ai::Bot;
use tabula_core::{ByColor, ChaChaDice, Color, Decision, DiceSource, Status};
use tabula_games::terminal::{self, capitalized, checker, Command};
use tabula_games::Terminal;

/// A bot seated at one side, with the name the opening line gives it.
pub struct Seated<F> {
    /// "medium", "perfect".
    pub name: String,
    /// The bot.
    pub bot: Box<dyn Bot<F>>,
}

/// A game ready to play: the game, the words that open the session ("Match to 5") and who
/// plays each side (`None` for a person).
pub struct Setup<F> {
    /// The game or session.
    pub game: F,
    /// The words that open the session.
    pub what: String,
    /// Each side's bot; `None` for a person.
    pub bots: ByColor<Option<Seated<F>>>,
}

/// A game at the terminal: the game, its narrator and its bots.
struct Table<F: Terminal> {
    game: F,
    story: F::Narrator,
    bots: ByColor<Option<Box<dyn Bot<F>>>>,
    /// How many actions and rolls have been applied (the board is drawn once per change).
    steps: usize,
}

impl<F: Terminal> Table<F> {
    /// Applies a person's or a bot's action; a refusal is the sentence to show.
    fn apply(&mut self, action: &F::Action) -> Result<(), String> {
        terminal::play(&mut self.game, &mut self.story, action)?;
        self.steps += 1;
        Ok(())
    }

    /// Supplies dice at a chance node.
    fn roll(&mut self, roll: tabula_core::DiceRoll) -> Result<()> {
        self.game
            .roll(roll)
            .map_err(|e| anyhow!("the session refused a roll: {e}"))?;
        self.steps += 1;
        Ok(())
    }

    /// Lets `player`'s bot act; `false` when `player` is a person.
    fn bot_acts(&mut self, player: Color) -> Result<bool> {
        let Some(bot) = &mut self.bots[player] else {
            return Ok(false);
        };
        let action = bot
            .choose(&self.game)
            .ok_or_else(|| anyhow!("the {player} bot found no action to take"))?;
        self.apply(&action)
            .map_err(|e| anyhow!("the {player} bot's {action:?} was refused: {e}"))?;
        Ok(true)
    }

    /// The drawing from `viewer`'s side.
    fn drawing(&self, viewer: Color) -> String {
        self.game.drawing(&self.story, viewer)
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
fn read_human<F: Terminal>(
    table: &Table<F>,
    player: Color,
    decision: Decision,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Typed<F::Action>> {
    let game = &table.game;
    write!(
        out,
        "{} ({}; help)> ",
        capitalized(player),
        game.hint(decision)
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
    let command = match terminal::parse(&line) {
        Ok(c) => c,
        Err(reason) => {
            writeln!(out, "{reason}")?;
            return Ok(Typed::Again);
        }
    };
    let moving = decision == Decision::Move;
    let cannot_move = || format!("You cannot move now: {}.", game.status_line());
    let reply = match command {
        Command::Help => game.help().to_string(),
        Command::Quit => return Ok(Typed::Quit),
        Command::Board => {
            write!(out, "{}", table.drawing(player))?;
            return Ok(Typed::Again);
        }
        Command::Moves if moving => {
            for (i, (text, _)) in game.plays().iter().enumerate() {
                writeln!(out, "{:>3}. {text}", i + 1)?;
            }
            return Ok(Typed::Again);
        }
        Command::Moves => "There is nothing to move now.".to_string(),
        Command::Pick(n) if moving => {
            let mut plays = game.plays();
            match n.checked_sub(1).filter(|&i| i < plays.len()) {
                Some(i) => return Ok(Typed::Act(plays.swap_remove(i).1)),
                None => format!("There is no move {n}; type moves to list them."),
            }
        }
        Command::Play(text) if moving => match game.read_play(&text) {
            Ok(action) => return Ok(Typed::Act(action)),
            Err(reason) => reason,
        },
        Command::Pick(_) | Command::Play(_) => cannot_move(),
        // An empty line means "roll" before rolling; while moving it asks for the move.
        Command::Roll if moving => "Type your move (or `moves` to list them).".to_string(),
        other => match game.command(&other) {
            Ok(action) => return Ok(Typed::Act(action)),
            Err(reason) => reason,
        },
    };
    writeln!(out, "{reply}")?;
    Ok(Typed::Again)
}

/// Plays the session to its end or until a person quits.
fn drive<F: Terminal>(
    table: &mut Table<F>,
    seed: u64,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<()> {
    let mut dice = ChaChaDice::new(seed);
    // The step count when the board was last drawn, so that it is drawn once per change.
    let mut drawn_at: Option<usize> = None;
    loop {
        for line in table.game.narrate(&mut table.story) {
            writeln!(out, "{line}")?;
        }
        match table.game.status() {
            Status::Over(outcome) => {
                writeln!(out, "{}", table.game.final_line(&table.story, &outcome))?;
                return Ok(());
            }
            Status::Chance(_) => table.roll(dice.roll())?,
            Status::Decide { player, decision } => {
                if table.bot_acts(player)? {
                    continue;
                }
                if drawn_at != Some(table.steps) {
                    if let Some(line) = table.game.flush(&mut table.story) {
                        writeln!(out, "{line}")?;
                    }
                    write!(out, "\n{}", table.drawing(player))?;
                    drawn_at = Some(table.steps);
                }
                match read_human(table, player, decision, input, out)? {
                    Typed::Act(action) => {
                        if let Err(reason) = table.apply(&action) {
                            writeln!(out, "{reason}")?;
                        }
                    }
                    Typed::Again => {}
                    Typed::Quit => {
                        writeln!(
                            out,
                            "Stopped {}. Replay with --seed {seed}.",
                            table.game.progress(&table.story)
                        )?;
                        return Ok(());
                    }
                }
            }
        }
    }
}

/// Prints the opening lines and plays the session.
pub fn start<F: Terminal>(
    setup: Setup<F>,
    seed: u64,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<()> {
    let Setup { game, what, bots } = setup;
    let labels = ByColor::new_with(|c| match &bots[c] {
        None => format!("{} (human, {})", capitalized(c), checker(c)),
        Some(seated) => format!("{} ({}, {})", capitalized(c), seated.name, checker(c)),
    });
    writeln!(
        out,
        "{what}: {} against {}. Seed {seed} (replay with --seed {seed}).",
        labels.white, labels.black
    )?;
    if bots.white.is_none() || bots.black.is_none() {
        writeln!(out, "Type help for the commands.")?;
    }
    let ByColor { white, black } = bots;
    let mut table = Table {
        story: game.narrator(),
        game,
        bots: ByColor {
            white: white.map(|s| s.bot),
            black: black.map(|s| s.bot),
        },
        steps: 0,
    };
    drive(&mut table, seed, input, out)
}
