//! Grasshopper (Halma) at the terminal: one game through [`tabula_core::Game`]
//! ([`HalmaGrasshopper`]), its random bot, its narration, and the [`Table`] the common loop
//! drives. There are no dice: the loop never reaches a chance node.
//!
//! The library keeps no event log, so the table keeps its own: one entry per action applied,
//! with the position before it, which is what the narration needs to write a move as its jump
//! path (`c3:e5:g7`).
//!
//! The bots come from [`tabula_ai::bots::halma`], every level it has; `random` picks uniformly
//! among the moves (or the pass), never offers a draw and declines every offer by moving.

use super::human::{Command, HALMA_HELP};
use super::{capitalized, names, parse_player, Table};
use crate::board::halma::{render_halma, HalmaView};
use crate::error::bad_input;
use crate::input::halma_size;
use crate::PlayArgs;
use anyhow::{anyhow, Result};
use tabula_ai::{bots, Bot, Level};
use tabula_core::{ByColor, Color, Decision, Game, GameId, Outcome, Status};
use tabula_halma::notation::{format_move, MoveError, PathStyle};
use tabula_halma::{Action, BoardSize, HalmaGrasshopper, HalmaOptions, Position};

/// The game options from the command line (`--size`, `--ply-limit`); the backgammon
/// options are refused, as this is one game without a cube.
pub fn options(args: &PlayArgs) -> Result<(BoardSize, HalmaOptions)> {
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

/// One action applied, as the narration needs it.
#[derive(Debug, Clone, Copy)]
struct Logged {
    player: Color,
    action: Action,
    /// The position it was played in.
    before: Position,
    /// Whether it was a move that declined the opponent's standing draw offer.
    declined: bool,
}

/// A game of Grasshopper (Halma) at the terminal.
pub struct HalmaTable {
    game: HalmaGrasshopper,
    /// Each side's bot; `None` for a person.
    bots: ByColor<Option<Box<dyn Bot<HalmaGrasshopper> + Send>>>,
    /// Every action applied, in order.
    log: Vec<Logged>,
    /// How many log entries have been told.
    told: usize,
    names: ByColor<String>,
}

/// The table for the command line's options, the words that open the game ("Grasshopper
/// (Halma) on 8x8, ply limit 400"), and who plays (White a person and Black the random bot
/// unless told otherwise).
pub fn table(args: &PlayArgs, seed: u64) -> Result<(HalmaTable, String, ByColor<Option<Level>>)> {
    let (size, options) = options(args)?;
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
    let table = HalmaTable {
        game,
        bots: super::make_bots(levels, seed, bots::halma)?,
        log: Vec::new(),
        told: 0,
        names: names(),
    };
    Ok((table, what, levels))
}

/// An action as told: `c3:e5:g7` for a jump, `c3-d4` for a step.
fn action_text(before: &Position, action: Action) -> String {
    match action {
        Action::Move(mv) => format_move(before, mv, PathStyle::Path),
        other => other.to_string(),
    }
}

/// `text` with a capital first letter and a full stop.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => format!("{}{}.", first.to_uppercase(), chars.as_str()),
        None => String::new(),
    }
}

impl HalmaTable {
    /// The line for one logged action.
    fn tell(&self, entry: &Logged) -> String {
        let name = &self.names[entry.player];
        match entry.action {
            Action::Move(_) => {
                let text = action_text(&entry.before, entry.action);
                if entry.declined {
                    format!("{name} plays {text}, declining the draw")
                } else {
                    format!("{name} plays {text}")
                }
            }
            Action::Pass => format!("{name} has no legal move and passes"),
            Action::OfferDraw => format!("{name} offers a draw"),
            Action::AcceptDraw => format!("{name} accepts the draw"),
        }
    }

    /// The last move played, as drawn beside the board: "Black g6:e4:c4".
    fn last_move(&self) -> Option<String> {
        self.log
            .iter()
            .rev()
            .find(|e| matches!(e.action, Action::Move(_) | Action::Pass))
            .map(|e| {
                format!(
                    "{} {}",
                    self.names[e.player],
                    action_text(&e.before, e.action)
                )
            })
    }

    /// How the game ended, in one sentence with the ply it ended on.
    fn end_text(&self) -> String {
        let names = ByColor {
            white: self.names.white.as_str(),
            black: self.names.black.as_str(),
        };
        match self.game.outcome() {
            Some(outcome) => {
                format!(
                    "{} (ply {})",
                    outcome.sentence(names).trim_end_matches('.'),
                    self.game.position().ply()
                ) + "."
            }
            None => String::new(),
        }
    }
}

impl Table for HalmaTable {
    type Action = Action;

    fn status(&self) -> Status {
        self.game.status()
    }

    fn event_count(&self) -> usize {
        self.log.len()
    }

    fn bot_acts(&mut self, player: Color) -> Result<bool> {
        let Some(bot) = &mut self.bots[player] else {
            return Ok(false);
        };
        let action = bot
            .choose(&self.game)
            .ok_or_else(|| anyhow!("the {player} bot found no move to play"))?;
        Table::apply(self, action).map_err(|e| anyhow!("the {player} bot's move: {e}"))?;
        Ok(true)
    }

    fn apply(&mut self, action: Action) -> Result<(), String> {
        let before = *self.game.position();
        let player = before.to_move();
        let declined = matches!(action, Action::Move(_) | Action::Pass)
            && self.game.draw_offer() == Some(!player);
        self.game
            .apply(&action)
            .map_err(|e| sentence(&e.to_string()))?;
        self.log.push(Logged {
            player,
            action,
            before,
            declined,
        });
        Ok(())
    }

    fn narrate(&mut self) -> Vec<String> {
        let lines = self.log[self.told..].iter().map(|e| self.tell(e)).collect();
        self.told = self.log.len();
        lines
    }

    fn drawing(&self, viewer: Color) -> String {
        let mut view = HalmaView::new(*self.game.position());
        view.names = self.names.clone();
        view.status = self.status_line();
        view.ply_limit = Some(self.game.ply_limit());
        view.last_move = self.last_move();
        render_halma(&view, viewer)
    }

    fn status_line(&self) -> String {
        let to_move = self.game.position().to_move();
        let name = &self.names[to_move];
        match self.game.draw_offer() {
            Some(c) if c == to_move => format!("{name} to move (draw offered)"),
            Some(c) => format!("{name} to move; {} offers a draw", self.names[c]),
            None => format!("{name} to move"),
        }
    }

    fn plays(&self) -> Vec<(String, Action)> {
        let before = self.game.position();
        self.game
            .legal_actions()
            .into_iter()
            .filter(|a| matches!(a, Action::Move(_) | Action::Pass))
            .map(|a| (action_text(before, a), a))
            .collect()
    }

    /// Malformed text and an illegal move are told apart, each with the library's reason.
    fn read_play(&self, text: &str) -> Result<Action, String> {
        Action::parse(self.game.position(), text).map_err(|e| match e {
            MoveError::Parse(e) => format!("Not a move: {e}"),
            MoveError::Illegal(e) => format!("Illegal move: {e}"),
            other => format!("Illegal move: {other}"),
        })
    }

    fn other(&self, command: &Command) -> Result<Action, String> {
        let me = self.game.position().to_move();
        let offer = self.game.draw_offer();
        match command {
            Command::Pass => Ok(Action::Pass),
            Command::Draw | Command::Accept if offer == Some(!me) => Ok(Action::AcceptDraw),
            Command::Draw if offer == Some(me) => Err(format!(
                "Your draw offer stands until {}'s turn; now make your move.",
                self.names[!me]
            )),
            Command::Draw => Ok(Action::OfferDraw),
            Command::Reject if offer == Some(!me) => {
                Err("Make your move: moving declines the draw.".to_string())
            }
            Command::Double | Command::Take | Command::Drop | Command::Beaver => {
                Err("There is no cube in Grasshopper (Halma).".to_string())
            }
            Command::Resign(_) | Command::Accept | Command::Reject => Err(
                "There is no resigning in Grasshopper (Halma); offer a draw with draw, \
                 or type quit to stop."
                    .to_string(),
            ),
            _ => Err(format!("You cannot do that now: {}.", self.status_line())),
        }
    }

    fn help(&self) -> &'static str {
        HALMA_HELP
    }

    fn hint(&self, _decision: Decision) -> &'static str {
        "move, draw"
    }

    fn progress(&self) -> String {
        let position = self.game.position();
        format!(
            "at ply {}, {} to move",
            position.ply(),
            capitalized(position.to_move())
        )
    }

    fn final_line(&self, _outcome: &Outcome) -> String {
        if self.game.end().is_none() {
            return "The game is not over.".to_string();
        }
        self.end_text()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table of two people from `position`.
    fn table_at(position: &str, options: HalmaOptions) -> HalmaTable {
        HalmaTable {
            game: HalmaGrasshopper::from_position(position.parse().unwrap(), options),
            bots: ByColor::default(),
            log: Vec::new(),
            told: 0,
            names: names(),
        }
    }

    const START: &str = "8:4bbbb/5bbb/6bb/7b/w7/ww6/www5/wwww4:w:0";

    #[test]
    fn jumps_are_told_with_their_path_and_steps_from_to() {
        let mut t = table_at(START, HalmaOptions::default());
        let jump = t.read_play("a3-a5").unwrap();
        t.apply(jump).unwrap();
        let step = t.read_play("h5:g4").unwrap();
        t.apply(step).unwrap();
        assert_eq!(t.narrate(), ["White plays a3:a5", "Black plays h5-g4"]);
        assert_eq!(t.last_move().as_deref(), Some("Black h5-g4"));
        assert!(t.narrate().is_empty(), "each action told once");
    }

    #[test]
    fn malformed_and_illegal_moves_are_told_apart() {
        let t = table_at(START, HalmaOptions::default());
        let malformed = t.read_play("c3+e5").unwrap_err();
        assert!(malformed.starts_with("Not a move:"), "{malformed}");
        let illegal = t.read_play("e4-e5").unwrap_err();
        assert_eq!(illegal, "Illegal move: there is no white piece on e4");
    }

    #[test]
    fn a_draw_is_offered_then_accepted_or_declined_by_moving() {
        let mut t = table_at(START, HalmaOptions::default());
        let offer = t.other(&Command::Draw).unwrap();
        t.apply(offer).unwrap();
        assert!(t.other(&Command::Draw).unwrap_err().contains("stands"));
        assert_eq!(t.status_line(), "White to move (draw offered)");
        t.apply(t.read_play("a4-a5").unwrap()).unwrap();
        assert_eq!(t.status_line(), "Black to move; White offers a draw");
        let accept = t.other(&Command::Draw).unwrap();
        assert_eq!(accept, Action::AcceptDraw);
        let mut declined = table_at(START, HalmaOptions::default());
        declined.log = t.log.clone();
        declined.game = t.game.clone();
        declined.told = t.told;
        declined
            .apply(declined.read_play("h5-g4").unwrap())
            .unwrap();
        t.apply(accept).unwrap();
        assert_eq!(
            t.narrate(),
            [
                "White offers a draw",
                "White plays a4-a5",
                "Black accepts the draw"
            ]
        );
        assert_eq!(
            t.final_line(&super::super::ended(&t)),
            "Drawn: the players agreed to a draw (ply 1)."
        );
        assert_eq!(
            declined.narrate().last().unwrap(),
            "Black plays h5-g4, declining the draw"
        );
    }

    #[test]
    fn the_endings_are_narrated() {
        // White to move at ply 57: g4-h5 puts the last White piece into Black's camp.
        let mut t = table_at(
            "8:4wwww/5www/6ww/2bb4/2bbbbw1/2bbbb2/8/8:w:57",
            HalmaOptions::default(),
        );
        t.apply(t.read_play("g4-h5").unwrap()).unwrap();
        assert_eq!(
            t.final_line(&super::super::ended(&t)),
            "White wins 1 point: all of White's pieces stand in Black's starting camp (ply 58)."
        );
        // Black's h8 piece is still at home when Black makes its 30th move: Black loses by
        // the evacuation rule.
        let mut t = table_at(
            "8:4wwwb/5www/6ww/7w/3w4/bb6/bbb5/bbbb4:b:58",
            HalmaOptions::default(),
        );
        t.apply(t.read_play("a3-a4").unwrap()).unwrap();
        assert_eq!(
            t.final_line(&super::super::ended(&t)),
            "White wins 1 point: Black still had a piece in their own starting camp after their \
             30th move (the evacuation rule) (ply 59)."
        );
        let mut t = table_at(
            START,
            HalmaOptions {
                ply_limit: Some(1),
                evacuation: None,
            },
        );
        t.apply(t.read_play("a4-a5").unwrap()).unwrap();
        assert_eq!(
            t.final_line(&super::super::ended(&t)),
            "Drawn: the game reached its ply limit of 1 without a winner (ply 1)."
        );
        let mut t = table_at(START, HalmaOptions::default());
        for _ in 0..2 {
            for text in ["a4-a5", "h5-h4", "a5-a4", "h4-h5"] {
                t.apply(t.read_play(text).unwrap()).unwrap();
            }
        }
        assert_eq!(t.final_line(&super::super::ended(&t)), "Drawn: the same position, with the same side to move, stood for the third time (ply 8).");
    }

    #[test]
    fn the_factory_levels_are_offered_and_backgammon_options_are_refused() {
        use clap::Parser;
        let parse = |extra: &[&str]| {
            let mut argv = vec!["tabula", "play", "halma-grasshopper"];
            argv.extend_from_slice(extra);
            match crate::Cli::try_parse_from(argv).unwrap().command {
                crate::Command::Play(args) => {
                    table(&args, 1).map(|(_, what, levels)| (what, levels))
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
