//! Grasshopper (the dice-free backgammon variant) at the terminal: one game through
//! [`tabula_core::Game`] ([`Grasshopper`]), its two bots, its narration, and the [`Table`] the
//! common loop drives. There are no dice: the loop never reaches a chance node.
//!
//! The bots: every level of [`tabula_ai::bots::grasshopper`] (`random` picks uniformly among
//! the legal actions), and `perfect`, which plays the exact solver's best move
//! ([`Solver::best_move`]: a won position stays won, a drawn one at least drawn). Solving takes
//! about a second for 4 checkers each and more than half an hour for 6, so `perfect` is offered
//! up to 4 checkers; both perfect sides share one solver and its table.
//!
//! The library keeps no event log, so the table keeps its own: one entry per action applied,
//! with the positions before and after it, from which the narration tells jumps, walls and
//! scores.

use super::human::{Command, GRASSHOPPER_HELP};
use super::{bot_seed, capitalized, names, parse_player, Table};
use crate::board::grasshopper::{render_grasshopper, status_text, GrasshopperView};
use crate::error::bad_input;
use crate::input::grasshopper_checkers;
use crate::PlayArgs;
use anyhow::{anyhow, Result};
use tabula_ai::{bots, Level};
use tabula_core::{ByColor, Color, Decision, Game, GameId, Outcome, Status};
use tabula_grasshopper::notation::MoveTextError;
use tabula_grasshopper::solver::Solver;
use tabula_grasshopper::{Action, Checkers, Grasshopper, Point, Position};

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

/// A side's bot.
enum Bot {
    /// A bot from the factory.
    Level(Box<dyn tabula_ai::Bot<Grasshopper> + Send>),
    /// The solver's best move (the solver is the table's, shared by both sides).
    Perfect,
}

/// One action applied, as the narration needs it.
#[derive(Debug, Clone, Copy)]
struct Logged {
    player: Color,
    action: Action,
    before: Position,
    after: Position,
}

/// A game of Grasshopper at the terminal.
pub struct GrasshopperTable {
    game: Grasshopper,
    /// Each side's bot; `None` for a person.
    bots: ByColor<Option<Bot>>,
    /// The exact solver, made when a perfect bot first moves.
    solver: Option<Solver<'static>>,
    /// Every action applied, in order.
    log: Vec<Logged>,
    /// How many log entries have been told.
    told: usize,
    names: ByColor<String>,
}

/// The table for the command line's options, the words that open the game ("Grasshopper with
/// 14 checkers each"), and who plays: White a person, Black the perfect bot up to 4 checkers
/// each and the random bot beyond, unless told otherwise.
pub fn table(args: &PlayArgs, seed: u64) -> Result<(GrasshopperTable, String, ByColor<Player>)> {
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
    let table = GrasshopperTable {
        game: Grasshopper::new(checkers),
        bots: ByColor::new_with(|c| match players[c] {
            Player::Human => None,
            Player::Bot(level) => Some(Bot::Level(
                bots::grasshopper(level, bot_seed(seed, c)).expect("the level was checked"),
            )),
            Player::Perfect => Some(Bot::Perfect),
        }),
        solver: None,
        log: Vec::new(),
        told: 0,
        names: names(),
    };
    Ok((table, what, players))
}

/// `text` with a capital first letter and a full stop.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => format!("{}{}.", first.to_uppercase(), chars.as_str()),
        None => String::new(),
    }
}

/// The points strictly between `from` and `to` holding a wall (of either colour) before the
/// move: the walls the top checker of a wall jumped.
fn jumped_walls(before: &Position, from: Point, to: Point) -> Vec<u8> {
    let walls = before.walls(Color::White) | before.walls(Color::Black);
    (from.number() + 1..to.number())
        .filter(|&n| walls & (1 << (n - 1)) != 0)
        .collect()
}

/// ", jumping the wall on 10" or ", jumping the walls on 10, 11", or nothing.
fn jump_text(walls: &[u8]) -> String {
    let list = walls
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    match walls.len() {
        0 => String::new(),
        1 => format!(", jumping the wall on {list}"),
        _ => format!(", jumping the walls on {list}"),
    }
}

/// "1 turn", "12 turns".
fn turns(n: usize) -> String {
    if n == 1 {
        "1 turn".to_string()
    } else {
        format!("{n} turns")
    }
}

impl GrasshopperTable {
    /// The score, White's first: "1-0".
    fn score(position: &Position) -> String {
        format!(
            "{}-{}",
            position.score(Color::White),
            position.score(Color::Black)
        )
    }

    /// The line for one logged action.
    fn tell(&self, e: &Logged) -> String {
        let name = &self.names[e.player];
        let text = e.action.to_string();
        match e.action {
            Action::Enter { to } => format!("{name} plays {text}, entering a checker on {to}"),
            Action::Advance { from, to } => format!(
                "{name} plays {text}{}",
                jump_text(&jumped_walls(&e.before, from, to))
            ),
            Action::Build { from } => {
                let to = from.plus_six().expect("a build lands six points on");
                format!(
                    "{name} plays {text}, building a wall on {to}{}",
                    jump_text(&jumped_walls(&e.before, from, to))
                )
            }
            Action::BearOff { at } if e.after.winner() == Some(e.player) => format!(
                "{name} bears off the wall on {at} and scores again in succession (score {})",
                Self::score(&e.after)
            ),
            Action::BearOff { at } => format!(
                "{name} bears off the wall on {at} and scores (score {}); {name} needs one more \
                 point in succession to win",
                Self::score(&e.after)
            ),
            Action::Discard { at } => {
                format!("{name} discards the single on {at} without scoring")
            }
            Action::Pass => format!("{name} has no legal action and passes"),
        }
    }

    /// The last action, as drawn beside the board: "Black 3-9".
    fn last_move(&self) -> Option<String> {
        self.log
            .last()
            .map(|e| format!("{} {}", self.names[e.player], e.action))
    }

    /// The perfect bot's action: the solver's best move, the solver made on first use.
    fn perfect_action(&mut self) -> Option<Action> {
        let solver = self.solver.get_or_insert_with(Solver::new);
        solver.best_move(self.game.position())
    }
}

impl Table for GrasshopperTable {
    type Action = Action;

    fn status(&self) -> Status {
        self.game.status()
    }

    fn event_count(&self) -> usize {
        self.log.len()
    }

    fn bot_acts(&mut self, player: Color) -> Result<bool> {
        let action = match &mut self.bots[player] {
            None => return Ok(false),
            Some(Bot::Level(bot)) => bot.choose(&self.game),
            Some(Bot::Perfect) => self.perfect_action(),
        };
        let action = action.ok_or_else(|| anyhow!("the {player} bot found no action to take"))?;
        Table::apply(self, action).map_err(|e| anyhow!("the {player} bot's move: {e}"))?;
        Ok(true)
    }

    fn apply(&mut self, action: Action) -> Result<(), String> {
        let before = *self.game.position();
        self.game
            .apply(&action)
            .map_err(|e| sentence(&e.to_string()))?;
        self.log.push(Logged {
            player: before.turn(),
            action,
            before,
            after: *self.game.position(),
        });
        Ok(())
    }

    fn narrate(&mut self) -> Vec<String> {
        let lines = self.log[self.told..].iter().map(|e| self.tell(e)).collect();
        self.told = self.log.len();
        lines
    }

    fn drawing(&self, viewer: Color) -> String {
        let mut view = GrasshopperView::new(*self.game.position());
        view.names = self.names.clone();
        view.last_move = self.last_move();
        render_grasshopper(&view, viewer)
    }

    fn status_line(&self) -> String {
        status_text(self.game.position(), &self.names)
    }

    fn plays(&self) -> Vec<(String, Action)> {
        self.game
            .legal_actions()
            .into_iter()
            .map(|a| (a.to_string(), a))
            .collect()
    }

    /// Malformed text and an illegal move are told apart, each with the library's reason.
    fn read_play(&self, text: &str) -> Result<Action, String> {
        self.game.position().parse_move(text).map_err(|e| match e {
            MoveTextError::Parse(e) => format!("Not a move: {e}"),
            MoveTextError::Illegal { text, reason } => {
                format!("Illegal move: {text}: {reason}")
            }
            other => format!("Illegal move: {other}"),
        })
    }

    fn other(&self, command: &Command) -> Result<Action, String> {
        match command {
            Command::Pass => Ok(Action::Pass),
            Command::Double | Command::Take | Command::Drop | Command::Beaver => {
                Err("There is no cube in Grasshopper.".to_string())
            }
            Command::Draw => Err(
                "There are no draw offers in Grasshopper: the game is drawn when neither side \
                 has a checker left or both must pass."
                    .to_string(),
            ),
            Command::Resign(_) | Command::Accept | Command::Reject => {
                Err("There is no resigning in Grasshopper; type quit to stop.".to_string())
            }
            _ => Err(format!("You cannot do that now: {}.", self.status_line())),
        }
    }

    fn help(&self) -> &'static str {
        GRASSHOPPER_HELP
    }

    fn hint(&self, _decision: Decision) -> &'static str {
        "move"
    }

    fn progress(&self) -> String {
        let position = self.game.position();
        format!(
            "after {}, {} to move, score {}",
            turns(self.log.len()),
            capitalized(position.turn()),
            Self::score(position)
        )
    }

    fn final_line(&self, outcome: &Outcome) -> String {
        let p = self.game.position();
        if !p.is_over() {
            return "The game is not over.".to_string();
        }
        let names = ByColor {
            white: self.names.white.as_str(),
            black: self.names.black.as_str(),
        };
        format!(
            "{} (score {}, {}).",
            outcome.sentence(names).trim_end_matches('.'),
            Self::score(p),
            turns(self.log.len())
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table of two people from `position`.
    fn table_at(position: &str) -> GrasshopperTable {
        GrasshopperTable {
            game: Grasshopper::from_position(position.parse().unwrap()),
            bots: ByColor::default(),
            solver: None,
            log: Vec::new(),
            told: 0,
            names: names(),
        }
    }

    fn play(t: &mut GrasshopperTable, text: &str) {
        let action = t.read_play(text).unwrap();
        t.apply(action).unwrap();
    }

    #[test]
    fn entries_advances_jumps_and_builds_are_told() {
        // White: a single on 2, a wall on 8, a single on 15; Black: a single on 9, a wall on 10.
        let mut t = table_at(".w..../.WbB../..w.../...... w 10-11 0-0 - 14");
        play(&mut t, "8-14");
        play(&mut t, "in 1");
        play(&mut t, "2-8");
        assert_eq!(
            t.read_play("9-13").unwrap_err(),
            "Illegal move: 9-13: the wall on 10 blocks the single checker on 9 from reaching 13"
        );
        play(&mut t, "10-16");
        assert_eq!(
            t.narrate(),
            [
                "White plays 8-14, jumping the wall on 10",
                "Black plays in 1, entering a checker on 1",
                "White plays 2-8w, building a wall on 8",
                "Black plays 10-16",
            ]
        );
        assert!(t.narrate().is_empty(), "each action told once");
        assert_eq!(t.last_move().as_deref(), Some("Black 10-16"));
        assert_eq!(jump_text(&[10, 11]), ", jumping the walls on 10, 11");
    }

    #[test]
    fn scoring_and_winning_are_told() {
        // White's walls on 20 and 21, Black's single on 19; nobody has scored.
        let mut t = table_at("....../....../....../bWW... w 10-13 0-0 - 14");
        play(&mut t, "off 20");
        assert_eq!(
            t.narrate(),
            [
                "White bears off the wall on 20 and scores (score 1-0); White needs one more \
              point in succession to win"
            ]
        );
        play(&mut t, "in 2");
        play(&mut t, "off 21");
        assert_eq!(
            t.narrate()[1],
            "White bears off the wall on 21 and scores again in succession (score 2-0)"
        );
        assert!(matches!(t.status(), Status::Over(_)));
        assert_eq!(
            t.final_line(&super::super::ended(&t)),
            "White wins 1 point: White scored twice in succession, bearing off a wall after also \
             scoring the previous point (score 2-0, 3 turns)."
        );
    }

    #[test]
    fn passes_and_discards_are_told_and_a_stuck_game_is_a_draw() {
        // White cannot enter (A is full) and has nothing on the board.
        let mut t = table_at("bbbbbb/....../....../...... w 14-8 0-0 - 14");
        assert!(t
            .read_play("in 1")
            .unwrap_err()
            .starts_with("Illegal move: in 1: "));
        let pass = t.other(&Command::Pass).unwrap();
        t.apply(pass).unwrap();
        assert_eq!(t.narrate(), ["White has no legal action and passes"]);
        assert_eq!(t.status_line(), "Black to move; White passed");
        // Black's last checker is a single in D: it is discarded.
        let mut t = table_at("w...../....../....../.b.... b 13-0 0-0 - 14");
        play(&mut t, "discard 20");
        assert_eq!(
            t.narrate(),
            ["Black discards the single on 20 without scoring"]
        );
        let t = table_at("bbbbbb/B...../wwwwww/bbbbbb b 8-0 0-0 p 14");
        assert_eq!(
            t.final_line(&super::super::ended(&t)),
            "Drawn: neither player can act: a pass was answered by a pass (score 0-0, 0 turns)."
        );
    }

    #[test]
    fn malformed_and_illegal_moves_are_told_apart() {
        let t = table_at("....../....../....../...... w 14-14 0-0 - 14");
        let malformed = t.read_play("jump 3").unwrap_err();
        assert!(
            malformed.starts_with("Not a move: \"jump 3\" is not a move"),
            "{malformed}"
        );
        assert_eq!(
            t.read_play("in 9").unwrap_err(),
            "Illegal move: in 9: checkers enter on 1-6 (A1-A6), not on 9"
        );
        assert_eq!(
            t.read_play("in A3").unwrap(),
            Action::Enter {
                to: Point::new(3).unwrap()
            }
        );
        assert!(t.other(&Command::Double).unwrap_err().contains("no cube"));
        assert!(t
            .other(&Command::Draw)
            .unwrap_err()
            .contains("no draw offers"));
    }

    #[test]
    fn players_and_options_are_checked() {
        use clap::Parser;
        let parse = |extra: &[&str]| {
            let mut argv = vec!["tabula", "play", "grasshopper"];
            argv.extend_from_slice(extra);
            match crate::Cli::try_parse_from(argv).unwrap().command {
                crate::Command::Play(args) => {
                    table(&args, 1).map(|(_, what, players)| (what, players))
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
